/**
 * A governed shell call's round trip (`Harness.authorize`: the gate decided and charged under the
 * state lock, logged) with the ledgers on a PostgreSQL on loopback (test/support/postgres.ts: a
 * private server, started and stopped here) against the same call on the file backend alone, in the
 * same run, in an order shuffled each round:
 * - team: the file ledger, and a team budget that decides and charges the call under row locks in
 *   the database, its events copied to the team's audit trail after it;
 * - personal: the personal ledger and event log in the database (ALFRED_LEDGER_BACKEND=postgres; the
 *   folder's copy is the row, so one round trip), no team budget for the role, the audit trail copied;
 * - both: the personal ledger in the database and a team budget (the row locked for the team's
 *   decision: three round trips).
 * Target for team and personal: a median at most 2× the file backend's. Both is the sum of the two
 * features' costs and is reported beside them. The server flushes its commits to disk (fsync and
 * synchronous commits on), as a team's server runs. The file backend writes without flushing: what
 * it wrote survives a killed process, but a power cut may lose its last lines (the ledger is then
 * rebuilt from the log). So the database is held to a stricter durability than its baseline.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Harness } from '../src/core/harness/harness';
import { toolCall } from '../src/core/rules/policy/toolCall';
import { PG_TEST_PASSWORD, startPostgres } from '../test/support/postgres';
import { finish, median, nowMs, percentile, roundOrder, tempDir, verdict } from './util';

const CALLS = 300;
const WARMUP = 20;
const TARGET_RATIO = 2;

async function main(): Promise<void> {
  const pg = await startPostgres({ durable: true });
  const root = tempDir('team');
  try {
    const ws = path.join(root, 'ws');
    fs.mkdirSync(path.join(ws, '.alfred'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.alfred', 'team.toml'), 'team = "bench"\n[[budget]]\nname = "shell"\nperiod = "month"\nmax_shell_invocations = 1000000\n');
    // The same team without a budget: its audit trail only.
    const plain = path.join(root, 'plain');
    fs.mkdirSync(path.join(plain, '.alfred'), { recursive: true });
    fs.writeFileSync(path.join(plain, '.alfred', 'team.toml'), 'team = "bench"\n');
    const env = (name: string, team: boolean, backend?: 'postgres'): NodeJS.ProcessEnv => ({
      PATH: process.env.PATH, HOME: path.join(root, `home-${name}`), ALFRED_HOME: path.join(root, name), ALFRED_USER: 'bench@example.com',
      ALFRED_REPOSITORY: 'example.com/bench', ...(team ? { ALFRED_LEDGER_URL: pg.url.replace('alfred@', 'alfred:$BENCH_PG@'), BENCH_PG: PG_TEST_PASSWORD } : {}),
      ...(backend ? { ALFRED_LEDGER_BACKEND: backend } : {}),
    });
    const roles = path.resolve(__dirname, '..', 'roles');
    // The admin role: a budget the benchmark's calls never exhaust.
    const file = new Harness({ workspaceFolder: ws, builtinRolesDir: roles, env: { ...env('file', false), ALFRED_ROLE: 'admin' } });
    const team = new Harness({ workspaceFolder: ws, builtinRolesDir: roles, env: { ...env('team', true), ALFRED_ROLE: 'admin' } });
    const personal = new Harness({ workspaceFolder: plain, builtinRolesDir: roles, env: { ...env('personal', true, 'postgres'), ALFRED_ROLE: 'admin' } });
    const both = new Harness({ workspaceFolder: ws, builtinRolesDir: roles, env: { ...env('both', true, 'postgres'), ALFRED_ROLE: 'admin' } });
    const call = (h: Harness, i: number) => h.authorize(toolCall('run_in_terminal', { command: `echo ${i}` }), { source: 'bench' });
    const times = { file: [] as number[], team: [] as number[], personal: [] as number[], both: [] as number[] };
    const ways = [['file', file], ['team', team], ['personal', personal], ['both', both]] as Array<[keyof typeof times, Harness]>;
    for (let i = 0; i < WARMUP + CALLS; i++) {
      for (const [name, h] of roundOrder(ways, i)) {
        const t0 = nowMs();
        const r = await call(h, i);
        const ms = nowMs() - t0;
        // The audit copy is sent after the call and waited for by no one: calls an agent makes
        // seconds apart never meet it. Here the next call would, so it is waited for outside the time.
        await h.team?.flush();
        if (!r.decision.allowed) throw new Error(`${name}: refused: ${r.decision.reason}`);
        if (i >= WARMUP) times[name].push(ms);
      }
    }
    for (const h of [team, personal, both]) await h.team!.close();
    for (const h of [personal, both]) await h.ledgerBackend?.close();
    const f = median(times.file), t = median(times.team), p = median(times.personal), b = median(times.both);
    console.log(`Harness.authorize of a shell call, ${CALLS} each after ${WARMUP} warm-up, in shuffled order: p95 file ${percentile(times.file, 95).toFixed(2)} ms, team ${percentile(times.team, 95).toFixed(2)} ms, personal ${percentile(times.personal, 95).toFixed(2)} ms, both ${percentile(times.both, 95).toFixed(2)} ms`);
    verdict('team budget (PostgreSQL on loopback)', `median ${t.toFixed(2)} ms/call | baseline file backend ${f.toFixed(2)} ms/call | ratio ${(t / f).toFixed(2)}× | target ≤ ${TARGET_RATIO}×`, t / f <= TARGET_RATIO);
    verdict('personal ledger and event log on PostgreSQL (team audit trail, no team budget)', `median ${p.toFixed(2)} ms/call | baseline file backend ${f.toFixed(2)} ms/call | ratio ${(p / f).toFixed(2)}× | target ≤ ${TARGET_RATIO}×`, p / f <= TARGET_RATIO);
    console.log(`both (personal ledger on PostgreSQL and a team budget): median ${b.toFixed(2)} ms/call | ratio ${(b / f).toFixed(2)}× (no target: the two above together)`);
  } finally {
    pg.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
  finish();
}

void main();
