/** A team ledger URL Alfred refuses (a literal password) is said as such by `alfred team` and `alfred budget`, as the hook and doctor say it. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { isolateEnv, newWorkspace, run } from './helpers';

const env = isolateEnv();

describe('a team ledger URL with a literal password', () => {
  process.env.ALFRED_LEDGER_URL = 'postgres://alfred:hunter2@127.0.0.1:5432/team';
  after(() => { delete process.env.ALFRED_LEDGER_URL; });

  it('alfred team says the URL is refused and why, not "set ALFRED_LEDGER_URL"; the password never shows', async () => {
    const folder = newWorkspace(env.root);
    const r = await run(['team', '--workspace', folder]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^alfred team: the team ledger is misconfigured: The team ledger URL holds a literal password, which Alfred refuses/);
    assert.doesNotMatch(r.stderr, /set ALFRED_LEDGER_URL|hunter2/);
  });

  it('alfred budget keeps its line and says why there is no team line', async () => {
    const folder = newWorkspace(env.root);
    const r = await run(['budget', '--workspace', folder]);
    assert.equal(r.code, 0);
    assert.match(r.out[0]!, /^Budget\[coder\]: /);
    assert.match(r.out[1]!, /^Team budgets: the team ledger is misconfigured: The team ledger URL holds a literal password/);
    assert.doesNotMatch(r.stdout, /hunter2/);
    const json = JSON.parse((await run(['budget', '--json', '--workspace', folder])).stdout) as { team?: { error?: string } };
    assert.match(json.team?.error ?? '', /literal password/);
  });
});
