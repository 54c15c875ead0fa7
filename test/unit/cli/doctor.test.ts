/** `alfred doctor`: the providers the editor published, probed from the command line with their `$VAR` keys, and Alfred's health; no model needed. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PROVIDERS_FILE, publishJson } from '../../../src/core/base/state/published';
import { stateDir } from '../../../src/core/base/state/paths';
import { startFakeModelServer, type FakeModelServer } from '../../support/fakeModelServer';
import { isolateEnv, newWorkspace, run } from './helpers';

const env = isolateEnv();
const KEY = 'sk-cli-0123456789abcdef';

describe('alfred doctor', () => {
  let server: FakeModelServer;
  before(async () => { server = await startFakeModelServer({ apiKey: KEY }); });
  after(async () => { await server.close(); delete process.env.ALFRED_CLI_TEST_KEY; });

  it('a reachable provider with its key, one whose variable is unset, one in secret storage, one whose settings are refused: each named; exit 1', async () => {
    const folder = newWorkspace(env.root);
    process.env.ALFRED_CLI_TEST_KEY = KEY;
    publishJson(stateDir(folder), PROVIDERS_FILE, [
      { name: 'up', protocol: 'openai', baseUrl: `${server.url}/v1`, key: '$ALFRED_CLI_TEST_KEY', models: [{ id: 'fake-model' }] },
      { name: 'nokey', protocol: 'openai', baseUrl: `${server.url}/v1`, key: '$ALFRED_CLI_UNSET_KEY' },
      { name: 'vault', protocol: 'anthropic', baseUrl: 'https://api.anthropic.com', key: 'secret:ANTHROPIC' },
      { name: 'literal', protocol: 'openai', baseUrl: 'https://api.openai.com/v1', key: 'sk-live-abcdefghijklmnop' },
    ]);
    const r = await run(['doctor', '--json', '--workspace', folder]);
    assert.equal(r.code, 1, r.stderr);
    const report = JSON.parse(r.stdout) as { providers: Array<{ name: string; state: string; detail: string }>; alfred: Array<{ name: string; state: string }> };
    const byName = Object.fromEntries(report.providers.map((c) => [c.name, c]));
    assert.equal(byName.up?.state, 'ok');
    assert.equal(byName.up?.detail, `${server.url}/v1: reachable, 1 configured`);
    assert.equal(byName.nokey?.state, 'fail');
    assert.match(byName.nokey!.detail, /ALFRED_CLI_UNSET_KEY/);
    assert.equal(byName.vault?.state, 'fail');
    assert.match(byName.vault!.detail, /secret:ANTHROPIC is kept in the editor's secret storage/);
    const refused = report.providers.find((c) => c.name.startsWith('alfred.providers'));
    assert.ok(refused && refused.state === 'fail', JSON.stringify(report.providers));
    assert.equal(r.stdout.includes('sk-live-abcdefghijklmnop'), false, 'the literal key is not repeated');
    assert.equal(r.stdout.includes(KEY), false, 'nor the resolved one');
    // The agents installed on this machine (`client:` lines) vary with it, as the governance rows do.
    assert.deepEqual(report.alfred.map((c) => c.name).filter((n) => !n.startsWith('governance') && !n.startsWith('client')), ['roles', 'hook server', 'sandbox', 'VS Code sandbox', 'state folder', 'ledger', 'MCP servers']);
  });
});
