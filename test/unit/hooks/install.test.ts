import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  COPILOT_HOOK_EVENTS, copilotHookFile, hasClaudeHooks, isCopilotHookFileGoverning, launcherScripts, withClaudeHooks, withoutClaudeHooks,
} from '../../../src/core/hooks/install';

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

test('a settings file that held only Alfred\'s hooks is removed entirely', () => {
  assert.equal(withoutClaudeHooks(withClaudeHooks(undefined)), '');
});

test('the launchers run the bundled CLI with the editor\'s runtime as Node', () => {
  const { posix, windows } = launcherScripts('/opt/code/code', '/ext/dist/cli/alfred.mjs');
  assert.match(posix, /^#!\/bin\/sh\n/);
  assert.match(posix, /ELECTRON_RUN_AS_NODE=1 exec "\/opt\/code\/code" "\/ext\/dist\/cli\/alfred\.mjs" "\$@"/);
  assert.match(windows, /set ELECTRON_RUN_AS_NODE=1\r\n"\/opt\/code\/code" "\/ext\/dist\/cli\/alfred\.mjs" %\*/);
});
