/**
 * The personal ledger on PostgreSQL (state/pgLedger), against a private server for this file
 * (test/support/postgres.ts): the file backend's suites again with the same assertions, then what
 * only a database has: one scope shared by two state folders, the database stopped mid-run and
 * restarted, a commit whose answer was lost, and pg never loaded on the files.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readEvents } from '../../../src/core/base/events/read';
import type { AlfredEvent } from '../../../src/core/base/events/types';
import { authorize, charge } from '../../../src/core/ledger/govern';
import { ledgerBackendOf, useLedgerBackend, type LedgerBackend } from '../../../src/core/ledger/ledgerBackend';
import { ledgerCheck } from '../../../src/core/doctor/report';
import { foldScopeEvents } from '../../../src/core/ledger/ledgerFold';
import { accountingOf, readLedger, writeLedger, type Ledger } from '../../../src/core/ledger/ledgerFormat';
import { recordEvents } from '../../../src/core/ledger/ledgerStore';
import { stateDir } from '../../../src/core/base/state/paths';
import { ledgerPending, PgLedgerBackend } from '../../../src/core/ledger/pgLedger/pgLedgerBackend';
import { PgLedgerStore, storedForm, type LedgerStore } from '../../../src/core/ledger/pgLedger/pgLedgerStore';
import { ledgerScopeOf, openLedgerBackend } from '../../../src/core/ledger/pgLedger/open';
import { PgConnection } from '../../../src/core/ledger/team/pgConnection';
import { makeRole, shellGate } from '../../fixtures/budget-role';
import { PG_TEST_PASSWORD, pgRows, startPostgres, type PgServer } from '../../support/postgres';
import { concurrencySuite } from './suites/concurrencySuite';
import { governSuite } from './suites/governSuite';
import { ledgerSuite } from './suites/ledgerSuite';
import { observeShellSuite } from './suites/observeShellSuite';
import { fixtureBundle } from '../../support/fixtureBundle';

const ROOT = path.resolve(__dirname, '../../..');
let pg: PgServer;
const opened: LedgerBackend[] = [];
before(async () => { pg = await startPostgres(); });
after(async () => {
  await Promise.all(opened.map((b) => b.close()));
  pg?.stop();
});

/** What a process needs in its environment to keep its ledger in the test server. */
const pgEnv = (): NodeJS.ProcessEnv => ({
  ALFRED_LEDGER_BACKEND: 'postgres', ALFRED_LEDGER_URL: pg.url.replace('alfred@', 'alfred:$TEST_PG_PASSWORD@'), TEST_PG_PASSWORD: PG_TEST_PASSWORD,
});

/** A workspace (with a team file when given) and its state folder under a fresh ALFRED_HOME. */
function folders(teamToml?: string, home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-home-'))): { ws: string; dir: string } {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-ws-'));
  if (teamToml) {
    fs.mkdirSync(path.join(ws, '.alfred'));
    fs.writeFileSync(path.join(ws, '.alfred', 'team.toml'), teamToml);
  }
  return { ws, dir: stateDir(ws, { ALFRED_HOME: home }) };
}

/** A fresh state folder whose ledger is in the test server, as a process with pgEnv() opens it. */
function onPostgres(extra: NodeJS.ProcessEnv = {}, teamToml?: string, home?: string): string {
  const { ws, dir } = folders(teamToml, home);
  const backend = openLedgerBackend({ stateDir: dir, workspaceFolder: ws, env: { ...pgEnv(), ...extra } })!;
  assert.equal(backend.name, 'postgres');
  opened.push(backend);
  return dir;
}

const sql = <T extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => pgRows<T>(pg.url, text, params);

const rowOf = async (scope: string): Promise<Ledger> => (await sql<{ ledger: Ledger }>('SELECT ledger FROM alfred_ledgers WHERE scope = $1', [scope]))[0]!.ledger;
const eventsOf = async (scope: string): Promise<AlfredEvent[]> =>
  (await sql<{ event: AlfredEvent }>('SELECT event FROM alfred_ledger_events WHERE scope = $1 ORDER BY seq', [scope])).map((r) => r.event);
const scopeOfDir = (dir: string): string => ledgerScopeOf({}, dir);

// ── The file backend's suites, the same assertions ──────────────────────────────────────────────
ledgerSuite(() => onPostgres());
governSuite(() => onPostgres());
observeShellSuite(() => onPostgres());
concurrencySuite({ freshState: (home) => onPostgres({}, undefined, home), env: pgEnv });

// ── What only the database has ──────────────────────────────────────────────────────────────────
const shellCall = (dir: string, role = makeRole('coder', { maxShellInvocations: 10 })) =>
  authorize(dir, { role, tool: 'run_in_terminal', toolInput: { command: 'ls' }, source: 'test', decide: shellGate });

test('the database holds the ledger and its log; the row is the fold of the log; the state folder holds the copy', async () => {
  const dir = onPostgres();
  for (let i = 0; i < 3; i++) await shellCall(dir);
  await charge(dir, { role: makeRole('coder'), tool: 'read_file', tokens: 120, costUsd: 0.25, estimated: true, source: 'test' });
  await recordEvents(dir, 'reviewer', [{ type: 'ConfigWritten', file: 'x' }]);
  await shellCall(dir, makeRole('reviewer', { maxShellInvocations: 10 }));
  const scope = scopeOfDir(dir);
  const row = await rowOf(scope);
  const log = await eventsOf(scope);
  assert.deepEqual(log.map((e) => e.id), readEvents(dir).events.map((e) => e.id), 'the copy holds the same events in the same order');
  assert.deepEqual(storedForm(foldScopeEvents(undefined, log)!), accountingOf(row));
  assert.deepEqual(accountingOf(storedForm(readLedger(dir)!)), accountingOf(row));
  assert.deepEqual(row.usage, { tokens: 0, shell: 1, costUsd: 0 });
  assert.equal(log.filter((e) => e.type === 'RoleChanged').length, 1);
});

test('two state folders on one scope (ALFRED_LEDGER_SCOPE): 20 processes, 10 in each, against max_shell_invocations = 10', { timeout: 120_000 }, async () => {
  const scope = `ana@acme.dev/app/${process.pid}`;
  const dirs = [onPostgres({ ALFRED_LEDGER_SCOPE: scope }), onPostgres({ ALFRED_LEDGER_SCOPE: scope })];
  const run = (dir: string): Promise<{ allowed: boolean }> => new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fixtureBundle(path.join(ROOT, 'test/fixtures/authorize-child.ts')), dir], {
      cwd: ROOT, env: { ...process.env, ...pgEnv(), ALFRED_LEDGER_SCOPE: scope },
    });
    let out = '', err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out === 'ready\n') child.stdin.end('go\n');
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.split('\n')[1]!) as { allowed: boolean }) : reject(new Error(`exit ${code}: ${err}`))));
  });
  const decisions = await Promise.all(Array.from({ length: 20 }, (_, i) => run(dirs[i % 2]!)));
  assert.equal(decisions.filter((d) => d.allowed).length, 10);
  const row = await rowOf(scope);
  assert.equal(row.usage.shell, 10);
  const log = await eventsOf(scope);
  assert.equal(log.filter((e) => e.type === 'ToolCall').length, 20);
  assert.equal(log.filter((e) => e.type === 'ToolCall' && e.decision === 'allow').length, 10);
  assert.equal(log.reduce((n, e) => n + Number((e.charge as { shell?: number } | undefined)?.shell ?? 0), 0), 10);
  // Each folder's next transaction brings its copy to the database's ledger.
  for (const dir of dirs) await recordEvents(dir, 'coder', []);
  assert.deepEqual(dirs.map((d) => readLedger(d)!.usage.shell), [10, 10]);
});

test('the database stopped mid-run and restarted: offline charges are replayed once, a fail-closed role is refused meanwhile', { timeout: 120_000 }, async () => {
  const toml = '[offline]\ndefault = "local"\nreviewer = "fail-closed"\n';
  const dir = onPostgres({}, toml);
  const coder = makeRole('coder', { maxShellInvocations: 100 });
  for (let i = 0; i < 3; i++) assert.equal((await shellCall(dir, coder)).decision.allowed, true);
  pg.halt();
  let refused;
  try {
    const offline = [];
    for (let i = 0; i < 4; i++) offline.push(await shellCall(dir, coder));
    assert.deepEqual(offline.map((r) => r.decision.allowed), [true, true, true, true], 'coder goes on with the local ledger');
    assert.match(offline[0]!.problems[0]!, /^The ledger database cannot be reached \(.+\): this transaction was kept in the state folder/);
    assert.equal(offline[3]!.status.dimensions.shell.used, 7, 'the local ledger counts on');
    await charge(dir, { role: coder, tool: 'read_file', tokens: 500, costUsd: 0.5, estimated: false, source: 'test' });
    assert.ok(fs.existsSync(path.join(dir, ledgerPending.file)));
    // A fail-closed role is refused while the database is away (its role change is kept all the same).
    const reviewer = makeRole('reviewer', { maxShellInvocations: 100 });
    refused = await shellCall(dir, reviewer);
    assert.equal(refused.decision.allowed, false);
    assert.match(refused.decision.reason!, /^The ledger database cannot be reached \(.+\), and role reviewer fails closed when it is offline/);
    assert.equal(refused.status.dimensions.shell.used, 0);
    // ctx_session stays callable.
    const session = await authorize(dir, { role: reviewer, tool: 'ctx_session', source: 'test', decide: () => ({ allowed: true, category: 'read', shellCharge: 0 }) });
    assert.equal(session.decision.allowed, true);
    await recordEvents(dir, 'coder', []); // back to coder: a RoleChanged, offline too
  } finally {
    pg.start();
  }
  const back = await shellCall(dir, coder);
  assert.deepEqual(back.problems, []);
  assert.ok(!fs.readdirSync(dir).some((f) => f.startsWith('ledger-pending')), 'nothing waits once replayed');
  const scope = scopeOfDir(dir);
  const log = await eventsOf(scope);
  const local = readEvents(dir).events;
  assert.deepEqual(log.map((e) => e.id).sort(), local.map((e) => e.id).sort(), 'every event once in the database, none lost');
  assert.equal(new Set(log.map((e) => e.id)).size, log.length);
  const row = await rowOf(scope);
  // The role went coder → reviewer → coder offline: the row is the new coder session, one shell call.
  assert.deepEqual(row.usage, { tokens: 0, shell: 1, costUsd: 0 });
  assert.equal(row.role, 'coder');
  assert.deepEqual(accountingOf(storedForm(readLedger(dir)!)), accountingOf(row));
  // The session before the outage ends with every charge: 3 online + 4 offline shell calls, and the output.
  const before = log.filter((e) => e.session === log[0]!.session);
  assert.deepEqual(foldScopeEvents(undefined, before)!.usage, { tokens: 500, shell: 7, costUsd: 0.5 });
  assert.deepEqual(storedForm(foldScopeEvents(undefined, log)!), accountingOf(row), 'the row is still the fold of the log');
  // Replaying the same events again adds nothing: each id is counted once.
  ledgerPending.append(dir, local);
  await recordEvents(dir, 'coder', []);
  assert.deepEqual((await rowOf(scope)).usage, row.usage);
  assert.equal((await eventsOf(scope)).length, log.length);
});

test('a second state folder that worked offline before it ever reached the database: its charges join the scope\'s session, the budget does not start over', { timeout: 120_000 }, async () => {
  const scope = `offline-newcomer/${process.pid}`;
  const toml = '[offline]\ndefault = "local"\n';
  const a = onPostgres({ ALFRED_LEDGER_SCOPE: scope }, toml);
  const b = onPostgres({ ALFRED_LEDGER_SCOPE: scope }, toml);
  const coder = makeRole('coder', { maxShellInvocations: 6 });
  for (let i = 0; i < 3; i++) assert.equal((await shellCall(a, coder)).decision.allowed, true);
  pg.halt();
  try {
    // B has no copy yet: it opens a session of its own and counts from zero.
    const offline = [await shellCall(b, coder), await shellCall(b, coder)];
    assert.deepEqual(offline.map((r) => r.status.dimensions.shell.used), [1, 2]);
  } finally {
    pg.start();
  }
  // Sent with B's next call: 3 of A's, 2 kept by B, and this one.
  const back = await shellCall(b, coder);
  assert.deepEqual(back.problems, []);
  assert.equal(back.status.dimensions.shell.used, 6);
  const row = await rowOf(scope);
  assert.equal(row.usage.shell, 6);
  assert.deepEqual(storedForm(foldScopeEvents(undefined, await eventsOf(scope))!), accountingOf(row), 'the row is the fold of the log');
  // The budget of 6 is spent, in either folder.
  assert.equal((await shellCall(a, coder)).decision.allowed, false);
  assert.equal((await shellCall(b, coder)).decision.allowed, false);
});

test('a commit whose answer was lost is kept and sent again, never run again nor counted twice, in one round trip or two', async () => {
  const { dir } = folders();
  const scope = `lost-answer/${process.pid}`;
  const real = new PgLedgerStore(new PgConnection({ connectionString: pg.url, password: PG_TEST_PASSWORD }, 400));
  let loseNext = false;
  const calls = { transaction: 0, commitAt: 0 };
  const losing = <A extends unknown[], R>(name: keyof typeof calls, f: (...a: A) => Promise<R>) => async (...a: A): Promise<R> => {
    calls[name]++;
    const answer = await f(...a);
    if (loseNext) {
      loseNext = false;
      throw new Error('connection lost before the answer');
    }
    return answer;
  };
  const store: LedgerStore = {
    transaction: losing('transaction', (...a: Parameters<LedgerStore['transaction']>) => real.transaction(...a)),
    commitAt: losing('commitAt', (...a: Parameters<LedgerStore['commitAt']>) => real.commitAt(...a)),
    connect: () => real.connect(),
    close: () => real.close(),
  };
  const backend = new PgLedgerBackend({ store, scope, offlineMode: () => 'fail-closed' });
  opened.push(backend);
  let runs = 0;
  const fn = (l: Ledger) => {
    runs++;
    l.usage.shell += 1;
    return { events: [{ type: 'ToolCall' as const, tool: 'sh', charge: { shell: 1 } }], result: l.usage.shell };
  };
  const results: number[] = [];
  const problems: string[][] = [];
  const call = async (options?: { effects: boolean }) => {
    const r = await backend.run(dir, 'coder', fn, options);
    results.push(r.result);
    problems.push(r.problems);
  };
  await call(); // the scope's first: two round trips
  loseNext = true;
  await call(); // on the copy, one round trip, its answer lost
  await call(); // the kept events sent first: two round trips
  loseNext = true;
  await call({ effects: true }); // two round trips, the second's answer lost
  await call();
  await call(); // on the copy again
  assert.deepEqual(results, [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(problems.map((p) => p.length), [0, 1, 0, 1, 0, 0]);
  assert.match(problems[1]![0]!, /cannot be reached \(connection lost before the answer\)/);
  assert.equal(runs, 6, 'the function ran once per call');
  assert.deepEqual(calls, { transaction: 4, commitAt: 2 });
  assert.equal((await rowOf(scope)).usage.shell, 6);
  assert.equal((await eventsOf(scope)).length, 6);
  assert.equal(readLedger(dir)!.usage.shell, 6);
  assert.equal(readEvents(dir).events.length, 6);
});

test('one round trip on a copy that is the row; a copy another folder moved past, a process on the files or a hand changed is not decided on', async () => {
  const scope = `copy-or-row/${process.pid}`;
  const real = new PgLedgerStore(new PgConnection({ connectionString: pg.url, password: PG_TEST_PASSWORD }, 400));
  const calls = { transaction: 0, commitAt: 0, stale: 0 };
  const store: LedgerStore = {
    transaction: (...a) => { calls.transaction++; return real.transaction(...a); },
    commitAt: async (...a) => {
      calls.commitAt++;
      const at = await real.commitAt(...a);
      if (!at) calls.stale++;
      return at;
    },
    connect: () => real.connect(),
    close: () => real.close(),
  };
  const backend = new PgLedgerBackend({ store, scope, offlineMode: () => 'fail-closed' });
  opened.push(backend);
  const a = folders().dir, b = folders().dir;
  const useDb = (dir: string) => useLedgerBackend(dir, backend);
  useDb(a);
  useDb(b);
  const used = async (dir: string) => (await shellCall(dir)).status.dimensions.shell.used;
  const steps: Array<[number, typeof calls]> = [];
  const step = async (dir: string) => steps.push([await used(dir), { ...calls }]);
  await step(a); // the scope's first: on the row
  await step(a); // A's copy is the row: one round trip
  await step(b); // B has no copy: on the row
  await step(a); // B moved the row: A's try on its copy is turned down, then on the row
  await step(a); // on the copy again
  assert.deepEqual(steps, [
    [1, { transaction: 1, commitAt: 0, stale: 0 }],
    [2, { transaction: 1, commitAt: 1, stale: 0 }],
    [3, { transaction: 2, commitAt: 1, stale: 0 }],
    [4, { transaction: 3, commitAt: 2, stale: 1 }],
    [5, { transaction: 3, commitAt: 3, stale: 1 }],
  ]);
  // A process without ALFRED_LEDGER_BACKEND charges A's folder on the files: A's copy is no longer the row.
  useLedgerBackend(a, undefined);
  assert.equal(await used(a), 6);
  useDb(a);
  assert.equal(await used(a), 6, 'decided on the row (5 shell calls), not on the copy the files changed');
  assert.deepEqual(calls, { transaction: 4, commitAt: 4, stale: 2 });
  // A hand (an agent that reached the state folder) lowers the copy's count: the row decides.
  const forged = readLedger(a)!;
  forged.usage.shell = 0;
  writeLedger(a, forged);
  assert.equal(await used(a), 7);
  assert.deepEqual(calls, { transaction: 5, commitAt: 5, stale: 3 });
  const row = await rowOf(scope);
  assert.equal(row.usage.shell, 7);
  assert.deepEqual(storedForm(foldScopeEvents(undefined, await eventsOf(scope))!), accountingOf(row), 'the row is the fold of the log');
});

test('alfred doctor says where the ledger is kept and whether the database can be reached', { timeout: 60_000 }, async () => {
  const dir = onPostgres();
  const backend = ledgerBackendOf(dir)!;
  assert.deepEqual(await ledgerCheck(backend, dir), { name: 'ledger', state: 'ok', detail: `PostgreSQL, scope ${scopeOfDir(dir)}: reachable` });
  await backend.close(); // a connection open before the stop would only fail at its next statement
  pg.halt();
  try {
    const down = await ledgerCheck(backend, dir);
    assert.equal(down.state, 'warn');
    assert.match(down.detail, /^PostgreSQL, scope .+: cannot be reached \(.+\); calls run on the state folder's copy as the roles' offline modes say, and are sent once it is back$/);
  } finally {
    pg.start();
  }
});

test('the backend is chosen by the environment only; the files never load pg', () => {
  // A repository cannot choose it: its settings and files are not read for it.
  const { ws, dir } = folders();
  fs.mkdirSync(path.join(ws, '.vscode'));
  fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'alfred.ledgerBackend': 'postgres', 'alfred.ledgerUrl': pg.url }));
  assert.equal(openLedgerBackend({ stateDir: dir, workspaceFolder: ws, env: { ALFRED_LEDGER_URL: pg.url } }), undefined);
  // An unknown backend fails closed rather than quietly staying on the files.
  const typo = openLedgerBackend({ stateDir: dir, workspaceFolder: ws, env: { ALFRED_LEDGER_BACKEND: 'postgress' } })!;
  opened.push(typo);
  const script = (env: string) => `const { Harness } = require('./src/core/harness/harness.ts');
    const h = new Harness({ workspaceFolder: ${JSON.stringify(ws)}, builtinRolesDir: 'roles', env: { ...process.env, ALFRED_HOME: ${JSON.stringify(path.dirname(path.dirname(dir)))}, ${env} } });
    const { toolCall } = require('./src/core/rules/policy/toolCall.ts');
    h.authorize(toolCall('run_in_terminal', { command: 'ls' }), { source: 'test' }).then((r) => {
      console.log(JSON.stringify({ pg: Object.keys(require.cache).some((k) => /node_modules[\\\\/]pg[\\\\/]/.test(k)), allowed: r.decision.allowed, reason: r.decision.reason ?? null }));
    });`;
  const run = (env: string) => JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '-e', script(env)], { cwd: ROOT, encoding: 'utf8' }).trim()) as { pg: boolean; allowed: boolean; reason: string | null };
  assert.deepEqual(run(''), { pg: false, allowed: true, reason: null });
  const typoRun = run("ALFRED_LEDGER_BACKEND: 'postgress'");
  assert.equal(typoRun.allowed, false);
  assert.match(typoRun.reason!, /ALFRED_LEDGER_BACKEND=postgress is not a ledger backend \(files or postgres\)/);
  // Control: the probe sees pg once the database is chosen (here one nothing listens on).
  assert.equal(run("ALFRED_LEDGER_BACKEND: 'postgres', ALFRED_LEDGER_URL: 'postgres://alfred@127.0.0.1:1/alfred'").pg, true);
});
