/** Where the audit shows: the doctor's line and the dashboard's server rows, from latest.json. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { mcpCheck } from '../../../../src/core/doctor/mcp';
import { writeLatest } from '../../../../src/core/rules/mcp/cache';
import type { McpAudit } from '../../../../src/core/rules/mcp/types';
import { packageLabel } from '../../../../src/core/rules/policy/mcpTrust';
import { serverView } from '../../../../src/vscode/webviews/mcpSection';

const dirs: string[] = [];
after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const stateDir = (): string => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-mcpshow-'));
  dirs.push(d);
  return d;
};

function audit(name: string, over: Partial<McpAudit> = {}): McpAudit {
  return {
    server: { name, source: 'workspace', configPath: '/w/.vscode/mcp.json', command: 'npx', args: ['-y', `${name}@1.0.0`],
      package: { ecosystem: 'npm', name, spec: '1.0.0', version: '1.0.0', pinned: true } },
    status: 'audited', auditedVersion: `${name}@1.0.0`, inUseIsAudited: true, installScripts: {}, hosts: [], binaries: [], dependencyCount: 2,
    curation: { verdict: 'alive', weeklyDownloads: 900, lastPublish: '2026-11-20T08:00:00.000Z' }, auditedAt: '2026-12-02T00:00:00.000Z', ...over,
  };
}

describe('doctor: MCP servers', () => {
  it('says when there is no audit yet', () => {
    const dir = stateDir();
    assert.deepEqual(mcpCheck(dir), { name: 'MCP servers', state: 'warn',
      detail: `not audited yet in this workspace (${path.join(dir, 'mcp-audit', 'latest.json')} is missing): run Alfred: Audit MCP Servers or alfred audit` });
  });

  it('is ok when every server is audited, pinned and quiet, and names each worry otherwise', () => {
    const dir = stateDir();
    writeLatest(dir, { at: '2026-12-02T01:30:00.000Z', audits: [audit('clean')] });
    assert.deepEqual(mcpCheck(dir), { name: 'MCP servers', state: 'ok', detail: '1 configured, 1 audited (audit of 2026-12-02 01:30 UTC)' });
    writeLatest(dir, { at: '2026-12-02T01:30:00.000Z', audits: [
      audit('clean'),
      audit('hosty', { installScripts: { postinstall: 'node setup.js' }, hosts: [{ host: 'collect.example.com', files: ['index.js'] }] }),
      audit('old', { curation: { verdict: 'dead', weeklyDownloads: 2, lastPublish: '2023-01-01T00:00:00.000Z', deprecated: 'use new' } }),
      audit('moving', { inUseIsAudited: false }),
      audit('offline', { status: 'not-audited', reason: 'no answer' }),
      audit('py', { status: 'not-checked', reason: 'a PyPI package' }),
    ] });
    assert.deepEqual(mcpCheck(dir), { name: 'MCP servers', state: 'warn',
      detail: '6 configured, 4 audited; not audited: offline; not checked: py; dead: old; deprecated: old; not pinned to the audited version: moving; install scripts: hosty (postinstall) (audit of 2026-12-02 01:30 UTC)' });
  });
});

describe('dashboard: a server row', () => {
  it('carries the verdict, the pinning, the hosts and the install scripts', () => {
    assert.deepEqual(serverView(audit('hosty', {
      installScripts: { postinstall: 'node setup.js' }, hosts: [{ host: 'a.example', files: ['x.js'] }, { host: 'b.example', files: ['y.js'] }],
      binaries: ['bin/hosty'],
    })), {
      name: 'hosty', source: 'workspace', configPath: '/w/.vscode/mcp.json', launches: 'hosty@1.0.0', pinned: true, status: 'audited',
      auditedVersion: 'hosty@1.0.0', inUseIsAudited: true, curation: 'alive', weeklyDownloads: 900, lastPublish: '2026-11-20T08:00:00.000Z',
      hosts: ['a.example', 'b.example'], installScripts: ['postinstall: node setup.js'], binaries: ['bin/hosty'], dependencyCount: 2,
    });
    const remote = serverView(audit('remote', { status: 'not-checked', reason: 'a remote server', server: { name: 'remote', source: 'user', configPath: '/u/mcp.json', command: '', args: [], url: 'https://mcp.example/sse' } }));
    assert.deepEqual([remote.launches, remote.pinned, remote.status, remote.reason], ['https://mcp.example/sse', false, 'not-checked', 'a remote server']);
  });

  it('names the package as its launcher would', () => {
    assert.equal(packageLabel({ ecosystem: 'npm', name: '@s/p', spec: 'latest', pinned: false }), '@s/p@latest');
    assert.equal(packageLabel({ ecosystem: 'npm', name: './local', spec: './local', pinned: false }), './local');
    assert.equal(packageLabel({ ecosystem: 'docker', name: 'ghcr.io/o/img', spec: '1.2', pinned: false }), 'ghcr.io/o/img:1.2');
    const digest = `sha256:${'a'.repeat(64)}`;
    assert.equal(packageLabel({ ecosystem: 'docker', name: 'img', spec: digest, version: digest, pinned: true }), `img@${digest}`);
    assert.equal(packageLabel({ ecosystem: 'pypi', name: 'tool', spec: '1.0', version: '1.0', pinned: true }), 'tool@1.0');
  });
});
