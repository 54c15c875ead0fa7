/**
 * The audit against a real npm registry (verdaccio on loopback, test/support/registry.ts) with packages
 * published by `npm publish` in this file. What is simulated, because verdaccio cannot express it:
 * - weekly downloads: verdaccio has no downloads API, so a loopback server answers npm's
 *   `/downloads/point/last-week/<name>` with counts set here (passed as `downloadsApi`);
 * - age: publish times are real (now), so "old-mcp"'s stored `time` is rewritten to 2023 in
 *   verdaccio's storage, which it then serves as the package's metadata.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { auditServers, type AuditOptions } from '../../../../src/core/rules/mcp/audit';
import { factsPath, latestPath, readLatest } from '../../../../src/core/rules/mcp/cache';
import { packageOfLaunch } from '../../../../src/core/rules/mcp/launchers';
import type { McpServerEntry } from '../../../../src/core/rules/mcp/types';
import { startDownloadsServer, startTestRegistry, type DownloadsServer, type TestRegistry } from '../../../support/registry';

/** The audits' clock: today, as the packages are published today (a fixed date would make them old one day). */
const NOW = new Date();
let registry: TestRegistry;
let downloads: DownloadsServer;
let root: string;
let publishedAt: Record<string, string>;

function server(name: string, command: string, args: string[]): McpServerEntry {
  const pkg = packageOfLaunch(command, args);
  return { name, source: 'workspace', configPath: '/ws/.vscode/mcp.json', command, args, ...(pkg ? { package: pkg } : {}) };
}

function opts(extra: AuditOptions = {}): AuditOptions {
  return { registry: registry.url, downloadsApi: downloads.url, now: () => NOW, timeoutMs: 5000, ...extra };
}

/** Real fetch, recording each URL asked for. */
function recordingFetch(urls: string[]): typeof fetch {
  return (input, init) => {
    urls.push(String(input));
    return fetch(input, init);
  };
}

const HOSTS_INDEX = `'use strict';
const https = require('node:https');
// Reports usage: https://api.acme-telemetry.com/v1/collect
function send(body) {
  const req = https.request({ host: 'api.acme-telemetry.com', path: '/v1/collect', method: 'POST' });
  req.end(JSON.stringify(body));
  return req.socket && req.socket.remoteAddress;
}
module.exports = { send, docs: "https://docs.acme.dev/mcp" };
`;
const HOSTS_UPLOAD = `export const cdn = "uploads.acme-cdn.net";
export const api = \`https://api.acme-telemetry.com/v2/\${'upload'}\`;
export function target(opts) { return opts.config.host + ':' + opts.config.port; }
`;

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-mcp-audit-'));
  registry = await startTestRegistry();
  downloads = await startDownloadsServer({ 'clean-mcp': 2500, '@acme/hosts-mcp': 900, 'old-mcp': 7, 'deprecated-mcp': 5000 });
  await registry.publish(
    { name: 'clean-mcp', version: '1.0.0', files: { 'index.js': 'module.exports = (a, b) => a.value + b.value;\n' } },
    {
      name: '@acme/hosts-mcp', version: '2.0.0',
      scripts: { postinstall: 'node scripts/setup.js', prepare: 'tsc -p .', test: 'node test.js' },
      bin: { 'hosts-mcp': './bin/cli.js' },
      dependencies: { 'left-pad': '^1.3.0', 'right-pad': '^1.0.1', 'center-pad': '1.0.0' },
      files: {
        'index.js': HOSTS_INDEX,
        'lib/upload.mjs': HOSTS_UPLOAD,
        'types/index.d.ts': '/** https://types.acme.dev */ export declare function send(body: unknown): void;\n',
        'bin/cli.js': '#!/usr/bin/env node\nrequire("../index.js");\n',
        'scripts/setup.js': 'require("node:https").get("https://setup.acme-telemetry.com/install");\n',
        'prebuilds/linux-x64/addon.node': '\u007fELF\u0002\u0001\u0001\u0000native',
        'README.md': 'See https://readme-only.acme.dev (not a source).\n',
      },
    },
    { name: 'old-mcp', version: '0.1.0', files: { 'index.js': 'module.exports = 1;\n' } },
    { name: 'deprecated-mcp', version: '1.0.0', files: { 'index.js': 'module.exports = 2;\n' } },
    { name: 'tampered-mcp', version: '1.0.0', files: { 'index.js': 'module.exports = 3;\n' } },
  );
  await registry.deprecate('deprecated-mcp@1.0.0', 'no longer maintained, use clean-mcp');
  registry.setPublishTimes('old-mcp', { created: '2023-03-01T10:00:00.000Z', modified: '2023-03-01T10:00:00.000Z', '0.1.0': '2023-03-01T10:00:00.000Z' });
  // A tarball altered after publishing: its bytes no longer match the integrity the registry gives.
  const tgz = path.join(registry.storage, 'tampered-mcp', 'tampered-mcp-1.0.0.tgz');
  fs.writeFileSync(tgz, Buffer.concat([fs.readFileSync(tgz), Buffer.from('x')]));
  publishedAt = {};
  for (const name of ['clean-mcp', 'deprecated-mcp', '@acme/hosts-mcp']) {
    const doc = (await (await fetch(`${registry.url}${name.replace('/', '%2f')}`)).json()) as { time: Record<string, string> };
    publishedAt[name] = new Date(doc.time[name === '@acme/hosts-mcp' ? '2.0.0' : '1.0.0']!).toISOString();
  }
});

after(async () => {
  await registry?.close();
  await downloads?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

describe('auditServers against a real registry', () => {
  it('a clean pinned package: audited, nothing to report, alive, the version in use is the one audited', async () => {
    const [audit] = await auditServers([server('clean', 'npx', ['-y', 'clean-mcp@1.0.0'])], opts());
    assert.deepEqual(audit, {
      server: server('clean', 'npx', ['-y', 'clean-mcp@1.0.0']),
      status: 'audited',
      auditedVersion: 'clean-mcp@1.0.0',
      installScripts: {},
      hosts: [],
      binaries: [],
      dependencyCount: 0,
      curation: { verdict: 'alive', weeklyDownloads: 2500, lastPublish: publishedAt['clean-mcp'] },
      auditedAt: NOW.toISOString(),
      inUseIsAudited: true,
    });
  });

  it('a package with hosts in its sources and a postinstall script: hosts with their files, scripts, binaries and dependencies', async () => {
    const [audit] = await auditServers([server('acme', 'npx', ['@acme/hosts-mcp@2.0.0'])], opts());
    assert.equal(audit!.status, 'audited');
    assert.deepEqual(audit!.installScripts, { postinstall: 'node scripts/setup.js', prepare: 'tsc -p .' });
    assert.deepEqual(audit!.hosts, [
      { host: 'api.acme-telemetry.com', files: ['index.js', 'lib/upload.mjs'] },
      { host: 'docs.acme.dev', files: ['index.js'] },
      { host: 'setup.acme-telemetry.com', files: ['scripts/setup.js'] },
      { host: 'uploads.acme-cdn.net', files: ['lib/upload.mjs'] },
    ]);
    assert.deepEqual(audit!.binaries, ['hosts-mcp: bin/cli.js', 'prebuilds/linux-x64/addon.node']);
    assert.equal(audit!.dependencyCount, 3);
    assert.deepEqual(audit!.curation, { verdict: 'alive', weeklyDownloads: 900, lastPublish: publishedAt['@acme/hosts-mcp'] });
  });

  it('an old, rarely downloaded package is dead; a deprecated version is flagged with its message', async () => {
    const [old, dep] = await auditServers([server('old', 'npx', ['old-mcp@0.1.0']), server('dep', 'npx', ['deprecated-mcp@1.0.0'])], opts());
    assert.deepEqual(old!.curation, { verdict: 'dead', weeklyDownloads: 7, lastPublish: '2023-03-01T10:00:00.000Z' });
    assert.deepEqual(dep!.curation, { verdict: 'alive', weeklyDownloads: 5000, lastPublish: publishedAt['deprecated-mcp'], deprecated: 'no longer maintained, use clean-mcp' });
  });

  it('an unpinned spec is audited at the version it resolves to, but the version in use may move', async () => {
    const audits = await auditServers([server('a', 'npx', ['clean-mcp']), server('b', 'pnpm', ['dlx', 'clean-mcp@^1.0.0']), server('c', 'npx', ['clean-mcp@latest'])], opts());
    assert.deepEqual(audits.map((a) => [a.status, a.auditedVersion, a.inUseIsAudited]), [
      ['audited', 'clean-mcp@1.0.0', false], ['audited', 'clean-mcp@1.0.0', false], ['audited', 'clean-mcp@1.0.0', false],
    ]);
  });

  it('a version the registry does not have, and a tarball that does not match its integrity: not audited, with the reason', async () => {
    const [missing, tampered] = await auditServers([server('m', 'npx', ['clean-mcp@9.9.9']), server('t', 'npx', ['tampered-mcp@1.0.0'])], opts());
    assert.equal(missing!.status, 'not-audited');
    assert.equal(missing!.reason, `${registry.url} has no version of clean-mcp matching "9.9.9"`);
    assert.equal(tampered!.status, 'not-audited');
    assert.match(tampered!.reason!, /^tampered-mcp@1\.0\.0: the tarball does not match its integrity sha512-/);
    assert.equal(tampered!.inUseIsAudited, false);
  });

  it('servers that are not npm packages are not checked, and say what was not checked', async () => {
    const audits = await auditServers([
      server('py', 'uvx', ['mcp-server-fetch']),
      server('img', 'docker', ['run', '-i', 'mcp/fetch']),
      server('local', 'node', ['server.js']),
      { name: 'remote', source: 'user', configPath: '/u/mcp.json', command: '', args: [], url: 'https://mcp.example.com/mcp' },
    ], opts());
    assert.deepEqual(audits.map((a) => [a.status, a.reason]), [
      ['not-checked', 'a PyPI package (mcp-server-fetch): only npm packages are audited; its install scripts, hosts and curation are not checked'],
      ['not-checked', 'a Docker image (mcp/fetch): only npm packages are audited; its contents, hosts and curation are not checked'],
      ['not-checked', 'started by "node", not by a package launcher (npx, npm exec, pnpm dlx, yarn dlx, bunx, uvx, docker run): the program it runs is not checked'],
      ['not-checked', 'a remote server at https://mcp.example.com/mcp: nothing is installed, so there is no package to audit'],
    ]);
  });

  it('the registry npm is configured for is used when none is given; without a downloads API the downloads are unknown', async () => {
    const [audit] = await auditServers([server('clean', 'npx', ['clean-mcp@1.0.0'])], {
      npmrc: { env: { npm_config_registry: registry.url }, home: path.join(root, 'no-home') }, now: () => NOW,
    });
    assert.equal(audit!.status, 'audited');
    assert.equal(audit!.reason, `weekly downloads unknown: ${registry.url} has no downloads API that Alfred knows of`);
    assert.deepEqual(audit!.curation, { verdict: 'alive', lastPublish: publishedAt['clean-mcp'] });
  });
});

describe('cache and latest results', () => {
  it('a version is downloaded once: the second audit reads the cache by name@version, and latest.json holds the results', async () => {
    const stateDir = path.join(root, 'state-cache');
    const urls: string[] = [];
    const entries = [server('acme', 'npx', ['@acme/hosts-mcp@2.0.0']), server('clean', 'npx', ['clean-mcp@1.0.0'])];
    const first = await auditServers(entries, opts({ stateDir, fetch: recordingFetch(urls) }));
    assert.equal(urls.filter((u) => u.endsWith('.tgz')).length, 2);
    assert.ok(fs.existsSync(factsPath(stateDir, '@acme/hosts-mcp', '2.0.0')));
    assert.equal(path.basename(factsPath(stateDir, 'clean-mcp', '1.0.0')), 'clean-mcp@1.0.0.json');
    assert.equal(path.dirname(factsPath(stateDir, 'clean-mcp', '1.0.0')), path.join(stateDir, 'mcp-audit'));

    urls.length = 0;
    const later = new Date(NOW.getTime() + 3_600_000);
    const second = await auditServers(entries, opts({ stateDir, fetch: recordingFetch(urls), now: () => later }));
    assert.deepEqual(urls.filter((u) => u.endsWith('.tgz')), []);
    assert.deepEqual(second.map((a) => ({ ...a })), first);
    assert.deepEqual(readLatest(stateDir), { at: later.toISOString(), audits: second });
    assert.equal(latestPath(stateDir), path.join(stateDir, 'mcp-audit', 'latest.json'));
  });

  it('one package named by several servers is fetched once per run', async () => {
    const urls: string[] = [];
    await auditServers([server('a', 'npx', ['clean-mcp@1.0.0']), server('b', 'npx', ['-y', 'clean-mcp@1.0.0'])], opts({ fetch: recordingFetch(urls) }));
    assert.deepEqual(urls.filter((u) => !u.includes('/downloads/')), [`${registry.url}clean-mcp`, `${registry.url}clean-mcp/-/clean-mcp-1.0.0.tgz`]);
  });

  it('specs that differ but resolve to one version: its metadata and its tarball are fetched once, audits in parallel', async () => {
    for (const stateDir of [undefined, path.join(root, 'state-specs')]) {
      const urls: string[] = [];
      const audits = await auditServers([server('a', 'npx', ['clean-mcp@1.0.0']), server('b', 'npx', ['clean-mcp@^1.0.0']), server('c', 'npx', ['clean-mcp'])],
        opts({ fetch: recordingFetch(urls), ...(stateDir ? { stateDir } : {}) }));
      assert.deepEqual(audits.map((a) => a.auditedVersion), ['clean-mcp@1.0.0', 'clean-mcp@1.0.0', 'clean-mcp@1.0.0']);
      assert.deepEqual(urls.filter((u) => !u.includes('/downloads/')), [`${registry.url}clean-mcp`, `${registry.url}clean-mcp/-/clean-mcp-1.0.0.tgz`], String(stateDir));
    }
  });

  it('bounded parallelism: with a bound of 1, one package\'s requests end before the next package\'s begin', async () => {
    const events: string[] = [];
    const tracing: typeof fetch = async (input, init) => {
      const pkg = String(input).replace(/^.*\/(clean-mcp|old-mcp|deprecated-mcp).*$/, '$1');
      events.push(`start ${pkg}`);
      try {
        return await fetch(input, init);
      } finally {
        events.push(`end ${pkg}`);
      }
    };
    await auditServers([server('a', 'npx', ['clean-mcp@1.0.0']), server('b', 'npx', ['old-mcp@0.1.0']), server('c', 'npx', ['deprecated-mcp@1.0.0'])],
      opts({ fetch: tracing, concurrency: 1 }));
    assert.equal(events.filter((e) => e.startsWith('start')).length, 9);
    // Every package's starts and ends form one unbroken run: no other package's request was in flight meanwhile.
    const runs = events.map((e) => e.split(' ')[1]).filter((pkg, i, all) => i === 0 || all[i - 1] !== pkg);
    assert.deepEqual(runs, ['clean-mcp', 'old-mcp', 'deprecated-mcp']);
  });
});

describe('a registry that does not answer', () => {
  it('refused connection: not audited with the reason, no throw; a pinned version in the cache is still reported from it', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = `http://127.0.0.1:${port}/`;

    const [audit] = await auditServers([server('clean', 'npx', ['clean-mcp@1.0.0'])], opts({ registry: down }));
    assert.equal(audit!.status, 'not-audited');
    assert.equal(audit!.reason, `the registry did not answer: ${down}clean-mcp: ECONNREFUSED`);
    assert.equal(audit!.inUseIsAudited, false);
    assert.deepEqual(audit!.curation, { verdict: 'unknown' });

    const stateDir = path.join(root, 'state-down');
    await auditServers([server('clean', 'npx', ['clean-mcp@1.0.0'])], opts({ stateDir }));
    const [cached] = await auditServers([server('clean', 'npx', ['clean-mcp@1.0.0']), server('u', 'npx', ['clean-mcp'])], opts({ stateDir, registry: down }));
    assert.equal(cached!.status, 'audited');
    assert.equal(cached!.reason, `the registry did not answer (${down}clean-mcp: ECONNREFUSED); results of the audit of ${NOW.toISOString()}`);
    assert.deepEqual(cached!.curation, { verdict: 'alive', weeklyDownloads: 2500, lastPublish: publishedAt['clean-mcp'] });
    assert.equal(cached!.inUseIsAudited, true);
    assert.equal(readLatest(stateDir)!.audits[1]!.status, 'not-audited');
  });

  it('a registry that answers with an error is not said to be silent: no such package (404), a server error, a page that is no metadata', async () => {
    const [ghost, scoped] = await auditServers([server('ghost', 'npx', ['-y', 'no-such-mcp@1.0.0']), server('scoped', 'npx', ['@nobody/ghost'])], opts());
    assert.deepEqual([ghost!.status, ghost!.reason], ['not-audited', `the registry has no package no-such-mcp: ${registry.url}no-such-mcp: HTTP 404 (not found)`]);
    assert.deepEqual([scoped!.status, scoped!.reason], ['not-audited', `the registry has no package @nobody/ghost: ${registry.url}@nobody%2fghost: HTTP 404 (not found)`]);
    const broken = http.createServer((req, res) => {
      if (req.url === '/html-mcp') res.end('<html>a login page</html>');
      else { res.statusCode = 500; res.end('oops'); }
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(broken.address() as AddressInfo).port}/`;
    try {
      const [failing, html] = await auditServers([server('f', 'npx', ['clean-mcp@1.0.0']), server('h', 'npx', ['html-mcp@1.0.0'])], opts({ registry: url }));
      assert.deepEqual([failing!.status, failing!.reason], ['not-audited', `the registry answered with an error: ${url}clean-mcp: HTTP 500`]);
      assert.equal(html!.status, 'not-audited');
      assert.match(html!.reason!, new RegExp(`^the registry answered with an error: ${url}html-mcp: not a package's metadata \\(`));
    } finally {
      broken.closeAllConnections();
      await new Promise<void>((resolve) => broken.close(() => resolve()));
    }
  });

  it('a registry that accepts and never answers: not audited after the timeout', async () => {
    const hanging = http.createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`;
    try {
      const started = Date.now();
      const [audit] = await auditServers([server('clean', 'npx', ['clean-mcp@1.0.0'])], opts({ registry: url, timeoutMs: 300 }));
      assert.equal(audit!.status, 'not-audited');
      assert.equal(audit!.reason, `the registry did not answer: ${url}clean-mcp: no answer within 300 ms`);
      assert.ok(Date.now() - started < 4000);
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });
});

describe('alfred audit', () => {
  const saved: Record<string, string | undefined> = {};
  const KEYS = ['ALFRED_HOME', 'HOME', 'ALFRED_VSCODE_USER_DIR', 'npm_config_registry', 'npm_config_userconfig'];
  let ws: string;
  let userDir: string;
  before(() => {
    for (const k of KEYS) saved[k] = process.env[k];
    const base = path.join(root, 'cli');
    ws = path.join(base, 'ws');
    userDir = path.join(base, 'User');
    fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
    fs.mkdirSync(userDir, { recursive: true });
    fs.mkdirSync(path.join(base, 'home'));
    Object.assign(process.env, { ALFRED_HOME: path.join(base, 'alfred-home'), HOME: path.join(base, 'home'), ALFRED_VSCODE_USER_DIR: userDir,
      npm_config_registry: registry.url, npm_config_userconfig: path.join(base, 'no-npmrc') });
    fs.writeFileSync(path.join(ws, '.vscode', 'mcp.json'), `{
      // pinned, and not
      "servers": {
        "clean": { "command": "npx", "args": ["-y", "clean-mcp@1.0.0"] },
        "acme": { "command": "npx", "args": ["@acme/hosts-mcp"] },
        "fetch": { "command": "uvx", "args": ["mcp-server-fetch"] },
      },
    }`);
    fs.writeFileSync(path.join(userDir, 'mcp.json'), '{ "servers": { "old": { "command": "npx", "args": ["old-mcp@0.1.0"] }, "bad": { "args": [] } } }');
  });
  after(() => {
    for (const k of KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  async function alfred(argv: string[]): Promise<{ code: number; out: string }> {
    const { main } = await import('../../../../src/cli/main');
    const out: string[] = [];
    const code = await main(argv, { out: (t) => void out.push(t), err: (t) => void out.push(`ERR ${t}`), readStdin: async () => '' });
    return { code, out: out.join('\n') };
  }

  it('prints each server: name, source, package@version, pinned, verdict, hosts, install scripts; problems; a count', async () => {
    const { code, out } = await alfred(['audit', '--workspace', ws]);
    const day = (name: string) => publishedAt[name]!.slice(0, 10);
    const note = `  note: weekly downloads unknown: ${registry.url} has no downloads API that Alfred knows of`;
    assert.equal(code, 0);
    assert.equal(out, [
      'clean (workspace: .vscode/mcp.json)',
      '  package: clean-mcp@1.0.0 (pinned)',
      note,
      `  verdict: alive (weekly downloads unknown, last publish ${day('clean-mcp')})`,
      '  hosts: none',
      '  install scripts: none',
      '  binaries: none · dependencies: 0',
      'acme (workspace: .vscode/mcp.json)',
      '  package: @acme/hosts-mcp@latest (not pinned; audited @acme/hosts-mcp@2.0.0, which may move)',
      note,
      `  verdict: alive (weekly downloads unknown, last publish ${day('@acme/hosts-mcp')})`,
      '  hosts: api.acme-telemetry.com (index.js, lib/upload.mjs); docs.acme.dev (index.js); setup.acme-telemetry.com (scripts/setup.js); uploads.acme-cdn.net (lib/upload.mjs)',
      '  install scripts: postinstall: node scripts/setup.js; prepare: tsc -p . (runs only for git or local installs)',
      '  binaries: hosts-mcp: bin/cli.js; prebuilds/linux-x64/addon.node · dependencies: 3',
      'fetch (workspace: .vscode/mcp.json)',
      '  package: mcp-server-fetch@latest (not pinned)',
      '  not checked: a PyPI package (mcp-server-fetch): only npm packages are audited; its install scripts, hosts and curation are not checked',
      `old (user: ${path.join(userDir, 'mcp.json')})`,
      '  package: old-mcp@0.1.0 (pinned)',
      note,
      '  verdict: decaying (weekly downloads unknown, last publish 2023-03-01)',
      '  hosts: none',
      '  install scripts: none',
      '  binaries: none · dependencies: 0',
      `problem: ${path.join(userDir, 'mcp.json')}: servers.bad.command: expected a string (the program that starts the server)`,
      '4 servers: 3 audited, 0 not audited, 1 not checked',
    ].join('\n'));
  });

  it('--json prints the audits and the problems, and latest.json holds the same audits', async () => {
    const { code, out } = await alfred(['audit', '--json', '--workspace', ws]);
    assert.equal(code, 0);
    const parsed = JSON.parse(out) as { audits: { server: { name: string }; status: string; inUseIsAudited: boolean }[]; problems: unknown[] };
    assert.deepEqual(parsed.audits.map((a) => [a.server.name, a.status, a.inUseIsAudited]), [
      ['clean', 'audited', true], ['acme', 'audited', false], ['fetch', 'not-checked', false], ['old', 'audited', true],
    ]);
    assert.equal(parsed.problems.length, 1);
    const { stateDir } = await import('../../../../src/core/base/state/paths');
    assert.deepEqual(readLatest(stateDir(ws))!.audits, parsed.audits);
  });

  it('reads alfred.mcpAudit.* from the user\'s settings.json, as the editor does, and not from the workspace\'s', async () => {
    const userSettings = path.join(userDir, 'settings.json');
    const wsSettings = path.join(ws, '.vscode', 'settings.json');
    fs.writeFileSync(userSettings, `{
      // a downloads API for a registry npm's does not cover, and a stricter threshold
      "alfred.mcpAudit.downloadsApi": "${downloads.url}",
      "alfred.mcpAudit.minWeeklyDownloads": 1000,
      "alfred.mcpAudit.maxDaysSincePublish": "ninety",
    }`);
    fs.writeFileSync(wsSettings, '{ "alfred.mcpAudit.minWeeklyDownloads": 0, "alfred.mcpAudit.maxDaysSincePublish": 100000 }');
    try {
      const { code, out } = await alfred(['audit', '--json', '--workspace', ws]);
      assert.equal(code, 0);
      const parsed = JSON.parse(out) as { audits: { server: { name: string }; curation: { verdict: string; weeklyDownloads?: number } }[] };
      assert.deepEqual(parsed.audits.map((a) => [a.server.name, a.curation.verdict, a.curation.weeklyDownloads]), [
        // 900 < 1000: decaying; old-mcp (7 a week, last published in 2023, 90 days kept for the invalid value): dead.
        ['clean', 'alive', 2500], ['acme', 'decaying', 900], ['fetch', 'unknown', undefined], ['old', 'dead', 7],
      ]);
    } finally {
      fs.rmSync(userSettings);
      fs.rmSync(wsSettings);
    }
  });
});
