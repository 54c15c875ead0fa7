/**
 * `kill <pid of npm start>` stops everything npm start started: npm does not pass the signal on, so
 * the script notices that its parent is gone and stops its server (a process group of its own).
 * Played with real processes: npm runs a script like start.mjs, and npm alone is killed.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('killing npm (SIGTERM to npm only) stops the script npm started and its server\'s process group', { skip: process.platform !== 'linux' }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-start-'));
  const pids = path.join(dir, 'pids');
  const serve = path.resolve(import.meta.dirname, '../../fixtures/start/serve.mjs');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'start-fixture', private: true, scripts: { start: `node ${JSON.stringify(serve)} ${JSON.stringify(pids)}` } }));
  const npm = spawn('npm', ['start', '--silent'], { cwd: dir, stdio: 'ignore' });
  let script = 0;
  let server = 0;
  try {
    await until('the script to start its server', () => fs.existsSync(pids) && fs.readFileSync(pids, 'utf8').includes(' '), 30_000);
    [script, server] = fs.readFileSync(pids, 'utf8').split(' ').map(Number) as [number, number];
    assert.ok(alive(script) && alive(server));
    process.kill(npm.pid!, 'SIGTERM');
    await until('npm to exit', () => npm.exitCode !== null || npm.signalCode !== null);
    await until('the script and its server to stop', () => !alive(script) && !alive(server));
  } finally {
    for (const pid of [script, server]) if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
