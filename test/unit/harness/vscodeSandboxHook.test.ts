/**
 * Copilot's terminal command in VS Code is left to VS Code's own sandbox when that one holds Alfred's
 * rules in every editor here, and nested in Alfred's otherwise (fail safe); other agents' commands
 * are always Alfred's (integrations/hooks/handlers/toolUse.ts, sandbox/vscodeSandbox.ts).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { VSCODE_SANDBOX as S, vscodeSandboxSettings } from '../../../src/core/sandbox/vscodeSandbox';
import { sandboxAvailable } from '../adversarial/sandboxed';
import { makeEnv } from './helpers';

function setup() {
  const env = makeEnv({ env: { ALFRED_ROLE: 'coder' } });
  const userDir = path.join(env.root, 'user-data', 'User');
  fs.mkdirSync(userDir, { recursive: true });
  const settingsFile = path.join(userDir, 'settings.json');
  Object.assign(env.harness.env, { ALFRED_VSCODE_USER_DIR: userDir });
  const input = env.harness.vscodeSandboxInput();
  assert.ok(input, 'Alfred plans a sandbox here');
  const holding: Record<string, unknown> = { [S.enabled]: 'on', ...vscodeSandboxSettings({}, input) };
  const terminal = (toolInput: Record<string, unknown>) => env.hook('PreToolUse', { tool_name: 'run_in_terminal', tool_input: { explanation: 'x', goal: 'x', isBackground: false, ...toolInput } });
  const rewritten = (json: Record<string, unknown>) => (json.hookSpecificOutput as { updatedInput?: { command?: string; task?: { command?: string } } } | undefined)?.updatedInput;
  return { env, settingsFile, holding, terminal, rewritten, write: (v: unknown) => fs.writeFileSync(settingsFile, JSON.stringify(v)) };
}

describe('VS Code\'s own sandbox in place of Alfred\'s', { skip: sandboxAvailable() ? false : 'no kernel sandbox' }, () => {
  it('holding Alfred\'s rules, it runs Copilot\'s terminal command as sent; short of one protected path, Alfred\'s rewrite is back', async () => {
    const { env, holding, terminal, rewritten, write } = setup();
    write(holding);
    const left = await terminal({ command: 'make' });
    assert.equal(rewritten(left.json), undefined, JSON.stringify(left.json));
    assert.deepEqual(env.harness.vscodeSandbox(), { holds: true });
    const fsLinux = holding[S.fileSystemLinux] as { denyWrite: string[] };
    const dropped = path.join(env.ws, '.alfred');
    assert.ok(fsLinux.denyWrite.includes(dropped));
    write({ ...holding, [S.fileSystemLinux]: { ...fsLinux, denyWrite: fsLinux.denyWrite.filter((p) => p !== dropped) } });
    const nested = await terminal({ command: 'make' });
    assert.match(String(rewritten(nested.json)?.command), /(alfred-sandbox|bwrap|sandbox-exec) .*'make'$/);
  });

  it('off, asked to run outside it, a task, or another agent: Alfred\'s sandbox', async () => {
    const { env, holding, terminal, rewritten, write } = setup();
    write({ ...holding, [S.enabled]: 'off' });
    assert.match(String(rewritten((await terminal({ command: 'make' })).json)?.command), /(alfred-sandbox|bwrap|sandbox-exec) .*'make'$/);
    write(holding);
    assert.match(String(rewritten((await terminal({ command: 'make', requestUnsandboxedExecution: true })).json)?.command), /(alfred-sandbox|bwrap|sandbox-exec) .*'make'$/);
    const task = await env.hook('PreToolUse', { tool_name: 'create_and_run_task', tool_input: { workspaceFolder: env.ws, task: { label: 'b', type: 'shell', command: 'make' } } });
    assert.match(String(rewritten(task.json)?.task?.command), /(alfred-sandbox|bwrap|sandbox-exec) .*'make'$/);
    const claude = await env.hook('PreToolUse', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'make' }, permission_mode: 'default' });
    assert.match(String(rewritten(claude.json)?.command), /(alfred-sandbox|bwrap|sandbox-exec) .*'make'$/);
  });

  it('another editor\'s settings without it keep Alfred\'s rewrite: the hook cannot tell which editor runs it', async () => {
    const { env, holding, terminal, rewritten, write } = setup();
    write(holding);
    const other = path.join(env.home, '.config', 'Code', 'User', 'settings.json');
    fs.mkdirSync(path.dirname(other), { recursive: true });
    fs.writeFileSync(other, '{}');
    Object.assign(env.harness.env, { ALFRED_VSCODE_USER_DIR: undefined, XDG_CONFIG_HOME: path.join(env.home, '.config'), ALFRED_HOME: env.alfredHome });
    fs.mkdirSync(env.alfredHome, { recursive: true });
    fs.writeFileSync(path.join(env.alfredHome, 'vscode-user-dirs.json'), JSON.stringify([path.dirname((setupFile(env.root)))]));
    assert.match(String(rewritten((await terminal({ command: 'make' })).json)?.command), /(alfred-sandbox|bwrap|sandbox-exec) .*'make'$/);
    fs.writeFileSync(other, JSON.stringify(holding));
    assert.equal(rewritten((await terminal({ command: 'make' })).json), undefined);
  });
});

const setupFile = (root: string): string => path.join(root, 'user-data', 'User', 'settings.json');
