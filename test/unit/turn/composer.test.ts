import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spendStatus } from '../../../src/core/models/spend';
import { composeTurn, TURN_ORDER, type TurnSteps } from '../../../src/core/turn/composer';
import { personaText } from '../../../src/core/turn/persona';

function steps(calls: string[], over: Partial<{ [K in keyof TurnSteps]: Awaited<ReturnType<TurnSteps[K]>> }> = {}): TurnSteps {
  const status = spendStatus({ day: '2025-01-01', usd: 0, estimated: false, records: 0 }, 0);
  const step = <T>(name: string, value: T) => async () => {
    calls.push(`${name}:start`);
    await new Promise((r) => setTimeout(r, name === 'heal' ? 5 : 0));
    calls.push(`${name}:end`);
    return value;
  };
  return {
    heal: step('heal', over.heal ?? { model: 'a' }),
    pack: step('pack', over.pack ?? { packs: [], reason: 'none' }),
    budget: step('budget', over.budget ?? { status, notices: [] }),
    persona: step('persona', over.persona ?? { name: 'none' }),
  };
}

test('the steps run strictly in order: heal, pack, budget note, persona', async () => {
  const calls: string[] = [];
  await composeTurn(steps(calls));
  assert.deepEqual(calls, TURN_ORDER.flatMap((s) => [`${s}:start`, `${s}:end`]));
});

test('a composed turn: failover line and event, pack block and event, frugality note, spend notice, persona', async () => {
  const critical = spendStatus({ day: '2025-01-01', usd: 2, estimated: false, records: 3 }, 2);
  const turn = await composeTurn(steps([], {
    heal: { model: 'b', profile: 'pair', switched: { from: 0, to: 1, reason: 'failures', failures: 2, fromModel: 'a', toModel: 'b' } },
    pack: { packs: [{ name: 'testing', context: 'Write tests first.\n', recommendedRole: 'coder' }], reason: 'trigger', score: 3, matched: ['test*'] },
    budget: { status: critical, notices: ['critical'] },
    persona: { name: 'alfred', text: personaText('alfred') },
  }));
  assert.deepEqual(turn.context, [
    '<domain-packs>\n\n# testing\n\nWrite tests first.\n\n</domain-packs>',
    'Note from Alfred: today\'s spend of $2.00 has reached the daily cap of $2.00. Be frugal: answer briefly, call tools only when they are really needed, read only the lines you need.',
  ]);
  assert.deepEqual(turn.notices.map((n) => n.kind), ['failover', 'pack', 'spend']);
  assert.deepEqual(turn.events.map((e) => e.type), ['ModelFailover', 'PackSelected', 'SpendWarning']);
  assert.deepEqual(turn.events[0], { type: 'ModelFailover', profile: 'pair', from: 'a', to: 'b', reason: 'failures', failures: 2 });
  assert.deepEqual(turn.events[1], { type: 'PackSelected', pack: 'testing', packs: ['testing'], reason: 'trigger', score: 3, matched: ['test*'] });
  assert.equal(turn.personaText, personaText('alfred'));
});

test('no pack: no block, no event; below the cap: no note; persona none: no text', async () => {
  const turn = await composeTurn(steps([]));
  assert.deepEqual(turn.context, []);
  assert.deepEqual(turn.events, []);
  assert.deepEqual(turn.notices, []);
  assert.equal(turn.personaText, undefined);
  assert.equal(personaText('none'), undefined);
});

test('a warning notice once, without a frugality note; stuck failover is said', async () => {
  const warning = spendStatus({ day: '2025-01-01', usd: 0.8, estimated: true, records: 1 }, 1);
  const turn = await composeTurn(steps([], { budget: { status: warning, notices: ['warning'] }, heal: { model: 'a', profile: 'p', stuck: { model: 'a', reason: 'failures', failures: 2 } } }));
  assert.deepEqual(turn.context, []);
  assert.deepEqual(turn.notices.map((n) => n.kind), ['failover-stuck', 'spend']);
  assert.deepEqual(turn.events, [{ type: 'SpendWarning', level: 'warning', day: '2025-01-01', spentUsd: 0.8, capUsd: 1, percent: 80, estimated: true }]);
});

test('pinned packs share one <domain-packs> wrapper', async () => {
  const turn = await composeTurn(steps([], { pack: { packs: [{ name: 'a', context: 'A' }, { name: 'b', context: '\nB\n\n' }], reason: 'pinned' } }));
  assert.equal(turn.context[0], '<domain-packs>\n\n# a\n\nA\n\n# b\n\nB\n\n</domain-packs>');
});
