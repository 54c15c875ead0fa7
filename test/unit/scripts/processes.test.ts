/** A test run stops every process it started, even those in a process group of their own. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { processesOfRun, RUN_VARIABLE, stopRun } from '../../../scripts/lib/processes.mjs';

test('processes marked with the run id are found and stopped; others are left alone', { skip: process.platform !== 'linux' }, async () => {
  const id = `t${process.pid}${Date.now()}`;
  const marked = spawn('sh', ['-c', 'sleep 60 & sleep 60; wait'], { detached: true, stdio: 'ignore', env: { ...process.env, [RUN_VARIABLE]: id } });
  const other = spawn('sleep', ['60'], { detached: true, stdio: 'ignore', env: { ...process.env, [RUN_VARIABLE]: `${id}x` } });
  try {
    await new Promise((r) => setTimeout(r, 300));
    const found = processesOfRun(id);
    assert.equal(found.length, 3, `sh and its two sleeps: ${found.join(', ')}`);
    assert.ok(found.includes(marked.pid!));
    assert.equal(await stopRun(id, 2_000), 3);
    assert.deepEqual(processesOfRun(id), []);
    assert.deepEqual(processesOfRun(`${id}x`), [other.pid]);
  } finally {
    try { process.kill(-other.pid!, 'SIGKILL'); } catch { /* gone */ }
    try { process.kill(-marked.pid!, 'SIGKILL'); } catch { /* gone */ }
  }
});
