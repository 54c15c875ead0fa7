import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  COPILOT_HOOK_EVENTS, copilotHookFile, hasClaudeHooks, isCopilotHookFileGoverning, launcherScripts, withClaudeHooks, withoutClaudeHooks,
} from '../../../../src/core/integrations/hooks/install';
import { canonicalHookEvent } from '../../../../src/core/integrations/hooks/events';

/** The Copilot file, exactly: every event with a POSIX and a Windows command; agentStop runs the checks, so 600 s. */
function expectedCopilotFile(events: readonly string[]): string {
  const hooks = Object.fromEntries(events.map((e) => [e, [{
    type: 'command', bash: `"$HOME/.alfred/bin/alfred" hook ${e}`, powershell: `cmd /d /c "%USERPROFILE%\\.alfred\\bin\\alfred.cmd" hook ${e}`, timeoutSec: e === 'agentStop' ? 600 : 30,
  }]]));
  return `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`;
}

/** What VS Code 1.139 reads from a `.github/hooks` file (its source): the Copilot CLI's camelCase names it knows, and its own. */
const VSCODE_READS: Readonly<Record<string, string>> = {
  sessionStart: 'SessionStart', sessionEnd: 'SessionEnd', userPromptSubmitted: 'UserPromptSubmit', preToolUse: 'PreToolUse',
  postToolUse: 'PostToolUse', agentStop: 'Stop', subagentStop: 'SubagentStop', errorOccurred: 'ErrorOccurred',
  ...Object.fromEntries(['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact', 'SubagentStart', 'SubagentStop', 'Stop', 'ErrorOccurred'].map((e) => [e, e])),
};

test('the Copilot hook file, exactly: the session, prompt, tool and stop events, and the sub-agent and compaction events', () => {
  assert.equal(copilotHookFile(), expectedCopilotFile([
    'sessionStart', 'userPromptSubmitted', 'preToolUse', 'postToolUse', 'agentStop', 'SubagentStart', 'subagentStop', 'PreCompact',
  ]));
});

test('every key of the Copilot file is read by VS Code, each as a different event (none runs Alfred twice), and answered by alfred hook', () => {
  const keys = Object.keys(JSON.parse(copilotHookFile()).hooks as object);
  const inVsCode = keys.map((k) => VSCODE_READS[k]);
  assert.deepEqual(inVsCode, ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact']);
  assert.equal(new Set(inVsCode).size, keys.length);
  // The Copilot CLI reads camelCase names and their PascalCase forms as the same events: one key per event.
  const inCli = keys.map((k) => canonicalHookEvent(k));
  assert.deepEqual(inCli, inVsCode);
  // Not the CLI's camelCase spellings that VS Code does not read: they would govern the CLI only, or the CLI twice.
  for (const cliOnly of ['subagentStart', 'preCompact']) assert.equal(keys.includes(cliOnly), false, cliOnly);
});

test('the Copilot hook file is version 1 with a POSIX and a Windows command for each event', () => {
  const data = JSON.parse(copilotHookFile());
  assert.equal(data.version, 1);
  assert.deepEqual(Object.keys(data.hooks), [...COPILOT_HOOK_EVENTS]);
  const pre = data.hooks.preToolUse[0];
  assert.equal(pre.type, 'command');
  assert.equal(pre.bash, '"$HOME/.alfred/bin/alfred" hook preToolUse');
  assert.equal(pre.powershell, 'cmd /d /c "%USERPROFILE%\\.alfred\\bin\\alfred.cmd" hook preToolUse');
  assert.ok(data.hooks.agentStop[0].timeoutSec > pre.timeoutSec, 'Stop runs checks: a longer timeout');
  assert.ok(isCopilotHookFileGoverning(copilotHookFile()));
  assert.equal(isCopilotHookFileGoverning('{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"lint"}]}}'), false);
  assert.equal(isCopilotHookFileGoverning('not json'), false);
});

test('Claude settings keep the user\'s settings, hooks and comments, and removing restores them', () => {
  const mine = `{
  // my model
  "model": "opus",
  "hooks": {
    "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "./lint.sh" }] }]
  }
}
`;
  const governed = withClaudeHooks(mine);
  assert.match(governed, /\/\/ my model/);
  assert.ok(hasClaudeHooks(governed));
  assert.match(governed, /\.\/lint\.sh/);
  assert.match(governed, /"\$HOME\/\.alfred\/bin\/alfred\\?" hook Stop/);
  // Installing twice does not add a second copy.
  assert.equal(withClaudeHooks(governed), governed);
  const back = withoutClaudeHooks(governed);
  assert.equal(hasClaudeHooks(back), false);
  assert.match(back, /\.\/lint\.sh/);
  assert.match(back, /"model": "opus"/);
  assert.equal(back.includes('SessionStart'), false);
});

test('Claude Code\'s settings file, exactly: one matcher-less group per event, sub-agent and compaction events included', () => {
  const events = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact'];
  const hooks = Object.fromEntries(events.map((e) => [e, [{ hooks: [{ type: 'command', command: `"$HOME/.alfred/bin/alfred" hook ${e}`, timeout: e === 'Stop' ? 600 : 30 }] }]]));
  assert.equal(withClaudeHooks(undefined), `${JSON.stringify({ hooks }, null, 2)}\n`);
  for (const e of events) assert.equal(canonicalHookEvent(e), e);
});

test('a settings file that held only Alfred\'s hooks is removed entirely', () => {
  assert.equal(withoutClaudeHooks(withClaudeHooks(undefined)), '');
});

test('the launchers run the bundled CLI with the editor\'s runtime as Node', () => {
  const { posix, windows } = launcherScripts('/opt/code/code', '/ext/dist/cli/alfred.mjs');
  assert.match(posix, /^#!\/bin\/sh\n/);
  assert.match(posix, /ELECTRON_RUN_AS_NODE=1 exec "\/opt\/code\/code" "\/ext\/dist\/cli\/alfred\.mjs" "\$@"/);
  assert.match(windows, /set ELECTRON_RUN_AS_NODE=1\r\n"\/opt\/code\/code" "\/ext\/dist\/cli\/alfred\.mjs" %\*/);
});
