/**
 * The team ledger on a real PostgreSQL (test/support/postgres.ts, one server for this file): the
 * harness refuses at a team budget and charges nothing then, 40 processes on two machines charge one
 * budget of 10 exactly 10 times, an outage loses and doubles nothing, a period resets at its boundary.
 */
import { formatUsd } from '../../../../src/core/base/money';
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from 'pg';
import { budgetCommand } from '../../../../src/cli/commands/budget';
import { teamCommand } from '../../../../src/cli/commands/team';
import { Harness } from '../../../../src/core/harness/harness';
import { toolCall } from '../../../../src/core/rules/policy/toolCall';
import { readLedger } from '../../../../src/core/ledger/ledgerFormat';
import { parseTeamConfig } from '../../../../src/core/ledger/team/config';
import { migrate } from '../../../../src/core/ledger/team/migrate';
import { migrationFiles } from '../../../../src/core/ledger/team/migrationFiles';
import { openTeamLedger } from '../../../../src/core/ledger/team/open';
import { PENDING_FILE } from '../../../../src/core/ledger/team/pending';
import { teamCheck } from '../../../../src/core/doctor/report';
import { TeamTracker } from '../../../../src/vscode/webviews/teamSection';
import { PG_TEST_PASSWORD, pgRows, startPostgres, type PgServer } from '../../../support/postgres';
import { fixtureBundle } from '../../../support/fixtureBundle';

let pg: PgServer;
const roots: string[] = [];
before(async () => { pg = await startPostgres(); });
after(() => {
  pg?.stop();
  roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true }));
});

/** A database of its own per test, so that tests do not see each other's charges. */
async function database(name: string): Promise<string> {
  const admin = new Client({ connectionString: pg.url.replace('alfred@', `alfred:${PG_TEST_PASSWORD}@`) });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return pg.url.replace(/\/alfred$/, `/${name}`).replace('alfred@', 'alfred:$TEST_PG_PASSWORD@');
}

interface Machine { ws: string; env: NodeJS.ProcessEnv }

/** A workspace with a team file, seen from one or more machines (each its own ALFRED_HOME). */
function workspace(teamToml: string, url: string, users: string[]): Machine[] {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-team-'));
  roots.push(root);
  const ws = path.join(root, 'ws');
  fs.mkdirSync(path.join(ws, '.alfred'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.alfred', 'team.toml'), teamToml);
  return users.map((user, i) => ({
    ws,
    env: {
      PATH: process.env.PATH, HOME: path.join(root, `home${i}`), ALFRED_HOME: path.join(root, `machine${i}`), ALFRED_LEDGER_URL: url,
      TEST_PG_PASSWORD: PG_TEST_PASSWORD, ALFRED_USER: user, ALFRED_MACHINE: `machine${i}`, ALFRED_REPOSITORY: 'github.com/acme/app',
    },
  }));
}

const harnessOf = (m: Machine): Harness => new Harness({ workspaceFolder: m.ws, builtinRolesDir: path.resolve(__dirname, '../../../../roles'), env: m.env });
const shell = (h: Harness, n: number) => h.authorize(toolCall('run_in_terminal', { command: `echo ${n}` }), { source: 'test' });

test('a call is refused at an exhausted team budget, naming it; the refusal charges nothing and reaches the audit trail', async () => {
  const url = await database('refusal');
  const [m] = workspace('team = "platform"\n[[budget]]\nname = "ops-shell"\nperiod = "day"\nmax_shell_invocations = 3\n', url, ['ana@acme.dev']);
  const h = harnessOf(m!);
  const verdicts = [];
  for (let i = 0; i < 4; i++) verdicts.push((await shell(h, i)).decision);
  assert.deepEqual(verdicts.map((d) => d.allowed), [true, true, true, false]);
  assert.match(verdicts[3]!.reason!, /^The team budget ops-shell is exhausted for this day: Team\[platform\/ops-shell day\]: shell 3\/3 \(100%\) → EXHAUSTED\./);
  assert.equal(readLedger(h.stateDir)!.usage.shell, 3, 'the refused call is not charged to the personal budget');
  // ctx_session stays callable, as under the personal budget.
  assert.equal((await h.authorize(toolCall('ctx_session', { action: 'budget' }), { source: 'test' })).decision.allowed, true);
  await h.team!.flush(); // the audit copy is not waited for by the call
  const usage = await pgRows<{ shell: string }>(url, 'SELECT shell FROM team_usage');
  assert.deepEqual(usage.map((r) => Number(r.shell)), [3]);
  const refusals = await pgRows<{ user_id: string; machine: string; reason: string }>(url, "SELECT user_id, machine, event->>'reason' AS reason FROM team_events WHERE type = 'PolicyViolation'");
  assert.equal(refusals.length, 1);
  assert.equal(refusals[0]!.user_id, 'ana@acme.dev');
  assert.equal(refusals[0]!.reason, verdicts[3]!.reason);
  const local = h.events({ types: ['ToolCall'] }).events.map((e) => e.id).sort();
  const remote = (await pgRows<{ id: string }>(url, "SELECT id FROM team_events WHERE type = 'ToolCall'")).map((r) => r.id).sort();
  assert.deepEqual(remote, local, 'every event of the file log is in the team audit trail, by the same id');
  const migrations = await pgRows<{ version: number; name: string }>(url, 'SELECT version, name FROM alfred_migrations');
  assert.deepEqual(migrations, [{ version: 1, name: '001_team_ledger.sql' }, { version: 2, name: '002_decide_function.sql' }, { version: 3, name: '003_personal_ledger.sql' }, { version: 4, name: '004_ledger_version.sql' }, { version: 5, name: '005_event_chain.sql' }]);
  await h.team!.close();
});

function runWorker(m: Machine): Promise<{ allowed: boolean }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [fixtureBundle(path.join(__dirname, 'chargeWorker.ts')), m.ws], { env: m.env, cwd: path.resolve(__dirname, '../../../..') }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim()) as { allowed: boolean });
    });
  });
}

test('40 processes on two machines charging one team budget of 10: exactly 10 allowed', { timeout: 300_000 }, async () => {
  const url = await database('race');
  const machines = workspace('team = "platform"\n[[budget]]\nname = "shared"\nperiod = "month"\nmax_shell_invocations = 10\n', url, ['ana@acme.dev', 'bo@acme.dev']);
  const runs = await Promise.all(Array.from({ length: 40 }, (_, i) => runWorker(machines[i % 2]!)));
  assert.equal(runs.filter((r) => r.allowed).length, 10);
  assert.equal(runs.filter((r) => !r.allowed).length, 30);
  const [usage] = await pgRows<{ shell: string }>(url, 'SELECT shell FROM team_usage');
  assert.equal(Number(usage!.shell), 10);
  const charges = await pgRows<{ n: string; shell: string }>(url, 'SELECT count(*) AS n, sum(shell) AS shell FROM team_charges');
  assert.deepEqual(charges.map((c) => [Number(c.n), Number(c.shell)]), [[10, 10]]);
  const h0 = harnessOf(machines[0]!), h1 = harnessOf(machines[1]!);
  assert.equal(readLedger(h0.stateDir)!.usage.shell + readLedger(h1.stateDir)!.usage.shell, 10, 'the two machines\' own ledgers hold the 10 allowed calls between them');
  const refusals = await pgRows<{ n: string }>(url, "SELECT count(*) AS n FROM team_events WHERE type = 'PolicyViolation'");
  assert.equal(Number(refusals[0]!.n), 30);
});

test('the database stopped mid-run and restarted: local charges are replayed once, nothing lost or doubled', { timeout: 120_000 }, async () => {
  const url = await database('outage');
  const toml = 'team = "platform"\n[[budget]]\nname = "big"\nperiod = "month"\nmax_shell_invocations = 1000\n[offline]\ndefault = "local"\nreviewer = "fail-closed"\n';
  const [m] = workspace(toml, url, ['ana@acme.dev']);
  const h = harnessOf(m!);
  for (let i = 0; i < 5; i++) assert.equal((await shell(h, i)).decision.allowed, true);
  await h.chargeOutput(toolCall('read_file', { filePath: 'a' }), 'x'.repeat(400), { source: 'test', model: 'gpt-4.1-mini' });
  // Its copy to the team is sent after the call returns: sent before the outage.
  await h.team!.flush();
  pg.halt();
  try {
    for (let i = 5; i < 12; i++) assert.equal((await shell(h, i)).decision.allowed, true, 'role coder goes on with the local ledger');
    await h.chargeOutput(toolCall('read_file', { filePath: 'b' }), 'y'.repeat(800), { source: 'test', model: 'gpt-4.1-mini' });
    await h.team!.flush();
    assert.ok(fs.existsSync(path.join(h.stateDir, PENDING_FILE)));
    // A fail-closed role is refused while the database is away.
    const [r] = workspace(toml, url, ['bo@acme.dev']);
    const reviewer = harnessOf({ ...r!, env: { ...r!.env, ALFRED_ROLE: 'debugger' } });
    const failClosed = openTeamLedger({ workspaceFolder: r!.ws, stateDir: reviewer.stateDir, env: r!.env, config: parseTeamConfig(toml) })!;
    const v = await failClosed.authorize({ role: 'reviewer', tool: 'read_file', shell: 0, exempt: false });
    assert.equal(v.allowed, false);
    assert.match(v.allowed ? '' : v.reason, /^The team ledger cannot be reached \(.*\), and role reviewer fails closed when it is offline/);
    await failClosed.close();
  } finally {
    pg.start();
  }
  // The next call reconciles first.
  assert.equal((await shell(h, 12)).decision.allowed, true);
  await h.team!.flush();
  assert.ok(!fs.readdirSync(h.stateDir).some((f) => f.startsWith('team-pending')), 'the local ledger is empty once replayed');
  const local = readLedger(h.stateDir)!.usage;
  const [team] = await pgRows<{ shell: string; tokens: string }>(url, 'SELECT shell, tokens FROM team_usage');
  assert.equal(Number(team!.shell), 13);
  assert.equal(local.shell, 13);
  assert.equal(Number(team!.tokens), local.tokens);
  assert.ok(local.tokens > 0);
  const [offline] = await pgRows<{ n: string }>(url, 'SELECT count(*) AS n FROM team_charges WHERE offline');
  assert.equal(Number(offline!.n), 8, '7 shell calls and one output charged while the database was down');
  // Replaying the same charges again adds nothing: each id is counted once.
  const [before] = await pgRows<{ n: string }>(url, 'SELECT count(*) AS n FROM team_charges');
  const rows = await pgRows<{ id: string }>(url, 'SELECT id FROM team_charges WHERE offline');
  fs.writeFileSync(path.join(h.stateDir, PENDING_FILE), rows.map((r) => JSON.stringify({ charge: { id: r.id, ts: new Date().toISOString(), team: 'platform', repository: 'r', role: 'coder', user: 'u', machine: 'm', tags: [], tokens: 0, shell: 1, costUsd: 0, budgets: [{ key: 'platform/big', periodStart: '2000-01-01T00:00:00.000Z' }] } }) + '\n').join(''));
  assert.equal(await h.team!.reconcile(), 0);
  const [afterReplay] = await pgRows<{ n: string }>(url, 'SELECT count(*) AS n FROM team_charges');
  assert.equal(afterReplay!.n, before!.n);
  await h.team!.close();
});

test('a role no team budget applies to is not decided in the database: its charges are copied after the call, kept while it is down', { timeout: 120_000 }, async () => {
  const url = await database('undecided');
  const [m] = workspace('team = "platform"\n[[budget]]\nname = "reviewers"\nperiod = "day"\nrole = "reviewer"\nmax_shell_invocations = 1\n', url, ['ana@acme.dev']);
  const h = harnessOf(m!);
  assert.equal(h.team!.decides('coder'), false);
  assert.equal(h.team!.decides('reviewer'), true);
  // What alfred doctor says of it.
  assert.deepEqual(await teamCheck(h.team, undefined, 'coder'), { name: 'team ledger', state: 'ok', detail: 'team platform: reachable; no team budget for role coder' });
  assert.equal((await teamCheck(h.team, undefined, 'reviewer'))!.detail, 'team platform: reachable; team budgets for role reviewer: reviewers');
  const charges = async () => (await pgRows<{ shell: string; budgets: unknown; offline: boolean }>(url, 'SELECT shell, budgets, offline FROM team_charges ORDER BY ts'))
    .map((r) => [Number(r.shell), r.budgets, r.offline]);
  for (let i = 0; i < 2; i++) assert.equal((await shell(h, i)).decision.allowed, true);
  await h.team!.flush();
  assert.deepEqual(await charges(), [[1, [], false], [1, [], false]]);
  pg.halt();
  try {
    // Nothing in the database could refuse it: the call goes on (the role's fail-closed mode is for
    // what a team budget decides), and its charge waits in the local ledger.
    assert.equal((await shell(h, 2)).decision.allowed, true);
    await h.team!.flush();
    assert.ok(fs.existsSync(path.join(h.stateDir, PENDING_FILE)));
  } finally {
    pg.start();
  }
  assert.equal((await shell(h, 3)).decision.allowed, true);
  await h.team!.flush();
  assert.deepEqual(await charges(), [[1, [], false], [1, [], false], [1, [], true], [1, [], false]]);
  assert.equal(readLedger(h.stateDir)!.usage.shell, 4);
  await h.team!.close();
});

test('a period resets at its UTC boundary (injected clock)', async () => {
  const url = await database('period');
  const [m] = workspace('', url, ['ana@acme.dev']);
  let now = new Date('2026-03-01T23:59:58Z');
  const config = parseTeamConfig('team = "platform"\n[[budget]]\nname = "daily"\nperiod = "day"\nmax_shell_invocations = 2\n');
  const t = openTeamLedger({ workspaceFolder: m!.ws, stateDir: path.join(m!.env.ALFRED_HOME!, 'st'), env: m!.env, config, now: () => now })!;
  const call = { role: 'coder', tool: 'run_in_terminal', shell: 1, exempt: false };
  assert.deepEqual([(await t.authorize(call)).allowed, (await t.authorize(call)).allowed, (await t.authorize(call)).allowed], [true, true, false]);
  now = new Date('2026-03-01T23:59:59.999Z');
  assert.equal((await t.authorize(call)).allowed, false);
  now = new Date('2026-03-02T00:00:00.000Z');
  const next = await t.authorize(call);
  assert.equal(next.allowed, true);
  assert.equal(next.statuses[0]!.line, 'Team[platform/daily day]: shell 1/2 (50%) → OK');
  const rows = await pgRows<{ period_start: Date; shell: string }>(url, 'SELECT period_start, shell FROM team_usage ORDER BY period_start');
  assert.deepEqual(rows.map((r) => [r.period_start.toISOString(), Number(r.shell)]), [['2026-03-01T00:00:00.000Z', 2], ['2026-03-02T00:00:00.000Z', 1]]);
  await t.close();
});

test('alfred team prints the period\'s spend per user, role and model; alfred budget --json includes the team budgets', async () => {
  const url = await database('cli');
  const [ana, bo] = workspace('team = "platform"\n[[budget]]\nname = "shell"\nperiod = "week"\nmax_shell_invocations = 50\n', url, ['ana@acme.dev', 'bo@acme.dev']);
  const ha = harnessOf(ana!), hb = harnessOf(bo!);
  await shell(ha, 1);
  await shell(ha, 2);
  await shell(hb, 3);
  await ha.chargeOutput(toolCall('read_file', { filePath: 'a' }), 'word '.repeat(100), { source: 'test', model: 'gpt-4.1-mini' });
  await ha.team!.flush();
  await hb.team!.flush();
  const saved = { ...process.env };
  Object.assign(process.env, ana!.env);
  const out: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(`ERR ${t}`), readStdin: async () => '' };
  const args = { positionals: [] as string[], json: false, workspace: ana!.ws, explicitWorkspace: true };
  try {
    assert.equal(await teamCommand.run(args, io), 0);
    const tokens = readLedger(ha.stateDir)!.usage.tokens;
    assert.ok(tokens > 0);
    assert.deepEqual(out.slice(1), [
      '  ana@acme.dev · coder · no model: 2 charges, tokens 0, shell 2, cost $0.00',
      '  ana@acme.dev · coder · gpt-4.1-mini: 1 charges, tokens ' + tokens + ', shell 0, cost ' + formatUsd(readLedger(ha.stateDir)!.usage.costUsd),
      '  bo@acme.dev · coder · no model: 1 charges, tokens 0, shell 1, cost $0.00',
      'Team[platform/shell week]: shell 3/50 (6%) → OK',
    ]);
    assert.match(out[0]!, /^Team platform, this month \(since \d{4}-\d\d-01T00:00:00\.000Z\): 4 charges$/);
    out.length = 0;
    assert.equal(await budgetCommand.run({ ...args, json: true }, io), 0);
    const parsed = JSON.parse(out[0]!) as { dimensions: { shell: { used: number } }; team: { budgets: Array<{ name: string; line: string }> } };
    assert.equal(parsed.dimensions.shell.used, 2);
    assert.deepEqual(parsed.team.budgets.map((b) => [b.name, b.line]), [['shell', 'Team[platform/shell week]: shell 3/50 (6%) → OK']]);
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    await ha.team!.close();
    await hb.team!.close();
  }
});

test("a refusal in one window shows on the other's dashboard (two state folders, one database)", async () => {
  const url = await database('dashboard');
  const [a, b] = workspace('team = "platform"\n[[budget]]\nname = "shared"\nperiod = "day"\nmax_shell_invocations = 1\n', url, ['ana@acme.dev', 'bo@acme.dev']);
  const ha = harnessOf(a!), hb = harnessOf(b!);
  let redraws = 0;
  const tracker = new TeamTracker((e) => `${e.type}: ${String(e.reason)}`, () => redraws++);
  await tracker.poll(hb);
  assert.deepEqual(tracker.current(), {
    team: 'platform', error: null, refusals: [],
    budgets: [{ name: 'shared', period: 'day', signal: 'OK', line: 'Team[platform/shared day]: shell 0/1 (0%) → OK' }],
  });
  assert.equal((await shell(ha, 1)).decision.allowed, true);
  const refused = (await shell(ha, 2)).decision;
  assert.equal(refused.allowed, false);
  await ha.team!.flush();
  await tracker.poll(hb);
  const view = tracker.current()!;
  assert.deepEqual(view.budgets.map((x) => x.line), ['Team[platform/shared day]: shell 1/1 (100%) → EXHAUSTED']);
  assert.deepEqual(view.refusals.map((r) => [r.user, r.machine, r.summary]), [['ana@acme.dev', 'machine0', `PolicyViolation: ${refused.reason}`]]);
  assert.equal(redraws, 2);
  await tracker.poll(hb);
  assert.equal(redraws, 2, 'an unchanged answer redraws nothing');
  await ha.team!.close();
  await hb.team!.close();
});

test('migrations are applied once, in order, each recorded; a failing one leaves nothing behind', async () => {
  const url = await database('migrations');
  const c = new Client({ connectionString: url.replace('$TEST_PG_PASSWORD', PG_TEST_PASSWORD) });
  await c.connect();
  try {
    const files = migrationFiles();
    assert.deepEqual(files.map((f) => f.name), ['001_team_ledger.sql', '002_decide_function.sql', '003_personal_ledger.sql', '004_ledger_version.sql', '005_event_chain.sql']);
    assert.deepEqual(await migrate(c, files), ['001_team_ledger.sql', '002_decide_function.sql', '003_personal_ledger.sql', '004_ledger_version.sql', '005_event_chain.sql']);
    assert.deepEqual(await migrate(c, files), []);
    const next = [...files, { version: 98, name: '098_more.sql', sql: 'CREATE TABLE more_things (x int)' }];
    assert.deepEqual(await migrate(c, next), ['098_more.sql']);
    await assert.rejects(migrate(c, [...next, { version: 99, name: '099_bad.sql', sql: 'CREATE TABLE bad_things (x int); SELECT no_such_column' }]), /no_such_column/);
    const { rows } = await c.query<{ version: number }>('SELECT version FROM alfred_migrations ORDER BY version');
    assert.deepEqual(rows.map((r) => r.version), [1, 2, 3, 4, 5, 98]);
    assert.equal((await c.query("SELECT to_regclass('bad_things') AS t")).rows[0].t, null);
  } finally {
    await c.end();
  }
});
