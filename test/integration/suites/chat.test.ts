import * as assert from 'node:assert/strict';
import { formatCharge } from '../../../src/core/base/money';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { readUsage } from '../../../src/core/models/usageLog';
import { readChatState, updateChatState } from '../../../src/core/turn/chatState';
import { ask, messageText, requests, resetModel, RecordingStream, script, scriptedModel, setSetting, setUserSetting } from '../chat';
import { alfred, freshSession, until, workspaceFile, writeRole } from '../helpers';

const PAIR = [{ name: 'pair', chain: [{ vendor: 'scripted', id: 'scripted-a' }, { vendor: 'scripted', id: 'scripted-b' }] }];

suite('@alfred: the governed chat loop with a scripted model', () => {
  setup(async () => {
    await resetModel();
    const h = await freshSession('coder');
    await updateChatState(h.stateDir, (s) => { delete s.profile; s.failover = {}; });
  });
  teardown(async () => {
    for (const key of ['profiles', 'prices', 'maxToolRounds', 'autopilot', 'pinnedPacks', 'dailyBudgetUsd', 'persona']) await setSetting(key, undefined);
    for (const key of ['autopilot', 'prices', 'maxToolRounds']) await setUserSetting(key, undefined);
  });

  test('a prompt: the answer streams, the request is priced (the fallback price, named, for an unknown model) and recorded for the daily spend', async () => {
    const h = await freshSession('coder');
    await script([{ text: ['Good ', 'evening.'] }]);
    const { out, meta } = await ask('Say good evening');
    assert.match(out.text, /Good evening\./);
    assert.match(out.text, /scripted-a · \d+ tokens in, \d+ out · cost ~\$0\.\d+ \(fallback price\)/);
    assert.equal(meta.stopped, 'done');
    assert.deepEqual(meta.rounds, [{ text: 'Good evening.', calls: [], results: [] }]);
    const [req] = await requests();
    assert.equal(req!.model, 'scripted-a');
    // Alfred's own tools only, by default: every other tool the user adds (/tools, alfred.chatTools).
    assert.ok(req!.tools.includes('ctx_read') && !req!.tools.includes('scripted_echo'), `tools offered: ${req!.tools.join(', ')}`);
    const usage = readUsage(h.stateDir).records.at(-1)!;
    assert.deepEqual([usage.model, usage.vendor, usage.estimated, usage.measured, usage.source], ['scripted-a', 'scripted', true, 'counted', 'chat']);
    assert.ok(usage.inputTokens > 0 && usage.outputTokens > 0);
    assert.match(h.budget().line, /cost ~\$/, 'the fallback price counts against the budget, marked estimated');
    // The footer writes the request's cost as every other surface does (the money-strings unit test compares them).
    assert.ok(out.text.includes(`cost ${formatCharge({ usd: usage.costUsd, fallback: true }, 'en')}`), out.text);
    const ev = h.events({ types: ['ModelUsage'] }).events.at(-1)!;
    assert.equal(ev.model, 'scripted-a');
  });

  test('a priced model shows its cost; a reported usage replaces the counted one', async () => {
    const h = await freshSession('coder');
    await setUserSetting('prices', { 'scripted-a': { inputPerMTok: 10, outputPerMTok: 20 } });
    await script([{ text: 'Priced.', usage: { inputTokens: 100, outputTokens: 10 } }]);
    const { out } = await ask('price me');
    const usage = readUsage(h.stateDir).records.at(-1)!;
    assert.deepEqual([usage.measured, usage.inputTokens, usage.outputTokens, usage.estimated], ['reported', 100, 10, false]);
    assert.match(out.text, /100 tokens in, 10 out · cost \$0\.0012/);
  });

  test('a repository\'s settings cannot lower a price or raise the round limit: the same request costs the same, the loop stops at the user\'s limit', async () => {
    const h = await freshSession('coder');
    await setUserSetting('prices', { 'scripted-a': { inputPerMTok: 10, outputPerMTok: 20 } });
    await setUserSetting('maxToolRounds', 1);
    // As a cloned repository's .vscode/settings.json would have them.
    await setSetting('prices', { 'scripted-a': { inputPerMTok: 0, outputPerMTok: 0 } });
    await setSetting('fallbackPrice', { inputPerMTok: 0, outputPerMTok: 0 });
    await setSetting('maxToolRounds', 200);
    try {
      await script([
        { text: 'Priced.', usage: { inputTokens: 100, outputTokens: 10 }, toolCalls: [{ name: 'ctx_tree', input: { depth: 1 }, callId: 't1' }] },
        { toolCalls: [{ name: 'ctx_tree', input: { depth: 1 }, callId: 't2' }] },
        { text: 'Never reached.' },
      ]);
      const reported = () => readUsage(h.stateDir).records.filter((r) => r.measured === 'reported');
      const before = reported().length;
      const { out, meta } = await ask('price me');
      // 100 × $10 + 10 × $20 per million, as the user priced it; the workspace's $0 changed nothing.
      assert.deepEqual(reported().slice(before).map((r) => r.costUsd), [0.0012]);
      assert.equal(meta.stopped, 'rounds', 'stopped at the user\'s limit of 1, not the workspace\'s 200');
      assert.match(out.text, /Stopped after 1 tool rounds/);
      assert.equal((await requests()).length, 2);
    } finally {
      await setSetting('fallbackPrice', undefined);
    }
  });

  test('usage reported in Copilot\'s format (a `usage` data part): cached input priced as cached, recorded apart', async () => {
    const h = await freshSession('coder');
    await setUserSetting('prices', { 'scripted-a': { inputPerMTok: 10, cachedInputPerMTok: 1, outputPerMTok: 20 } });
    await script([{ text: 'Cached.', copilotUsage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, prompt_tokens_details: { cached_tokens: 80 } } }]);
    const { out } = await ask('price me with the cache');
    const usage = readUsage(h.stateDir).records.at(-1)!;
    assert.deepEqual([usage.measured, usage.inputTokens, usage.cachedInputTokens, usage.outputTokens], ['reported', 100, 80, 10]);
    // 20 × $10 + 80 × $1 + 10 × $20 per million = $0.00048.
    assert.equal(usage.costUsd, 0.00048);
    assert.match(out.text, /100 tokens in, 10 out · cost \$0\.0005/);
  });

  test('tool calls: Alfred\'s own tool and another extension\'s tool run through the gate; results go back to the model', async () => {
    const h = await freshSession('coder');
    await script([
      { text: 'Reading.', toolCalls: [{ name: 'ctx_read', input: { path: 'src/cart.js' }, callId: 'read-1' }, { name: 'scripted_echo', input: { text: 'hi' }, callId: 'echo-1' }] },
      { text: 'The cart sums its items.' },
    ]);
    const { out, meta } = await ask('What does the cart do?');
    assert.deepEqual(out.progress, ['Running ctx_read: src/cart.js…', 'Running scripted_echo…']);
    assert.match(out.text, /The cart sums its items\./);
    const reqs = await requests();
    assert.equal(reqs.length, 2);
    const results = reqs[1]!.messages.at(-1)!.parts;
    assert.deepEqual(results.map((p) => [p.type, p.callId]), [['toolResult', 'read-1'], ['toolResult', 'echo-1']]);
    assert.match(results[0]!.content!.join(''), /function total\(items/);
    assert.equal(results[1]!.content!.join(''), 'echo: hi');
    assert.deepEqual(reqs[1]!.messages.at(-2)!.parts.map((p) => p.type), ['text', 'toolCall', 'toolCall']);
    assert.deepEqual(meta.rounds.map((r) => r.calls.map((c) => c.name)), [['ctx_read', 'scripted_echo'], []]);
    const calls = h.events({ types: ['ToolCall'] }).events.filter((e) => e.session === h.budget().session);
    assert.deepEqual(calls.map((e) => `${e.tool}:${e.phase}:${e.source}`), [
      'ctx_read:decision:tool', 'ctx_read:result:tool', 'scripted_echo:decision:chat', 'scripted_echo:result:chat',
    ]);
  });

  test('refused: a reviewer is never offered edit, shell or unknown tools; a call anyway is refused as the tool result, with a PolicyViolation', async () => {
    const h = await freshSession('reviewer');
    const before = fs.readFileSync(workspaceFile('src/cart.js'), 'utf8');
    await script([
      { toolCalls: [{ name: 'ctx_edit', input: { path: 'src/cart.js', oldString: 'total', newString: 'sum' }, callId: 'e1' }, { name: 'scripted_echo', input: { text: 'x' }, callId: 'x1' }] },
      { text: 'I may only read here.' },
    ]);
    const { out } = await ask('Rename total to sum');
    const reqs = await requests();
    for (const denied of ['ctx_edit', 'ctx_shell', 'scripted_echo']) assert.ok(!reqs[0]!.tools.includes(denied), `${denied} offered to a reviewer`);
    assert.ok(reqs[0]!.tools.includes('ctx_read') && reqs[0]!.tools.includes('ctx_session'));
    const results = reqs[1]!.messages.at(-1)!.parts;
    assert.match(results[0]!.content!.join(''), /ctx_edit is denied for role reviewer/);
    assert.match(results[1]!.content!.join(''), /scripted_echo is not allowed for role reviewer/);
    assert.equal(fs.readFileSync(workspaceFile('src/cart.js'), 'utf8'), before);
    assert.match(out.text, /⛔ `ctx_edit` was refused/);
    assert.match(out.text, /⛔ `scripted_echo` was refused/);
    const violations = h.events({ types: ['PolicyViolation'] }).events.filter((e) => e.session === h.budget().session);
    assert.deepEqual(violations.map((e) => `${e.tool}:${e.source}`), ['ctx_edit:tool', 'scripted_echo:chat']);
  });

  test('budget: a request that could pass the cost cap is not sent; the answer says what it could cost and how to go on', async () => {
    writeRole('pennies', '[role]\nname = "pennies"\ninherits = "coder"\ndescription = "a few cents"\n[limits]\nmax_cost_usd = 0.1\n');
    const api = await alfred();
    await until('the pennies role', () => api.harness()?.roles().roles.get('pennies'));
    const h = await freshSession('pennies');
    await setUserSetting('prices', { 'scripted-a': { inputPerMTok: 1, outputPerMTok: 1 } });
    // Each request really costs $0.032 (reported); each is projected at its counted input plus 4,096 output
    // tokens ($0.0041 and more): after three ($0.096) the fourth could pass the cap, whatever the tools offered weigh.
    await script(Array.from({ length: 10 }, (_, i) => ({ toolCalls: [{ name: 'ctx_session', input: { action: 'budget' }, callId: `s${i}` }], usage: { inputTokens: 32_000, outputTokens: 0 } })));
    const { out, meta } = await ask('Keep checking the budget');
    assert.equal(meta.stopped, 'budget');
    assert.match(out.text, /Not sent: this request could cost up to \$0\.\d+, and with ~?\$0\.09\d+ already spent role pennies would pass its cost limit of \$0\.10\./);
    assert.match(out.text, /To go on: reset the budget \(Alfred: Reset Budget\), switch role \(`\/role NAME`\) or raise the role's cost limit \(max_cost_usd\)\./);
    assert.match(out.text, /`Budget\[pennies\]: .* → WARNING`/);
    const reqs = await requests();
    const session = h.events().events.filter((e) => e.session === h.budget().session);
    assert.equal(session.filter((e) => e.type === 'ModelUsage').length, reqs.length);
    assert.ok(h.budget().status.dimensions.cost.used <= 0.1, `never over the cap: ${h.budget().status.dimensions.cost.used}`);
    const crossings = session.filter((e) => e.type === 'BudgetWarning' || e.type === 'BudgetExhausted');
    assert.deepEqual(crossings.map((e) => `${e.type}:${String(e.dimension)}`), ['BudgetWarning:cost']);
  });

  test('budget: a request that really cost more than its projection is the only one over the cap; then EXHAUSTED stops the loop', async () => {
    writeRole('pennies', '[role]\nname = "pennies"\ninherits = "coder"\ndescription = "a few cents"\n[limits]\nmax_cost_usd = 0.1\n');
    const api = await alfred();
    await until('the pennies role', () => api.harness()?.roles().roles.get('pennies'));
    const h = await freshSession('pennies');
    await setUserSetting('prices', { 'scripted-a': { inputPerMTok: 1, outputPerMTok: 1 } });
    // The first request reports $0.15 of usage, far above its projection.
    await script(Array.from({ length: 5 }, (_, i) => ({ toolCalls: [{ name: 'ctx_session', input: { action: 'budget' }, callId: `s${i}` }], usage: { inputTokens: 150_000, outputTokens: 0 } })));
    const { out, meta } = await ask('Keep checking the budget');
    assert.equal(meta.stopped, 'budget');
    assert.match(out.text, /Stopped: the budget of role pennies is exhausted\./);
    assert.match(out.text, /Budget\[pennies\]: .* → EXHAUSTED/);
    assert.equal((await requests()).length, 1, 'one request over the cap, and no other');
    const crossings = h.events({ types: ['BudgetWarning', 'BudgetExhausted'] }).events.filter((e) => e.session === h.budget().session);
    assert.deepEqual(crossings.map((e) => `${e.type}:${String(e.dimension)}`), ['BudgetExhausted:cost']);
  });

  test('the round limit (alfred.maxToolRounds) stops the loop with a clear message', async () => {
    await setSetting('maxToolRounds', 2);
    await script(Array.from({ length: 5 }, (_, i) => ({ toolCalls: [{ name: 'ctx_tree', input: { depth: 1 }, callId: `t${i}` }] })));
    const { out, meta } = await ask('Walk the tree forever');
    assert.equal(meta.stopped, 'rounds');
    assert.match(out.text, /Stopped after 2 tool rounds/);
    assert.equal((await requests()).length, 3);
  });

  test('failover: two failures of the active model move the next turn to the next link; /profile shows the health; /doctor probes both', async () => {
    const h = await freshSession('coder');
    await setSetting('profiles', PAIR);
    assert.match((await ask('pair', { command: 'profile' })).out.text, /Active profile: \*\*pair\*\*/);
    await script([{ error: { kind: 'lm', code: 'Blocked', message: 'quota exceeded' } }, { error: { kind: 'transport', message: 'socket hang up' } }], 'scripted-a');
    await script([{ text: 'Answered by B.' }], 'scripted-b');

    const first = await ask('Hello?');
    assert.match(first.result.errorDetails?.message ?? '', /scripted-a failed: .*quota exceeded/);
    assert.match((await ask('', { command: 'profile' })).out.text, /`scripted-a` \(active, failing 1\/2\) → `scripted-b` \(standby\)/);
    const second = await ask('Hello again?');
    assert.match(second.result.errorDetails?.message ?? '', /socket hang up/);
    assert.deepEqual((await requests()).map((r) => r.model), ['scripted-a', 'scripted-a'], 'never switched in the middle');

    const third = await ask('Third time?');
    assert.match(third.out.text, /\*\*Failover\*\* \(profile pair\): `scripted-a` failed 2 times in a row, so this turn uses `scripted-b`\./);
    assert.match(third.out.text, /Answered by B\./);
    assert.equal((await requests()).at(-1)!.model, 'scripted-b');
    const failover = h.events({ types: ['ModelFailover'] }).events.at(-1)!;
    assert.deepEqual([failover.profile, failover.from, failover.to, failover.reason, failover.failures], ['pair', 'scripted-a', 'scripted-b', 'failures', 2]);
    const state = readChatState(h.stateDir).state.failover.pair!;
    assert.equal(state.active, 1);
    assert.deepEqual(state.failures, {}, 'the retired model\'s count is cleared, B\'s success cleared its own');

    const doctor = await ask('', { command: 'doctor' });
    assert.match(doctor.out.text, /✅ `scripted-a` → Scripted A \(`scripted\/scripted\/scripted-a`\) · max input 100000 tokens · no price \(fallback, estimated\) · probe answered "ok"/);
    assert.match(doctor.out.text, /✅ `scripted-b` → Scripted B/);
  });

  test('failover: a link that no longer resolves is skipped; with none left, it stays and says so', async () => {
    await freshSession('coder');
    await setSetting('profiles', PAIR);
    await ask('pair', { command: 'profile' });
    await vscode.commands.executeCommand('scriptedModel.setAvailable', ['scripted-b']);
    await modelsGone({ vendor: 'scripted', id: 'scripted-a' });
    const moved = await ask('Anyone there?', { model: await scriptedModel('scripted-b') });
    assert.match(moved.out.text, /`scripted-a` is unavailable, so this turn uses `scripted-b`/);
    await vscode.commands.executeCommand('scriptedModel.setAvailable', []);
    await modelsGone({ vendor: 'scripted' });
    const stuck = await ask('Still there?', { model: await scriptedModelOrFallback() });
    assert.match(stuck.out.text, /`scripted-b` is unavailable and no other model of the chain is available/);
  });

  test('a pack is chosen from an English and from a Spanish prompt, injected, shown and logged; it sticks for the next prompt', async () => {
    const h = await freshSession('coder');
    await script([{ text: 'Data.' }, { text: 'Pruebas.' }, { text: 'Still tests.' }]);
    const en = await ask('The SQL migration for the orders database fails');
    assert.match(en.out.text, /Pack: data/);
    const es = await ask('Escribe pruebas unitarias para el carrito');
    assert.match(es.out.text, /Pack: testing/);
    const reqs = await requests();
    assert.match(messageText(reqs[0]!.messages.at(-1)!), /^<domain-packs>\n\n# data\n\nYou are working with data/);
    assert.match(messageText(reqs[0]!.messages.at(-1)!), /<\/domain-packs>\n\nThe SQL migration for the orders database fails$/);
    assert.match(messageText(reqs[1]!.messages.at(-1)!), /^<domain-packs>\n\n# testing\n\n/);
    const sticky = await ask('¿Y ahora qué?', { history: [es.turn] });
    assert.match(sticky.out.text, /Pack: testing/);
    assert.equal(sticky.meta.packReason, 'sticky');
    const picked = h.events({ types: ['PackSelected'] }).events.slice(-3);
    assert.deepEqual(picked.map((e) => `${e.pack}:${e.reason}`), ['data:trigger', 'testing:trigger', 'testing:sticky']);
    assert.deepEqual(readChatState(h.stateDir).state.lastPack?.packs, ['testing']);
  });

  test('autopilot off: no pack, or the pinned ones; the toggle command switches it', async () => {
    await script([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    assert.equal(await vscode.commands.executeCommand('alfred.toggleAutopilot'), false);
    const none = await ask('Fix the SQL migration');
    assert.doesNotMatch(none.out.text, /Pack:/);
    assert.doesNotMatch(messageText((await requests())[0]!.messages.at(-1)!), /domain-packs/);
    await setSetting('pinnedPacks', ['security', 'writing']);
    const pinned = await ask('Fix the SQL migration');
    assert.match(pinned.out.text, /Pack: security, writing/);
    assert.match(messageText((await requests())[1]!.messages.at(-1)!), /^<domain-packs>\n\n# security\n\n[\s\S]*\n\n# writing\n\n[\s\S]*<\/domain-packs>/);
    assert.equal(await vscode.commands.executeCommand('alfred.toggleAutopilot'), true);
  });

  test('the next turn continues the conversation: earlier tool calls and results are replayed; the persona is sent once', async () => {
    await script([{ toolCalls: [{ name: 'ctx_read', input: { path: 'README.md' }, callId: 'r1' }] }, { text: 'It is a sample.' }, { text: 'Yes, the same one.' }]);
    const first = await ask('What is this workspace?');
    const second = await ask('Is it the same?', { history: [first.turn] });
    assert.equal(second.meta.stopped, 'done');
    const last = (await requests()).at(-1)!;
    const shape = last.messages.map((m) => `${m.role}:${m.parts.map((p) => p.type).join('+')}`);
    assert.deepEqual(shape, ['user:text', 'user:text', 'assistant:toolCall', 'user:toolResult', 'assistant:text', 'user:text']);
    assert.match(messageText(last.messages[0]!), /^You are Alfred/);
    assert.equal(last.messages[2]!.parts[0]!.callId, 'r1');
    assert.match(last.messages[3]!.parts[0]!.content!.join(''), /Sample workspace/);
    for (const r of await requests()) assert.equal(r.messages.filter((m) => /You are Alfred/.test(messageText(m))).length, 1, 'persona once per request');
    await setSetting('persona', 'none');
    await script([{ text: 'plain' }]);
    await ask('No persona now?');
    assert.ok((await requests()).at(-1)!.messages.every((m) => !/You are Alfred/.test(messageText(m))));
  });

  test('a turn that got no answer (no model, or VS Code refused the request) is not sent again with the next one', async () => {
    await script([{ text: 'Hello.' }]);
    const noModel = { prompt: 'hello', result: { metadata: { alfred: 1, rounds: [], packs: [], stopped: 'error' } } };
    const refused = { prompt: 'hello again', result: { errorDetails: { message: 'Language model unavailable' } } };
    const answer = await ask('hello', { history: [noModel, refused] });
    assert.equal(answer.meta.stopped, 'done');
    const last = (await requests()).at(-1)!;
    const prompts = last.messages.filter((m) => m.role === 'user').map(messageText).filter((t) => /hello/.test(t));
    assert.equal(prompts.length, 1, JSON.stringify(prompts));
  });

  test('/tools: Alfred\'s own tools by default; /tools add offers another tool the role permits, /tools reset takes it back', async () => {
    const h = await freshSession('coder');
    await script([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    await ask('first');
    const offered = async () => (await requests()).at(-1)!.tools;
    assert.ok(!(await offered()).includes('scripted_echo'));
    assert.ok((await offered()).every((t) => t.startsWith('ctx_') || t.startsWith('alfred_')), (await offered()).join(', '));
    const added = await ask('add scripted_*', { command: 'tools' });
    assert.match(added.out.text, /Others you chose \(`scripted_\*`\): `scripted_echo`/);
    await ask('second');
    assert.ok((await offered()).includes('scripted_echo'));
    await ask('reset', { command: 'tools' });
    await ask('third');
    assert.ok(!(await offered()).includes('scripted_echo'));
    assert.equal(h.budget().status.role, 'coder');
  });

  test('the daily spend cap: a critical notice once a day and a frugality note while it lasts; never blocking', async () => {
    const h = await freshSession('coder');
    await script([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    await ask('first, before any cap');
    await setSetting('dailyBudgetUsd', 0.000001);
    const second = await ask('second');
    assert.match(second.out.text, /Daily spend cap reached/);
    assert.match(second.out.text, /two/, 'it still answers');
    const third = await ask('third');
    assert.doesNotMatch(third.out.text, /Daily spend cap reached/, 'once a day');
    assert.match(third.out.text, /three/);
    const reqs = await requests();
    assert.doesNotMatch(messageText(reqs[0]!.messages.at(-1)!), /Be frugal/);
    assert.match(messageText(reqs[1]!.messages.at(-1)!), /Be frugal/);
    assert.match(messageText(reqs[2]!.messages.at(-1)!), /Be frugal/);
    const warnings = h.events({ types: ['SpendWarning'] }).events;
    assert.deepEqual(warnings.map((e) => e.level), ['critical']);
    assert.match((await ask('', { command: 'budget' })).out.text, /Spent today by @alfred \(UTC\): ~\$\d+\.\d+ \(fallback price\) of the daily cap \$0\.00/);
  });

  test('cancellation stops the turn at once and does not count as a model failure', async () => {
    const h = await freshSession('coder');
    await setSetting('profiles', PAIR);
    await ask('pair', { command: 'profile' });
    await script([{ error: { kind: 'transport', message: 'connection reset' } }, { text: ['First words… ', 'never sent'], chunkDelayMs: 600_000 }], 'scripted-a');
    await ask('This one fails');
    assert.deepEqual(readChatState(h.stateDir).state.failover.pair?.failures, { 'scripted/*/scripted-a': 1 });
    const cts = new vscode.CancellationTokenSource();
    const out = new RecordingStream();
    const pending = ask('Tell me a long story', { token: cts.token, out });
    await until('the first words', () => out.text.includes('First words'));
    cts.cancel();
    const { meta } = await pending;
    assert.equal(meta.stopped, 'cancelled');
    assert.doesNotMatch(out.text, /never sent/);
    assert.deepEqual(readChatState(h.stateDir).state.failover.pair?.failures, { 'scripted/*/scripted-a': 1 }, 'a cancel is neutral');
    const charged = h.events({ types: ['ModelUsage'] }).events.filter((e) => e.session === h.budget().session);
    assert.equal(charged.length, 1, 'the words already streamed are charged; the failed request, which produced nothing, is not');
    await script([{ text: 'ok again' }], 'scripted-a');
    assert.match((await ask('Short one')).out.text, /ok again/);
    assert.deepEqual(readChatState(h.stateDir).state.failover.pair?.failures, {}, 'a success clears the count');
  });

  test('/packs lists the shipped packs with English and Spanish triggers', async () => {
    const { out } = await ask('', { command: 'packs' });
    for (const name of ['security', 'testing', 'devops', 'docs', 'web', 'data', 'clean-code', 'writing']) assert.match(out.text, new RegExp(`\\*\\*${name}\\*\\*`));
    assert.match(out.text, /Autopilot is on/);
    assert.match(out.text, /es: .*pruebas unitarias/);
  });
});

async function modelsGone(selector: vscode.LanguageModelChatSelector): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await vscode.lm.selectChatModels(selector)).length === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`models ${JSON.stringify(selector)} are still available`);
}

/** With every scripted model gone, the request still carries the model the chat had selected. */
async function scriptedModelOrFallback(): Promise<vscode.LanguageModelChat> {
  return { id: 'gone', vendor: 'scripted', family: 'scripted', name: 'Gone', version: '1', maxInputTokens: 1 } as unknown as vscode.LanguageModelChat;
}

// Keep the model warm for the first test: providers resolve lazily.
suiteSetup(async () => { await scriptedModel('scripted-a'); await scriptedModel('scripted-b'); });
