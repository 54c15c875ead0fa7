/** The team ledger's pure parts: the URL's password rule, the team file, periods, budget matching and lines. */
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { budgetsFor, teamBudgetStatus } from '../../../../src/core/ledger/team/budgets';
import { offlineModeOf, parseTeamConfig } from '../../../../src/core/ledger/team/config';
import { repositoryName } from '../../../../src/core/ledger/team/identity';
import { periodStart } from '../../../../src/core/ledger/team/period';
import { LedgerUrlError, ledgerUrlOf, resolveLedgerUrl } from '../../../../src/core/ledger/team/url';

test('a literal password in the ledger URL is refused with how to store it', () => {
  assert.throws(() => resolveLedgerUrl('postgres://alfred:hunter2@db:5432/alfred', {}), (err: Error) =>
    err instanceof LedgerUrlError && err.message.includes('literal password') && err.message.includes('$ALFRED_DB_PASSWORD') && !err.message.includes('hunter2'));
});

test('a password reference is resolved from the environment and left out of the connection string', () => {
  assert.deepEqual(resolveLedgerUrl('postgres://alfred:$DBPW@db:5432/alfred', { DBPW: 's3cret' }), { connectionString: 'postgres://alfred@db:5432/alfred', password: 's3cret' });
  assert.deepEqual(resolveLedgerUrl('postgresql://alfred:${DBPW}@db/alfred', { DBPW: 'x' }), { connectionString: 'postgresql://alfred@db/alfred', password: 'x' });
  assert.deepEqual(resolveLedgerUrl('postgres://alfred@db/alfred', {}), { connectionString: 'postgres://alfred@db/alfred' });
  assert.throws(() => resolveLedgerUrl('postgres://alfred:$NOPE@db/alfred', {}), /\$NOPE, which is not set/);
  assert.throws(() => resolveLedgerUrl('mysql://db/alfred', {}), /must start with postgres:\/\//);
});

test('the environment wins over the setting; blank means off', () => {
  assert.equal(ledgerUrlOf({ ALFRED_LEDGER_URL: 'postgres://a@b/c' }, 'postgres://x@y/z'), 'postgres://a@b/c');
  assert.equal(ledgerUrlOf({}, ' postgres://x@y/z '), 'postgres://x@y/z');
  assert.equal(ledgerUrlOf({ ALFRED_LEDGER_URL: ' ' }, ''), undefined);
});

test('periods start at UTC boundaries: the day at 00:00, the week on Monday, the month on the 1st', () => {
  const at = new Date('2026-03-01T23:59:59.999Z'); // a Sunday
  assert.equal(periodStart('day', at).toISOString(), '2026-03-01T00:00:00.000Z');
  assert.equal(periodStart('week', at).toISOString(), '2026-02-23T00:00:00.000Z');
  assert.equal(periodStart('month', at).toISOString(), '2026-03-01T00:00:00.000Z');
  assert.equal(periodStart('week', new Date('2026-03-02T00:00:00Z')).toISOString(), '2026-03-02T00:00:00.000Z');
  assert.equal(periodStart('month', new Date('2026-02-28T12:00:00Z')).toISOString(), '2026-02-01T00:00:00.000Z');
});

const TOML = `
team = "platform"
[[budget]]
name = "reviewers"
period = "month"
role = "reviewer"
repository = "github.com/acme/app"
max_cost_usd = 200
[[budget]]
name = "ana"
period = "day"
user = "ana@acme.dev"
max_shell_invocations = 10
max_context_tokens = 5000
[[budget]]
name = "ci"
period = "week"
tag = "ci"
max_cost_usd = 5
[[budget]]
name = "broken"
period = "year"
max_cost_usd = 1
[offline]
default = "local"
reviewer = "fail-closed"
ops = "maybe"
`;

test('the team file: budgets, filters and offline modes, with each problem named', () => {
  const c = parseTeamConfig(TOML, 'team.toml');
  assert.equal(c.team, 'platform');
  assert.deepEqual(c.budgets.map((b) => b.name), ['reviewers', 'ana', 'ci']);
  assert.deepEqual(c.budgets[1], { name: 'ana', period: 'day', match: { user: 'ana@acme.dev' }, limits: { shell: 10, tokens: 5000 }, warnAtPercent: 80, blockAtPercent: 100 });
  assert.deepEqual(c.problems, ['team.toml budget 4: broken: period must be day, week or month', 'team.toml: offline.ops must be "fail-closed" or "local"']);
  assert.equal(offlineModeOf(c, 'reviewer'), 'fail-closed');
  assert.equal(offlineModeOf(c, 'coder'), 'local');
  assert.equal(offlineModeOf(parseTeamConfig('team = "x"'), 'coder'), 'fail-closed');
});

test('a charge falls under every budget whose filters all match', () => {
  const { budgets } = parseTeamConfig(TOML);
  const who = { user: 'ana@acme.dev', repository: 'github.com/acme/app', machine: 'm', tags: ['ci'] };
  assert.deepEqual(budgetsFor(budgets, { ...who, role: 'reviewer' }).map((b) => b.name), ['reviewers', 'ana', 'ci']);
  assert.deepEqual(budgetsFor(budgets, { ...who, role: 'coder', tags: [] }).map((b) => b.name), ['ana']);
  assert.deepEqual(budgetsFor(budgets, { ...who, role: 'reviewer', repository: 'github.com/acme/other', user: 'bo@acme.dev', tags: [] }).map((b) => b.name), []);
});

test("a team budget's line shows only the dimensions it limits", () => {
  const { budgets } = parseTeamConfig(TOML);
  const now = new Date('2026-03-05T10:00:00Z');
  const s = teamBudgetStatus('platform', budgets[1]!, { tokens: 4100, shell: 10, costUsd: 0.5 }, now);
  assert.equal(s.line, 'Team[platform/ana day]: tokens 4100/5000 (82%) | shell 10/10 (100%) → EXHAUSTED');
  assert.equal(s.periodStart, '2026-03-05T00:00:00.000Z');
  assert.equal(teamBudgetStatus('platform', budgets[0]!, { tokens: 0, shell: 0, costUsd: 12.345 }, now).line, 'Team[platform/reviewers month]: cost $12.35/$200.00 (6%) → OK');
});

test('a repository is named by its origin, without credentials or .git', () => {
  assert.equal(repositoryName('git@github.com:acme/app.git'), 'github.com/acme/app');
  assert.equal(repositoryName('https://token@github.com/acme/app.git'), 'github.com/acme/app');
  assert.equal(repositoryName('ssh://git@gitlab.example:2222/team/app/'), 'gitlab.example/team/app');
});
