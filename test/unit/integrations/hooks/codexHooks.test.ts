import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CODEX_HOOK_EVENTS, codexHookFile, hasClaudeHooks, hasCodexHooks, launcherScripts, launcherTarget, withClaudeHooks, withoutCodexHooks,
} from '../../../../src/core/integrations/hooks/install';
import { canonicalHookEvent } from '../../../../src/core/integrations/hooks/events';
import { GOVERNED_AGENTS } from '../../../../src/core/protect/agents';
import { HOOK_FILES } from '../../../../src/core/protect/agents';
import { hookFilePath } from '../../../../src/vscode/hooks/hookFiles';

type CodexFile = { hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ type: string; command: string; timeout: number }> }>> };

test('.codex/hooks.json has one command hook per event, no matcher, through the per-user launcher', () => {
  const data = JSON.parse(codexHookFile()) as CodexFile;
  assert.deepEqual(Object.keys(data), ['hooks']);
  assert.deepEqual(Object.keys(data.hooks), [...CODEX_HOOK_EVENTS]);
  for (const event of CODEX_HOOK_EVENTS) {
    const groups = data.hooks[event]!;
    assert.equal(groups.length, 1);
    assert.equal(groups[0]!.matcher, undefined, 'every tool goes through Alfred');
    assert.deepEqual(groups[0]!.hooks.map((h) => [h.type, h.command]), [['command', `"$HOME/.alfred/bin/alfred" hook ${event}`]]);
  }
  assert.ok(data.hooks.Stop![0]!.hooks[0]!.timeout > data.hooks.PreToolUse![0]!.hooks[0]!.timeout, 'Stop runs the checks: a longer timeout');
  assert.ok(hasCodexHooks(codexHookFile()));
});

test('.codex/hooks.json, exactly: the session, prompt, tool and stop events, and the sub-agent and compaction events', () => {
  const events = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact'];
  const hooks = Object.fromEntries(events.map((e) => [e, [{ hooks: [{ type: 'command', command: `"$HOME/.alfred/bin/alfred" hook ${e}`, timeout: e === 'Stop' ? 600 : 30 }] }]]));
  assert.equal(codexHookFile(), `${JSON.stringify({ hooks }, null, 2)}\n`);
});

test('every Codex event Alfred registers is one `alfred hook` answers (Codex PascalCase names)', () => {
  for (const event of CODEX_HOOK_EVENTS) assert.equal(canonicalHookEvent(event), event);
  // Not registered: alfred hook does not answer PostCompact, and answers PermissionRequest in a shape Codex rejects.
  for (const event of ['PermissionRequest', 'PostCompact']) assert.equal((CODEX_HOOK_EVENTS as readonly string[]).includes(event), false, event);
});

test('the user\'s own Codex hooks stay; installing twice adds nothing; removing leaves only theirs', () => {
  const mine = `{
  "hooks": {
    "PreToolUse": [{ "matcher": "^Bash$", "hooks": [{ "type": "command", "command": "./guard.sh", "statusMessage": "guarding" }] }],
    "PreCompact": [{ "hooks": [{ "type": "command", "command": "./compact.sh" }] }]
  }
}
`;
  const governed = codexHookFile(mine);
  const data = JSON.parse(governed) as CodexFile;
  assert.deepEqual(data.hooks.PreToolUse!.map((g) => g.hooks[0]!.command), ['./guard.sh', '"$HOME/.alfred/bin/alfred" hook PreToolUse']);
  assert.equal(data.hooks.PreToolUse![0]!.matcher, '^Bash$');
  assert.deepEqual(data.hooks.PreCompact!.map((g) => g.hooks[0]!.command), ['./compact.sh', '"$HOME/.alfred/bin/alfred" hook PreCompact'], 'the user\'s own first');
  assert.equal(codexHookFile(governed), governed, 'idempotent');
  const back = withoutCodexHooks(governed);
  assert.equal(hasCodexHooks(back), false);
  assert.deepEqual(JSON.parse(back), JSON.parse(mine));
});

test('a Codex hook file that held only Alfred\'s hooks is removed entirely; odd files are read safely', () => {
  assert.equal(withoutCodexHooks(codexHookFile(undefined)), '');
  assert.equal(hasCodexHooks(undefined), false);
  assert.equal(hasCodexHooks('not json'), false);
  assert.equal(hasCodexHooks('{"hooks": []}'), false);
  assert.equal(hasCodexHooks('{"hooks": {"PreToolUse": [{"hooks": "x"}, null]}}'), false);
  // A group Alfred cannot read is the user's: kept as it is.
  const odd = '{"hooks": {"PreToolUse": [{"hooks": "x"}]}}\n';
  assert.deepEqual(JSON.parse(withoutCodexHooks(codexHookFile(odd))), JSON.parse(odd));
});

test('Claude settings still behave as before (the shared matcher-group helpers)', () => {
  const governed = withClaudeHooks('{ "model": "opus" }');
  assert.ok(hasClaudeHooks(governed));
  assert.equal(hasCodexHooks(governed), true, 'same shape: the same reader');
});

test('launcherTarget reads back what launcherScripts wrote, on both systems; a hand-written launcher is unknown', () => {
  const { posix, windows } = launcherScripts('/opt/code/code', '/ext/dist/cli/alfred.cjs');
  assert.deepEqual(launcherTarget(posix), { runtime: '/opt/code/code', cli: '/ext/dist/cli/alfred.cjs' });
  assert.deepEqual(launcherTarget(windows), { runtime: '/opt/code/code', cli: '/ext/dist/cli/alfred.cjs' });
  assert.equal(launcherTarget('#!/bin/sh\nexec node ~/alfred.js "$@"\n'), undefined);
  assert.equal(launcherTarget(undefined), undefined);
});

test('hook file paths come from the one table of governed agents', () => {
  for (const agent of GOVERNED_AGENTS) assert.equal(hookFilePath('/ws', agent.id), `/ws/${agent.hookFile}`);
  assert.equal(hookFilePath('/ws', 'codex'), '/ws/.codex/hooks.json');
  assert.deepEqual(HOOK_FILES, ['.github/hooks/alfred.json', '.claude/settings.json', '.codex/hooks.json', '.gemini/settings.json']);
});
