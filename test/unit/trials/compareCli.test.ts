/** `alfred compare`: a suite's conditions or recorded history, exit code 2 when the guard refuses. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { stateDir } from '../../../src/core/base/state/paths';
import type { TrialOutcome } from '../../../src/core/trials/outcome';
import { outcomesPath, recordEnded } from '../../../src/core/trials/store';
import { parseSuite, suiteHash } from '../../../src/core/trials/suite';
import { isolateEnv, newWorkspace, run } from '../cli/helpers';

const env = isolateEnv();
const BASE = { alfred: '0.9.0', model: 'gpt-x', role: 'coder', handoff: 'off' };
const budget = { tokens: 1000, seconds: 60, usd: 0.5 };

function outcome(condition: string, trial: number, components: Record<string, string>, over: Partial<TrialOutcome> = {}): TrialOutcome {
  return {
    condition, task: 'fix', trial, instance: 'inst', suiteHash: 'h1', fingerprint: { id: `fp-${JSON.stringify(components)}`, components: { ...BASE, ...components } },
    status: 'accepted', escapedDefect: null, duplicatedToolActions: condition === 'control' ? 2 + (trial % 2) : 0, tokens: 500, costUsd: 0.01, wallMs: 1500, budget,
    startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:01.500Z', ...over,
  };
}

function suiteWorkspace(treatment: Record<string, string>): string {
  const ws = newWorkspace(env.root, { '.alfred/trials.toml': 'name = "demo"\ntrials = 4\n[[task]]\nid = "fix"\nprompt = "p"\nbudget = { tokens = 1000, seconds = 60, usd = 0.5 }\n[[condition]]\nname = "control"\ncontrol = true\n' });
  const file = outcomesPath(ws, 'demo');
  for (let i = 1; i <= 4; i++) {
    recordEnded(file, outcome('control', i, {}));
    recordEnded(file, outcome('handoff', i, treatment));
  }
  return ws;
}

describe('alfred compare', () => {
  it('reports the difference in duplicated tool actions with its interval, for the suite of .alfred/trials.toml', async () => {
    const ws = suiteWorkspace({ handoff: 'on' });
    const r = await run(['compare', 'control', 'handoff', '--workspace', ws]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.startsWith('Comparison of suite "demo": control "control" (4) vs treatment "handoff" (4)\nComponent changed: handoff (off → on)'), r.stdout);
    assert.match(r.stdout, /Duplicated tool actions per trial\n {2}control {4}2\.50 \(n = 4\), 95% interval 2\.\d\d to 3\.00\n {2}treatment {2}0\.00 \(n = 4\), 95% interval 0\.00 to 0\.00\n {2}difference -2\.50, 95% interval -3\.00 to -2\.\d\d: the treatment is lower by 2\.50 \(better\)/);

    const j = await run(['compare', 'control', 'handoff', '--json', '--suite', 'demo', '--workspace', ws]);
    const report = JSON.parse(j.stdout) as { refused: boolean; metrics: Array<{ metric: string; difference: { estimate: number; noChange: boolean } }> };
    const dup = report.metrics.find((m) => m.metric === 'duplicatedToolActions')!;
    assert.deepEqual([report.refused, dup.difference.estimate, dup.difference.noChange], [false, -2.5, false]);
  });

  it('says when the suite file\'s plan differs from the one the trials ran under', async () => {
    const ws = suiteWorkspace({ handoff: 'on' });
    const r = await run(['compare', 'control', 'handoff', '--workspace', ws]);
    const plan = parseSuite(fs.readFileSync(path.join(ws, '.alfred/trials.toml'), 'utf8'), 'x').suite!;
    assert.ok(r.stdout.includes(`Note: The suite file's plan has changed since these trials ran (hash ${suiteHash(plan)} now, h1 recorded): the next alfred trial run records the change.`), r.stdout);
    const file = outcomesPath(ws, 'demo');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replaceAll('"suiteHash":"h1"', `"suiteHash":"${suiteHash(plan)}"`));
    const same = await run(['compare', 'control', 'handoff', '--workspace', ws]);
    assert.equal(same.code, 0);
    assert.ok(!same.stdout.includes('has changed since'), same.stdout);
  });

  it('exits 2 with the reasons on stderr when the two conditions differ in two components', async () => {
    const ws = suiteWorkspace({ handoff: 'on', model: 'gpt-y' });
    const r = await run(['compare', 'control', 'handoff', '--workspace', ws]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'alfred compare: refused: the two differ in 2 components, not one: handoff (off → on), model (gpt-x → gpt-y)');
  });

  it('exits 1 naming a condition that has no trials, or a suite that has none', async () => {
    const ws = suiteWorkspace({ handoff: 'on' });
    const r = await run(['compare', 'control', 'persona', '--workspace', ws]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'alfred compare: suite "demo" has no recorded trial of condition "persona" (recorded: control, handoff).');
    const none = await run(['compare', 'a', 'b', '--suite', 'other', '--workspace', ws]);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /^alfred compare: suite "other" has no recorded trials/);
  });

  it('--history compares two fingerprints of completion records by prefix, and lists them', async () => {
    const ws = newWorkspace(env.root);
    const dir = stateDir(fs.realpathSync(ws));
    fs.mkdirSync(dir, { recursive: true });
    const rec = (id: string, accepted: boolean, components: Record<string, string>) => JSON.stringify({
      version: 1, id, ts: '2026-01-01T00:00:00.000Z', workspace: ws, accepted, reason: '', evaluator: 'exit-codes', role: 'coder', session: null,
      trigger: 'hook:Stop', snapshot: {}, checks: [], environment: { node: 'v20', os: 'linux', alfred: '0.9.0' }, durationMs: 1,
      fingerprint: { id: components.handoff === 'on' ? 'bbbb00000001' : 'aaaa00000001', components: { ...BASE, ...components } },
    });
    fs.writeFileSync(path.join(dir, 'completions.jsonl'), [
      rec('1', true, {}), rec('2', false, {}), rec('3', true, { handoff: 'on' }), rec('4', true, { handoff: 'on' }),
    ].join('\n') + '\n');
    const r = await run(['compare', 'aaaa', 'bbbb', '--history', '--workspace', ws]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes('Acceptance rate\n  control    50.0% (1 of 2), 95% interval 9.5% to 90.5%\n  treatment  100.0% (2 of 2), 95% interval 34.2% to 100.0%'), r.stdout);
    assert.ok(r.stdout.includes('Note: Recorded history: budgets, task instances and trial counts are not checked'), r.stdout);
    const list = await run(['compare', '--history', '--workspace', ws]);
    assert.deepEqual(list.out.map((l) => l.split('  ').slice(0, 2).join('  ')), ['aaaa00000001  1 accepted, 1 rejected', 'bbbb00000001  2 accepted, 0 rejected']);
  });
});
