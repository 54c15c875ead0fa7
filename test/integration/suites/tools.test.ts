import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { alfred, freshSession, invoke, refusal, textOf, until, workspaceFile, writeRole } from '../helpers';

suite('Alfred tools through vscode.lm.invokeTool', () => {
  test('ctx_read returns the file and charges its tokens', async () => {
    const h = await freshSession('coder');
    const result = await invoke('ctx_read', { path: 'src/cart.js' });
    assert.match(textOf(result), /function total\(items/);
    const { status } = h.budget();
    assert.ok(status.dimensions.tokens.used > 50, `tokens charged: ${status.dimensions.tokens.used}`);
    assert.ok(status.dimensions.cost.used > 0, 'cost charged');
    const calls = h.events({ types: ['ToolCall'] }).events.filter((e) => e.tool === 'ctx_read');
    assert.deepEqual(calls.slice(-2).map((e) => e.phase), ['decision', 'result']);
  });

  test('a bad argument is refused before anything runs', async () => {
    const h = await freshSession('coder');
    const message = await refusal('ctx_edit', { path: 'src/new.js' });
    assert.match(message, /missing argument "newString"/);
    assert.equal(fs.existsSync(workspaceFile('src/new.js')), false);
    assert.equal(h.budget().status.dimensions.tokens.used, 0);
  });

  test('ctx_search, ctx_tree and ctx_edit work under coder', async () => {
    await freshSession('coder');
    assert.match(textOf(await invoke('ctx_search', { query: 'addItem' })), /src\/cart\.js:\d+:/);
    assert.match(textOf(await invoke('ctx_tree', { depth: 2 })), /src\//);
    const file = workspaceFile('notes/todo.md');
    fs.rmSync(file, { force: true });
    await invoke('ctx_edit', { path: 'notes/todo.md', newString: '- ship it\n' });
    assert.equal(fs.readFileSync(file, 'utf8'), '- ship it\n');
    await invoke('ctx_edit', { path: 'notes/todo.md', oldString: 'ship it', newString: 'test it' });
    assert.equal(fs.readFileSync(file, 'utf8'), '- test it\n');
  });

  test('ctx_shell runs in the workspace and counts one shell call', async () => {
    const h = await freshSession('coder');
    const text = textOf(await invoke('ctx_shell', { command: 'node -e "console.log(6*7)"' }));
    assert.match(text, /42/);
    assert.match(text, /exit code: 0/);
    assert.equal(h.budget().status.dimensions.shell.used, 1);
  });

  test('reviewer: edits and shell are refused with a PolicyViolation, reads still work', async () => {
    const h = await freshSession('reviewer');
    const before = h.events({ types: ['PolicyViolation'] }).events.length;
    assert.match(await refusal('ctx_shell', { command: 'touch should-not-exist' }), /shell/i);
    assert.equal(fs.existsSync(workspaceFile('should-not-exist')), false);
    assert.match(await refusal('ctx_edit', { path: 'src/cart.js', oldString: 'total', newString: 'sum' }), /ctx_edit/);
    assert.match(fs.readFileSync(workspaceFile('src/cart.js'), 'utf8'), /function total/);
    assert.match(textOf(await invoke('ctx_read', { path: 'README.md' })), /Sample workspace/);
    const violations = h.events({ types: ['PolicyViolation'] }).events.slice(before);
    assert.deepEqual(violations.map((e) => e.tool), ['ctx_shell', 'ctx_edit']);
    assert.equal(h.budget().status.dimensions.shell.used, 0);
  });

  test('an agent may not edit its own role files', async () => {
    await freshSession('coder');
    assert.match(await refusal('ctx_edit', { path: '.alfred/roles/evil.toml', newString: '[role]\nname = "evil"\n' }), /rules agents work under/);
    assert.equal(fs.existsSync(workspaceFile('.alfred/roles/evil.toml')), false);
  });

  test('WARNING appends the budget line; EXHAUSTED refuses naming the dimension; ctx_session stays callable', async () => {
    // The same read again and again fills the budget; the runaway guard (tested on its own) is off here.
    writeRole('tiny', '[role]\nname = "tiny"\ninherits = "coder"\ndescription = "tiny budget"\n[limits]\nmax_context_tokens = 1000\nmax_repeated_calls = 0\n');
    const api = await alfred();
    // The file watcher reloads roles by itself.
    await until('the new role to load', () => api.harness()?.roles().roles.get('tiny'));
    const h = await freshSession('tiny');
    let text = '';
    // One short line at a time, so the budget crosses 80% well before 100%.
    for (let i = 0; i < 200 && h.budget().status.signal === 'OK'; i++) text = textOf(await invoke('ctx_read', { path: 'src/cart.js', startLine: 4, endLine: 5 }));
    assert.equal(h.budget().status.signal, 'WARNING');
    assert.match(text, /⚠ Budget\[tiny\]: tokens \d+\/1000 \(\d+%\) \| shell 0\/100 \(0%\) \| cost ~?\$0\.\d+\/\$5\.00 \(0%\) → WARNING/);
    for (let i = 0; i < 50 && h.budget().status.signal !== 'EXHAUSTED'; i++) await invoke('ctx_read', { path: 'src/cart.js' }).then(undefined, () => undefined);
    assert.equal(h.budget().status.signal, 'EXHAUSTED');
    assert.match(await refusal('ctx_read', { path: 'README.md' }), /Budget exhausted: .*tokens/);
    assert.match(textOf(await invoke('ctx_session', { action: 'budget' })), /→ EXHAUSTED/);
    const types = h.events({ types: ['BudgetWarning', 'BudgetExhausted'] }).events.filter((e) => e.session === h.budget().session).map((e) => `${e.type}:${String(e.dimension)}`);
    assert.deepEqual(types, ['BudgetWarning:tokens', 'BudgetExhausted:tokens'], 'each crossing reported once');
  });

  test('ctx_session role switch needs the user\'s confirmation', async () => {
    const api = await alfred();
    const h = await freshSession('reviewer');
    const original = api.prompts.confirm;
    try {
      api.prompts.confirm = async () => false;
      assert.match(textOf(await invoke('ctx_session', { action: 'role', value: 'admin' })), /declined/);
      assert.equal(h.activeRole().role.name, 'reviewer');
      api.prompts.confirm = async () => true;
      assert.match(textOf(await invoke('ctx_session', { action: 'role', value: 'admin' })), /switched to admin/);
      assert.equal(h.activeRole().role.name, 'admin');
    } finally {
      api.prompts.confirm = original;
    }
  });
});
