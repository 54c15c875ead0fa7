/**
 * The sandbox's launcher script lives in src/core/sandbox/alfred-sandbox.sh, where the static stage
 * checks it as shell; the bundles carry its text inlined (build.mjs).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { saveSandboxFilter, SANDBOX_SCRIPT } from '../../../src/core/sandbox/launcher';
import { SECCOMP_FD } from '../../../src/core/sandbox/seccomp';
import { NO_SANDBOX } from './helpers';

const ROOT = path.resolve(__dirname, '../../..');
const SOURCE = path.join(ROOT, 'src', 'core', 'sandbox', 'alfred-sandbox.sh');

test('the script is the file, byte for byte what the launcher wrote when it was a template string in launcher.ts', () => {
  assert.equal(SANDBOX_SCRIPT, fs.readFileSync(SOURCE, 'utf8'));
  // The sha-256 and length of the template string's value before the script became a file.
  assert.equal(Buffer.byteLength(SANDBOX_SCRIPT), 1175);
  assert.equal(createHash('sha256').update(SANDBOX_SCRIPT).digest('hex'), '502a6eb021980e05c6d16cd162db0471698e2f996ab7d7b0081b4360641fcdac');
});

test('the script opens the seccomp filter on the descriptor bwrap is told, under the name it is saved as', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-script-'));
  try {
    const saved = saveSandboxFilter(home, 'x64');
    assert.ok(saved);
    assert.equal(path.dirname(saved.file), path.join(home, 'bin'));
    assert.ok(SANDBOX_SCRIPT.includes(`"\n--seccomp\n${SECCOMP_FD}\n"*) exec ${SECCOMP_FD}< "$bin/${path.basename(saved.file)}" ;; esac\n`));
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test('a real `alfred hook` process (the bundle, where no .sh lies beside it) writes the same script', { skip: NO_SANDBOX }, () => {
  const cli = path.join(ROOT, 'dist', 'cli', 'alfred.cjs');
  if (!fs.existsSync(cli)) spawnSync(process.execPath, ['build.mjs'], { cwd: ROOT, stdio: 'ignore' });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-script-'));
  try {
    const home = path.join(root, 'home');
    const ws = path.join(root, 'ws');
    fs.mkdirSync(home);
    fs.mkdirSync(ws);
    const stdin = JSON.stringify({ hook_event_name: 'PreToolUse', cwd: ws, tool_name: 'Bash', tool_input: { command: 'ls' } });
    const env = { ...process.env, HOME: home, ALFRED_HOME: path.join(home, '.alfred'), ALFRED_ROLE: 'coder', ALFRED_HOOK_SERVER: 'off' };
    const r = spawnSync(process.execPath, [cli, 'hook', 'PreToolUse'], { input: stdin, encoding: 'utf8', env });
    assert.equal(r.status, 0, r.stderr);
    const script = path.join(home, '.alfred', 'bin', 'alfred-sandbox');
    assert.match(r.stdout, new RegExp(`"command":"${script}`));
    assert.equal(fs.readFileSync(script, 'utf8'), fs.readFileSync(SOURCE, 'utf8'));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
