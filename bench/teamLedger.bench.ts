/**
 * A governed shell call's round trip (`Harness.authorize`: the gate decided and charged under the
 * state lock, logged) with the team ledger on a PostgreSQL on loopback (test/support/postgres.ts:
 * a private server, started and stopped here) against the same call on the file backend alone, in
 * the same run, alternating. With the team ledger the call is also decided and charged against a
 * team budget under row locks, and its events copied to the team's audit trail. Then the same with
 * the personal ledger and event log in that database too (ALFRED_LEDGER_BACKEND=postgres: the scope's
 * row locked, the events inserted, the row updated, in one transaction). Target for each: a median at
 * most 2× the file backend's.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Harness } from '../src/core/harness';
import { toolCall } from '../src/core/policy/toolCall';
import { PG_TEST_PASSWORD, startPostgres } from '../test/support/postgres';
import { finish, median, nowMs, percentile, tempDir, verdict } from './util';

const CALLS = 300;
const WARMUP = 20;
const TARGET_RATIO = 2;

async function main(): Promise<void> {
  const pg = await startPostgres();
  const root = tempDir('team');
  try {
    const ws = path.join(root, 'ws');
    fs.mkdirSync(path.join(ws, '.alfred'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.alfred', 'team.toml'), 'team = "bench"\n[[budget]]\nname = "shell"\nperiod = "month"\nmax_shell_invocations = 1000000\n');
    const env = (name: string, team: boolean, backend?: 'postgres'): NodeJS.ProcessEnv => ({
      PATH: process.env.PATH, HOME: path.join(root, `home-${name}`), ALFRED_HOME: path.join(root, name), ALFRED_USER: 'bench@example.com',
      ALFRED_REPOSITORY: 'example.com/bench', ...(team ? { ALFRED_LEDGER_URL: pg.url.replace('alfred@', 'alfred:$BENCH_PG@'), BENCH_PG: PG_TEST_PASSWORD } : {}),
      ...(backend ? { ALFRED_LEDGER_BACKEND: backend } : {}),
    });
    const roles = path.resolve(__dirname, '..', 'roles');
    // The admin role: a budget the benchmark's calls never exhaust.
    const file = new Harness({ workspaceFolder: ws, builtinRolesDir: roles, env: { ...env('file', false), ALFRED_ROLE: 'admin' } });
    const team = new Harness({ workspaceFolder: ws, builtinRolesDir: roles, env: { ...env('team', true), ALFRED_ROLE: 'admin' } });
    const personal = new Harness({ workspaceFolder: ws, builtinRolesDir: roles, env: { ...env('personal', true, 'postgres'), ALFRED_ROLE: 'admin' } });
    const call = (h: Harness, i: number) => h.authorize(toolCall('run_in_terminal', { command: `echo ${i}` }), { source: 'bench' });
    const times = { file: [] as number[], team: [] as number[], personal: [] as number[] };
    const ways = [['file', file], ['team', team], ['personal', personal]] as Array<[keyof typeof times, Harness]>;
    for (let i = 0; i < WARMUP + CALLS; i++) {
      // Each order in rotation, so that no way always follows another.
      for (const [name, h] of [...ways.slice(i % 3), ...ways.slice(0, i % 3)]) {
        const t0 = nowMs();
        const r = await call(h, i);
        const ms = nowMs() - t0;
        if (!r.decision.allowed) throw new Error(`${name}: refused: ${r.decision.reason}`);
        if (i >= WARMUP) times[name].push(ms);
      }
    }
    await team.team!.close();
    await personal.team!.close();
    await personal.ledgerBackend?.close();
    const f = median(times.file), t = median(times.team), p = median(times.personal);
    console.log(`Harness.authorize of a shell call, ${CALLS} each after ${WARMUP} warm-up, in rotation: p95 file ${percentile(times.file, 95).toFixed(2)} ms, team ${percentile(times.team, 95).toFixed(2)} ms, personal ledger on PostgreSQL ${percentile(times.personal, 95).toFixed(2)} ms`);
    verdict('team ledger (PostgreSQL on loopback)', `median ${t.toFixed(2)} ms/call | baseline file backend ${f.toFixed(2)} ms/call | ratio ${(t / f).toFixed(2)}× | target ≤ ${TARGET_RATIO}×`, t / f <= TARGET_RATIO);
    verdict('personal ledger and event log on PostgreSQL (with the team ledger)', `median ${p.toFixed(2)} ms/call | baseline file backend ${f.toFixed(2)} ms/call | ratio ${(p / f).toFixed(2)}× | target ≤ ${TARGET_RATIO}×`, p / f <= TARGET_RATIO);
  } finally {
    pg.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
  finish();
}

void main();
