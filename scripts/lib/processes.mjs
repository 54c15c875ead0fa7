// Every process a test run starts carries ALFRED_TEST_RUN=<id> in its environment (code-server and
// its extension hosts, Chromium, terminals opened in the tests), including those that start their own
// process group. At the end of a run, on a timeout and on Ctrl-C, the run finds them by that mark
// (Linux: /proc/<pid>/environ) and stops them, so nothing it started outlives it.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';

export const RUN_VARIABLE = 'ALFRED_TEST_RUN';

/** Marks this process (and so every process it starts) as part of a new run; returns the run id. */
export function markRun() {
  const id = process.env[RUN_VARIABLE] || randomBytes(6).toString('hex');
  process.env[RUN_VARIABLE] = id;
  return id;
}

/** Pids of the processes that carry this run's mark, this process excepted. */
export function processesOfRun(id) {
  if (process.platform !== 'linux') return [];
  const needle = Buffer.from(`\0${RUN_VARIABLE}=${id}\0`);
  const pids = [];
  for (const name of fs.readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const env = Buffer.concat([Buffer.from([0]), fs.readFileSync(`/proc/${pid}/environ`), Buffer.from([0])]);
      if (env.includes(needle)) pids.push(pid);
    } catch { /* gone, or not ours to read */ }
  }
  return pids;
}

/** Stops every process of the run: SIGTERM, then SIGKILL for those still there after `graceMs`. */
export async function stopRun(id, graceMs = 3_000) {
  const first = processesOfRun(id);
  for (const pid of first) { try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ } }
  if (first.length === 0) return 0;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && processesOfRun(id).length > 0) await new Promise((r) => setTimeout(r, 100));
  for (const pid of processesOfRun(id)) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
  return first.length;
}
