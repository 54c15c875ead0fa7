/**
 * MCP servers in the editor (issue 16): an mcp.json change re-runs the audit, the dashboard lists each
 * server with its verdict, the doctor says it, and a role's [mcp] rules reach @alfred's tool calls;
 * the opt-in project memory reaches @alfred's prompt and its append tool. No registry here: the
 * workspace's .npmrc points at a loopback port nobody listens on (the end-to-end test has a real one).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { mcpCheck } from '../../../src/core/doctor/mcp';
import { readLatest } from '../../../src/core/rules/mcp/cache';
import { dashboardState } from '../../../src/vscode/webviews/dashboardState';
import { ask, messageText, requests, resetModel, script } from '../chat';
import { alfred, freshSession, invoke, refusal, textOf, until, workspaceFile, writeRole } from '../helpers';

async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

const MCP_JSON = {
  servers: {
    offline: { command: 'npx', args: ['-y', 'offline-mcp@1.0.0'] },
    remote: { type: 'http', url: 'https://mcp.example.invalid/mcp' },
    pyserver: { command: 'uvx', args: ['some-mcp-server'] },
  },
};

const created: string[] = [];
function write(rel: string, text: string): void {
  const file = workspaceFile(rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (!fs.existsSync(file)) created.push(file);
  fs.writeFileSync(file, text);
}

suite('MCP servers and project memory', () => {
  suiteSetup(async () => {
    write('.npmrc', `registry=http://127.0.0.1:${await closedPort()}/\n`);
  });
  suiteTeardown(async () => {
    for (const file of created.reverse()) fs.rmSync(file, { recursive: true, force: true });
    const api = await alfred();
    api.harness()?.reloadRoles();
  });
  setup(() => resetModel());

  test('MCP: writing .vscode/mcp.json re-runs the audit; the dashboard shows each server\'s verdict and the doctor names them', async function () {
    // File watchers of a loaded machine can take their time.
    this.timeout(150_000);
    const h = await freshSession('coder');
    write('.vscode/mcp.json', JSON.stringify(MCP_JSON, null, 2));
    const latest = await until('the audit of the three servers', () => {
      const l = readLatest(h.stateDir);
      return l && l.audits.length === 3 ? l : undefined;
    }, 60_000);
    assert.deepEqual(latest.audits.map((a) => a.server.name).sort(), ['offline', 'pyserver', 'remote']);
    const mcp = dashboardState(h, vscode.workspace.isTrusted).mcp;
    assert.ok(mcp, 'an MCP section');
    const rows = Object.fromEntries(mcp.servers.map((s) => [s.name, s]));
    assert.deepEqual([rows.offline!.status, rows.offline!.pinned, rows.offline!.launches], ['not-audited', true, 'offline-mcp@1.0.0']);
    assert.match(rows.offline!.reason ?? '', /127\.0\.0\.1/);
    assert.deepEqual([rows.remote!.status, rows.remote!.launches], ['not-checked', 'https://mcp.example.invalid/mcp']);
    assert.match(rows.pyserver!.reason ?? '', /PyPI package \(some-mcp-server\)/);
    const doctor = mcpCheck(h.stateDir);
    assert.equal(doctor.state, 'warn');
    assert.match(doctor.detail, /^3 configured, 0 audited; not audited: offline; not checked: (remote, pyserver|pyserver, remote)/);
    // Removing a server re-runs it too.
    write('.vscode/mcp.json', JSON.stringify({ servers: { remote: MCP_JSON.servers.remote } }));
    await until('the audit of one server', () => readLatest(h.stateDir)?.audits.length === 1, 60_000);
    // The command runs it on demand and answers with what it found; the user was told of each unaudited server once.
    const run = await vscode.commands.executeCommand<{ audits: unknown[]; told: string[] }>('alfred.auditMcpServers');
    assert.equal(run?.audits.length, 1);
    assert.deepEqual(run?.told, [], 'remote was told about when it first appeared');
    write('.vscode/mcp.json', JSON.stringify({ servers: { remote: MCP_JSON.servers.remote, newcomer: { command: 'npx', args: ['newcomer-mcp'] } } }));
    const again = await vscode.commands.executeCommand<{ audits: unknown[]; told: string[]; notice?: string }>('alfred.auditMcpServers');
    assert.deepEqual(again?.told, ['newcomer']);
    // The first-time warning's words: the server, and why the gate counts it as unaudited.
    assert.match(again?.notice ?? '', /^MCP server newcomer is not audited: its package could not be audited \(the registry did not answer: .*127\.0\.0\.1.*\)\.$/);
  });

  test('MCP: a change to the user\'s mcp.json, or to the mcp settings, re-runs the audit; each profile\'s mcp.json is listed with its profile', async function () {
    this.timeout(150_000);
    const h = await freshSession('coder');
    // The editor's own user folder (code-server's --user-data-dir: scripts/lib/sandbox.mjs puts it beside the workspace),
    // which Alfred finds from its global storage.
    const userDir = path.resolve(workspaceFile('.'), '..', 'user-data', 'User');
    assert.ok(fs.existsSync(path.join(userDir, 'globalStorage')), `${userDir} is the editor's user folder`);
    const names = () => (readLatest(h.stateDir)?.audits ?? []).map((a) => `${a.server.name}:${a.server.source}${a.server.origin ? `:${a.server.origin}` : ''}`);
    const userMcp = path.join(userDir, 'mcp.json');
    const profileMcp = path.join(userDir, 'profiles', 'alfredtest', 'mcp.json');
    const config = vscode.workspace.getConfiguration('mcp');
    try {
      fs.writeFileSync(userMcp, JSON.stringify({ servers: { usermcp: { command: 'npx', args: ['user-mcp@1.0.0'] } } }));
      await until('the user\'s server in the audit', () => names().includes('usermcp:user'), 60_000);
      fs.rmSync(userMcp);
      await until('the user\'s server gone', () => !names().includes('usermcp:user'), 60_000);
      // VS Code keeps the user's `mcp` settings in the user's mcp.json (older releases: settings.json), so the
      // server is listed from there, once, whichever way the settings change reached Alfred.
      await config.update('servers', { settingmcp: { command: 'npx', args: ['setting-mcp@2.0.0'] } }, vscode.ConfigurationTarget.Global);
      await until('the setting\'s server in the audit', () => names().some((n) => n === 'settingmcp:user' || n === 'settingmcp:setting'), 60_000);
      assert.equal(names().filter((n) => n.startsWith('settingmcp:')).length, 1, names().join(', '));
      await config.update('servers', undefined, vscode.ConfigurationTarget.Global);
      await until('the setting\'s server gone', () => !names().some((n) => n.startsWith('settingmcp:')), 60_000);
      fs.mkdirSync(path.dirname(profileMcp), { recursive: true });
      fs.writeFileSync(profileMcp, JSON.stringify({ servers: { profilemcp: { command: 'npx', args: ['profile-mcp'] } } }));
      await vscode.commands.executeCommand('alfred.auditMcpServers');
      assert.ok(names().includes('profilemcp:user:profile alfredtest'), names().join(', '));
    } finally {
      fs.rmSync(userMcp, { force: true });
      fs.rmSync(path.dirname(profileMcp), { recursive: true, force: true });
      await config.update('servers', undefined, vscode.ConfigurationTarget.Global).then(undefined, () => undefined);
    }
  });

  test('MCP: [mcp] unaudited = "ask" asks before @alfred runs an unaudited server\'s tool; "deny" refuses it', async () => {
    const api = await alfred();
    write('.vscode/mcp.json', JSON.stringify(MCP_JSON, null, 2));
    await vscode.commands.executeCommand('alfred.auditMcpServers');
    created.push(writeRole('mcpask', '[role]\nname = "mcpask"\ninherits = "coder"\n[mcp]\nunaudited = "ask"\n'));
    created.push(writeRole('mcpdeny', '[role]\nname = "mcpdeny"\ninherits = "coder"\n[mcp]\nunaudited = "deny"\n'));
    await until('the two roles', () => api.harness()?.roles().roles.get('mcpdeny') && api.harness()?.roles().roles.get('mcpask'));
    const asked: string[] = [];
    const original = api.prompts.confirm;
    api.prompts.confirm = async (message) => { asked.push(message); return false; };
    try {
      await freshSession('mcpask');
      await script([{ toolCalls: [{ name: 'mcp_offline_fetch', input: { url: 'x' }, callId: 'm1' }] }, { text: 'Not run.' }]);
      await ask('Fetch it');
      assert.equal(asked.length, 1);
      assert.match(asked[0]!, /^Tool mcp_offline_fetch belongs to MCP server "offline": its package could not be audited/);
      let result = (await requests())[1]!.messages.at(-1)!.parts[0]!.content!.join('');
      assert.match(result, /asks the user before the tools of unaudited MCP servers run \(\[mcp\] unaudited = "ask"\)\. The user did not confirm it\.$/);

      await resetModel();
      await freshSession('mcpdeny');
      await script([{ toolCalls: [{ name: 'mcp__offline__fetch', input: {}, callId: 'm2' }] }, { text: 'Refused.' }]);
      await ask('Fetch it again');
      assert.equal(asked.length, 1, 'deny asks no one');
      result = (await requests())[1]!.messages.at(-1)!.parts[0]!.content!.join('');
      assert.match(result, /Role mcpdeny refuses the tools of unaudited MCP servers \(\[mcp\] unaudited = "deny"\)/);
    } finally {
      api.prompts.confirm = original;
      await freshSession('coder');
    }
  });

  test('memory: off by default (alfred_memory_append refused); on with memory-policy.json, appended and read into @alfred\'s prompt', async () => {
    await freshSession('coder');
    assert.match(await refusal('alfred_memory_append', { text: 'remember this' }), /Project memory is off: \.alfred\/memory-policy\.json does not exist/);
    assert.equal(fs.existsSync(workspaceFile('.alfred/memory.md')), false);
    write('.alfred/memory-policy.json', '{ "allow": true }\n');
    write('.alfred/memory.md', '');
    assert.equal(textOf(await invoke('alfred_memory_append', { text: 'The cart total is in cents.' })), 'Remembered in .alfred/memory.md.');
    assert.match(fs.readFileSync(workspaceFile('.alfred/memory.md'), 'utf8'), /^\n## \d{4}-\d\d-\d\d \d\d:\d\d UTC\n\nThe cart total is in cents\.\n$/);
    await script([{ text: 'Noted.' }]);
    await ask('What do you remember?');
    const first = (await requests())[0]!;
    const memory = first.messages.map(messageText).find((t) => t.startsWith('<project-memory>'));
    assert.ok(memory, 'the memory block is in the prompt');
    assert.match(memory, /The cart total is in cents\./);
    // An agent's edit tool cannot turn it off or on: the policy file is protected.
    assert.match(await refusal('ctx_edit', { path: '.alfred/memory-policy.json', oldString: 'true', newString: 'false' }), /rules agents work under/);
  });
});
