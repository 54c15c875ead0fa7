/**
 * Dashboard sections read from the workspace's files, in one workbench.
 *
 * MCP servers as a user meets them (issue 16): a workspace whose .vscode/mcp.json names packages of a
 * real npm registry on loopback (verdaccio, test/support/registry.ts, named by the workspace's .npmrc)
 * opens, Alfred audits them, and the dashboard's "MCP servers" section shows each verdict. Simulated,
 * as verdaccio cannot express them: weekly downloads (a loopback downloads API, named by the user
 * setting alfred.mcpAudit.downloadsApi) and an old package's age (its stored publish times rewritten).
 *
 * Trials: a suite's outcomes (.alfred/trials.toml and the outcomes file, as `alfred trial run` writes
 * them) read in the Trials section as each condition's acceptance and the one-component comparison
 * with its intervals and conclusions.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { startDownloadsServer, startTestRegistry, type DownloadsServer, type TestRegistry } from '../support/registry';
import { dashboardFrame, startWorkbench, WORKBENCH_START_LIMIT, withScreenshot, type Workbench } from './support/workbench';

let registry: TestRegistry;
let downloads: DownloadsServer;
let wb: Workbench;
let dashboard: Frame;

/** A trial suite and its outcomes, as `alfred trial run` writes them: the handoff condition accepts 3 of 3, control 2 of 3. */
const trialBudget = { tokens: 1000, seconds: 60, usd: 0.5 };
const trialLine = (condition: string, trial: number, handoff: string, dup: number, status = 'accepted') => JSON.stringify({
  kind: 'ended', key: `${condition}/fix/${trial}`, condition, task: 'fix', trial, instance: 'inst', suiteHash: 'h1',
  fingerprint: { id: handoff, components: { model: 'm', handoff } }, status, escapedDefect: null, duplicatedToolActions: dup,
  tokens: 100, costUsd: 0.01, wallMs: 1000, budget: trialBudget, startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:01.000Z',
});
const TRIAL_FILES = {
  '.alfred/trials.toml': 'name = "demo"\ntrials = 3\n[[task]]\nid = "fix"\nprompt = "p"\nbudget = { tokens = 1000, seconds = 60, usd = 0.5 }\n[[condition]]\nname = "control"\ncontrol = true\n[[condition]]\nname = "handoff"\n',
  '.alfred/trials/demo/outcomes.jsonl': [1, 2, 3].flatMap((i) => [trialLine('control', i, 'off', 2, i === 3 ? 'rejected' : 'accepted'), trialLine('handoff', i, 'on', 0)]).join('\n') + '\n',
};

const MCP_JSON = {
  servers: {
    clean: { command: 'npx', args: ['-y', 'clean-mcp@1.0.0'] },
    telemetry: { command: 'npx', args: ['-y', 'hosts-mcp@2.0.0'] },
    abandoned: { command: 'npx', args: ['old-mcp@0.1.0'] },
    sunset: { command: 'npx', args: ['-y', 'deprecated-mcp'] },
    remote: { type: 'http', url: 'https://mcp.example.invalid/mcp' },
  },
};

before(async () => {
  registry = await startTestRegistry();
  downloads = await startDownloadsServer({ 'clean-mcp': 2500, 'hosts-mcp': 900, 'old-mcp': 7, 'deprecated-mcp': 5000 });
  await registry.publish(
    { name: 'clean-mcp', version: '1.0.0', files: { 'index.js': 'module.exports = (a, b) => a + b;\n' } },
    {
      name: 'hosts-mcp', version: '2.0.0', scripts: { postinstall: 'node setup.js' },
      files: { 'index.js': 'const u = "https://api.acme-telemetry.com/v1/collect";\nmodule.exports = u;\n', 'setup.js': 'console.log("setup");\n' },
    },
    { name: 'old-mcp', version: '0.1.0', files: { 'index.js': 'module.exports = 1;\n' } },
    { name: 'deprecated-mcp', version: '1.0.0', files: { 'index.js': 'module.exports = 2;\n' } },
  );
  await registry.deprecate('deprecated-mcp@1.0.0', 'use clean-mcp instead');
  registry.setPublishTimes('old-mcp', { '0.1.0': '2023-01-05T00:00:00.000Z', created: '2023-01-05T00:00:00.000Z', modified: '2023-01-05T00:00:00.000Z' });
  wb = await startWorkbench({
    settings: { 'alfred.mcpAudit.downloadsApi': downloads.url },
    workspaceFiles: { '.npmrc': `registry=${registry.url}\n`, '.vscode/mcp.json': JSON.stringify(MCP_JSON, null, 2), ...TRIAL_FILES },
  });
  await wb.page.locator('.activitybar [aria-label="Alfred"]').first().click();
  dashboard = await dashboardFrame(wb.page);
  await dashboard.getByText('Context tokens').waitFor();
}, { timeout: WORKBENCH_START_LIMIT });
after(async () => {
  await wb?.close();
  await downloads?.close();
  await registry?.close();
});

const row = (name: string) => dashboard.locator(`[data-server="${name}"]`);

test('a workspace whose mcp.json names packages shows each server\'s verdict in the dashboard', async () => {
  await withScreenshot(wb.page, 'dashboard-mcp-servers', async () => {
    await row('remote').waitFor({ timeout: 90_000 });
    const attrs = async (name: string) => {
      const r = row(name);
      return [await r.getAttribute('data-status'), await r.getAttribute('data-curation'), await r.getAttribute('data-pinned')];
    };
    assert.deepEqual(await attrs('clean'), ['audited', 'alive', 'true']);
    assert.deepEqual(await attrs('telemetry'), ['audited', 'alive', 'true']);
    assert.deepEqual(await attrs('abandoned'), ['audited', 'dead', 'true']);
    assert.deepEqual(await attrs('sunset'), ['audited', 'alive', 'false']);
    assert.deepEqual(await attrs('remote'), ['not-checked', 'unknown', 'false']);
    // What each row says, as the user reads it.
    assert.equal((await row('telemetry').locator('[data-field="hosts"]').innerText()).trim(), 'hosts: api.acme-telemetry.com');
    assert.equal((await row('telemetry').locator('[data-field="scripts"]').innerText()).trim(), 'install scripts: postinstall: node setup.js');
    assert.equal((await row('clean').locator('[data-field="scripts"]').innerText()).trim(), 'no install scripts');
    assert.equal((await row('clean').locator('[data-field="hosts"]').innerText()).trim(), 'no hosts referenced');
    assert.match(await row('abandoned').innerText(), /7 downloads a week · last published 2023-01-05/);
    assert.match(await row('sunset').innerText(), /deprecated: use clean-mcp instead/);
    assert.match(await row('sunset').innerText(), /version in use may differ from the audited deprecated-mcp@1\.0\.0/);
    assert.match(await row('sunset').innerText(), /deprecated-mcp@latest/);
    assert.match(await row('remote').innerText(), /a remote server at https:\/\/mcp\.example\.invalid\/mcp/);
    assert.match(await dashboard.locator('#mcp-at').innerText(), /^Audited \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(UTC\)$/);
  });
});

test('the Trials section shows the suite and its comparison', async () => {
  const suite = dashboard.locator('alfred-trial-suites [data-suite="demo"]');
  await suite.waitFor({ timeout: 30_000 });
  await suite.scrollIntoViewIfNeeded();
  const text = (await suite.innerText()).replace(/\s+/g, ' ');
  assert.match(text, /control: accepted 2 of 3 \(control\)/);
  assert.match(text, /Component changed: handoff \(off → on\)/);
  // The sentences alfred compare writes: 2 of 3 against 3 of 3 cannot tell, and three trials a side are few.
  assert.match(text, /Acceptance rate: the interval includes no change \(\+33\.3 points, 95% interval -[0-9.]+ to \+[0-9.]+\); these trials cannot tell whether it helps\./);
  assert.match(text, /Note: With 3 measured trials on the smaller side, the bootstrap intervals are too narrow/);
  const dup = (await dashboard.locator('alfred-trial-suites li[data-metric="duplicatedToolActions"]').innerText()).replace(/\s+/g, ' ');
  assert.match(dup, /^Duplicated tool actions −\u20602\.00 better/);
});
