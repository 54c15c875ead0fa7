/**
 * A nested agent's hook, called from inside the kernel sandbox (an agent's command starts another
 * agent, whose hooks run there), may not pick its role or turn the sandbox off through its
 * environment: inside, Alfred's run folder shows only the sandbox's port file, so the hook server
 * decides such a call with its own environment. Real bwrap, the real bash launcher, a real server in
 * this process. The command reaches the nested call through a script, a spelling the gate's parsing
 * (rules/policy/selfGovernance.ts) does not see: what holds here is the kernel.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, it } from 'node:test';
import { readEvents } from '../../../../src/core/base/events/read';
import { launcherScripts } from '../../../../src/core/integrations/hooks/install';
import { openWorkspaceHarness } from '../../../../src/core/integrations/hooks/openWorkspace';
import { startHookServer, type HookServer } from '../../../../src/core/integrations/hooks/server';
import { detectSandbox } from '../../../../src/core/sandbox/detect';
import { stateDir } from '../../../../src/core/base/state/paths';
import { isolateEnv, newWorkspace } from '../../cli/helpers';

const env = isolateEnv();
const ROOT = path.resolve(__dirname, '../../../..');
const CLI = path.join(ROOT, 'dist', 'cli', 'alfred.cjs');
const skip = process.platform !== 'linux' || !fs.existsSync('/bin/bash') || detectSandbox().kind !== 'bwrap';

let server: HookServer | undefined;
let launcher = '';
before(async () => {
  if (skip) return;
  if (!fs.existsSync(CLI)) execFileSync(process.execPath, ['build.mjs'], { cwd: ROOT, stdio: 'ignore' });
  launcher = path.join(env.root, 'bin', 'alfred');
  fs.mkdirSync(path.dirname(launcher), { recursive: true });
  fs.writeFileSync(launcher, launcherScripts(process.execPath, CLI, { bash: true }).posix, { mode: 0o755 });
  const started = await startHookServer({
    openHarness: (folder, harnessEnv, cwd) => openWorkspaceHarness(folder, { builtinRolesDir: path.join(ROOT, 'roles'), version: 'test', env: harnessEnv, cwd }),
  });
  assert.equal(started.kind, 'listening');
  server = (started as { server: HookServer }).server;
});
after(() => server?.close());

/** A process run to its end without blocking this one, where the hook server answers. */
function run(file: string, args: string[], cwd: string, input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(file, args, { cwd, env: { ...process.env, ALFRED_HOOK_DEBUG: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** The launcher as an agent's runtime runs it: the hook input on stdin. */
async function hook(input: object, cwd: string): Promise<{ stdout: string; stderr: string }> {
  const r = await run(launcher, ['hook', 'PreToolUse'], cwd, JSON.stringify(input));
  assert.equal(r.code, 0, r.stderr);
  return r;
}

it('a hook called from inside the sandbox is answered as the sandbox\'s: its ALFRED_ROLE and ALFRED_SANDBOX do not count', { skip }, async () => {
  const folder = newWorkspace(env.root);
  const nested = { hook_event_name: 'PreToolUse', session_id: 'nested', cwd: folder, tool_name: 'run_in_terminal', tool_input: { command: 'echo from the nested agent' } };
  fs.writeFileSync(path.join(folder, 'input.json'), JSON.stringify(nested));
  fs.writeFileSync(path.join(folder, 'nested.sh'), `ALFRED_ROLE=reviewer ALFRED_SANDBOX=off ALFRED_HOOK_DEBUG=1 ${launcher} hook PreToolUse < input.json\n`);
  // The governed agent's command, rewritten into the sandbox by its own hook.
  const outer = await hook({ hook_event_name: 'PreToolUse', session_id: 'outer', cwd: folder, tool_name: 'run_in_terminal', tool_input: { command: 'sh nested.sh' } }, folder);
  assert.match(outer.stderr, /answered by the hook server \(pid \d+\) on the launcher's fast path/);
  const line = (JSON.parse(outer.stdout) as { hookSpecificOutput: { updatedInput: { command: string } } }).hookSpecificOutput.updatedInput.command;
  const ran = await run('/bin/sh', ['-c', line], folder);
  assert.equal(ran.code, 0, ran.stderr);
  // Inside, the launcher found the sandbox's port file and was answered: as coder, the command rewritten into the sandbox.
  assert.match(ran.stderr, /answered by the hook server \(pid \d+\) on the launcher's fast path/);
  assert.match(ran.stdout, /"updatedInput":\{"command":"[^"]*alfred-sandbox [0-9a-f]+ 'echo from the nested agent'"/);
  const events = readEvents(stateDir(folder)).events;
  assert.deepEqual(events.filter((e) => e.type === 'ToolCall').map((e) => [e.role, e.decision]), [['coder', 'allow'], ['coder', 'allow']]);
  assert.deepEqual(events.filter((e) => e.type === 'RoleChanged'), [], 'no session of another role');
  // Inside, the launcher's own port file and the socket are not there.
  const seen = await run('/bin/sh', ['-c', line.replace(/'sh nested\.sh'$/, `'ls -A ${path.join(process.env.ALFRED_HOME!, 'run')}'`)], folder);
  assert.equal(seen.stdout, 'hook.tcp\n', seen.stderr);
});
