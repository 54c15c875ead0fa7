/**
 * The inventory's further sources, each with real files in a temporary folder: every profile's
 * mcp.json and settings.json, a multi-root workspace file's settings.mcp, and the applications
 * chat.mcp.discovery.enabled imports. Also what a workspace cannot do: point Alfred at a file outside
 * the known places, or turn off a source the user turned on.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { commandLineSources } from '../../../../src/core/rules/mcp/commandLineSources';
import { discoveryFiles, enabledDiscovery } from '../../../../src/core/rules/mcp/discovery';
import { readMcpInventory } from '../../../../src/core/rules/mcp/inventory';
import { userConfigFiles, userDirOfGlobalStorage, workspaceFilesIn } from '../../../../src/core/rules/mcp/locations';
import { userProfiles } from '../../../../src/core/rules/mcp/profiles';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-mcp-src-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
/** A fresh folder for one test. */
function dir(): string {
  const d = path.join(root, `t${++n}`);
  fs.mkdirSync(d, { recursive: true });
  return d;
}
function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}
const server = (pkg: string) => ({ command: 'npx', args: ['-y', pkg] });
const summary = (inv: ReturnType<typeof readMcpInventory>) => inv.servers.map((s) => [s.name, s.source, s.configPath, s.origin ?? null]);

describe('profiles: every profile of a user folder, named as the user named it', () => {
  it('lists each profile folder with its name from storage.json; an unnamed one keeps its id', () => {
    const user = path.join(dir(), 'User');
    write(path.join(user, 'profiles', '-6d6a9b5a', 'mcp.json'), JSON.stringify({ servers: { work: server('work-mcp@1.0.0') } }));
    write(path.join(user, 'profiles', '-6d6a9b5a', 'settings.json'), JSON.stringify({ mcp: { servers: { old: server('old-mcp') } } }));
    write(path.join(user, 'profiles', '2f1e0c3d', 'mcp.json'), '{ // no servers yet\n}');
    write(path.join(user, 'globalStorage', 'storage.json'), JSON.stringify({
      userDataProfiles: [{ name: 'Work', location: { $mid: 1, path: `${user}/profiles/-6d6a9b5a`, scheme: 'file' } }],
    }));
    const profiles = userProfiles(user);
    assert.deepEqual(profiles.map((p) => [p.id, p.name]), [['-6d6a9b5a', 'Work'], ['2f1e0c3d', '2f1e0c3d']]);
    const inv = readMcpInventory({ profiles });
    assert.deepEqual(inv.problems, []);
    assert.deepEqual(summary(inv), [
      ['work', 'user', path.join(user, 'profiles', '-6d6a9b5a', 'mcp.json'), 'profile "Work"'],
      ['old', 'setting', path.join(user, 'profiles', '-6d6a9b5a', 'settings.json'), 'profile "Work"'],
    ]);
  });

  it('a location in storage.json names a profile but never decides which file is read; a symlinked profile folder is not followed', () => {
    const base = dir();
    const user = path.join(base, 'User');
    const elsewhere = write(path.join(base, 'elsewhere', 'mcp.json'), JSON.stringify({ servers: { planted: server('planted-mcp') } }));
    fs.mkdirSync(path.join(user, 'profiles'), { recursive: true });
    fs.symlinkSync(path.dirname(elsewhere), path.join(user, 'profiles', 'linked'));
    write(path.join(user, 'globalStorage', 'storage.json'), JSON.stringify({ userDataProfiles: [{ name: 'Evil', location: path.dirname(elsewhere) }] }));
    assert.deepEqual(userProfiles(user), []);
  });

  it('a user folder without profiles, or with an unreadable storage.json, is no error', () => {
    const user = path.join(dir(), 'User');
    assert.deepEqual(userProfiles(user), []);
    write(path.join(user, 'profiles', 'abc', 'mcp.json'), '{}');
    write(path.join(user, 'globalStorage', 'storage.json'), '{ not json');
    assert.deepEqual(userProfiles(user).map((p) => p.name), ['abc']);
  });

  it('userConfigFiles lists each user folder once, and every profile of each', () => {
    const a = path.join(dir(), 'User');
    write(path.join(a, 'profiles', 'p1', 'mcp.json'), '{}');
    const files = userConfigFiles([a, `${a}/`, path.join(root, 'absent', 'User')]);
    assert.deepEqual(files.mcp, [path.join(a, 'mcp.json'), path.join(root, 'absent', 'User', 'mcp.json')]);
    assert.deepEqual(files.profiles.map((p) => p.mcp), [path.join(a, 'profiles', 'p1', 'mcp.json')]);
  });

  it('the editor\'s own user folder is two levels above its global storage', () => {
    assert.equal(userDirOfGlobalStorage('/data/user-data/User/globalStorage/alfred.alfred'), '/data/user-data/User');
    assert.equal(userDirOfGlobalStorage('/somewhere/else/alfred.alfred'), undefined);
  });
});

describe('a multi-root workspace file', () => {
  it('reads settings.mcp.servers; a top-level mcp, which VS Code does not read, is a problem and not a server', () => {
    const file = write(path.join(dir(), 'team.code-workspace'), `{
      "folders": [{ "path": "api" }, { "path": "/etc" }],
      // the team's servers
      "settings": { "editor.tabSize": 2, "mcp": { "servers": { "github": ${JSON.stringify(server('@modelcontextprotocol/server-github@2025.4.8'))} } } },
      "mcp": { "servers": { "ignored": ${JSON.stringify(server('ignored-mcp'))} } },
    }`);
    const inv = readMcpInventory({ workspaceFiles: [file] });
    assert.deepEqual(summary(inv), [['github', 'workspace', file, null]]);
    assert.deepEqual(inv.problems, [{ path: file, message: 'mcp: VS Code reads "settings": { "mcp": … } in a workspace file; these servers are not started' }]);
  });

  it('bad shapes are problems naming the key; a broken workspace file does not hide the folder\'s mcp.json', () => {
    const ws = dir();
    write(path.join(ws, '.vscode', 'mcp.json'), JSON.stringify({ servers: { kept: server('kept-mcp') } }));
    const badSettings = write(path.join(ws, 'a.code-workspace'), '{ "settings": [] }');
    const badMcp = write(path.join(ws, 'b.code-workspace'), '{ "settings": { "mcp": "npx x" } }');
    const badServer = write(path.join(ws, 'c.code-workspace'), '{ "settings": { "mcp": { "servers": { "x": { "command": 3 } } } } }');
    const broken = write(path.join(ws, 'd.code-workspace'), '{ "settings": ');
    const inv = readMcpInventory({ workspaceFolder: ws, workspaceFiles: [badSettings, badMcp, badServer, broken] });
    assert.deepEqual(inv.servers.map((s) => s.name), ['kept']);
    assert.deepEqual(inv.problems.map((p) => [path.basename(p.path), p.message]), [
      ['a.code-workspace', 'settings: expected an object'],
      ['b.code-workspace', 'settings.mcp: expected an object with "servers"'],
      ['c.code-workspace', 'settings.mcp.servers.x.command: expected a string (the program that starts the server)'],
      ['d.code-workspace', 'ValueExpected at line 1, column 15'],
      ['d.code-workspace', 'CloseBraceExpected at line 1, column 15'],
    ]);
  });

  it('the other folders of a multi-root workspace have their .vscode/mcp.json read too', () => {
    const a = dir();
    const b = dir();
    write(path.join(b, '.vscode', 'mcp.json'), JSON.stringify({ servers: { inB: server('b-mcp') } }));
    assert.deepEqual(summary(readMcpInventory({ workspaceFolder: a, otherFolders: [b] })), [['inB', 'workspace', path.join(b, '.vscode', 'mcp.json'), null]]);
  });

  it('the command line finds the .code-workspace files directly in the folder, never a symbolic link', () => {
    const ws = dir();
    const real = write(path.join(ws, 'z.code-workspace'), '{}');
    write(path.join(ws, 'a.code-workspace'), '{}');
    write(path.join(ws, 'sub', 'deep.code-workspace'), '{}');
    fs.symlinkSync(path.join(root, 'outside.json'), path.join(ws, 'link.code-workspace'));
    assert.deepEqual(workspaceFilesIn(ws), [path.join(ws, 'a.code-workspace'), real]);
  });
});

describe('chat.mcp.discovery.enabled: the servers VS Code imports from other applications', () => {
  it('the setting\'s forms: true is every source, an object the sources set to true; values only add', () => {
    assert.deepEqual([...enabledDiscovery([undefined])], []);
    assert.deepEqual([...enabledDiscovery([true])], ['claude-desktop', 'windsurf', 'cursor-global', 'cursor-workspace']);
    assert.deepEqual([...enabledDiscovery([{ 'claude-desktop': true, windsurf: false, other: true }])], ['claude-desktop']);
    // The user turned Cursor on; the workspace's false and its object turning everything off change nothing.
    assert.deepEqual([...enabledDiscovery([{ 'cursor-global': true }, false, { 'cursor-global': false }])], ['cursor-global']);
  });

  it('the paths VS Code reads, by platform; only the enabled ones', () => {
    const all = enabledDiscovery([true]);
    const linux = discoveryFiles(all, { env: {}, platform: 'linux', home: '/home/u', workspaceFolders: ['/ws'] });
    assert.deepEqual(linux.map((d) => [d.source, d.app, d.file]), [
      ['claude-desktop', 'Claude Desktop', '/home/u/.config/Claude/claude_desktop_config.json'],
      ['windsurf', 'Windsurf', '/home/u/.codeium/windsurf/mcp_config.json'],
      ['cursor-global', 'Cursor', '/home/u/.cursor/mcp.json'],
      ['cursor-workspace', 'Cursor (workspace)', '/ws/.cursor/mcp.json'],
    ]);
    assert.equal(discoveryFiles(all, { env: { XDG_CONFIG_HOME: '/x' }, platform: 'linux', home: '/h' })[0]!.file, '/x/Claude/claude_desktop_config.json');
    assert.equal(discoveryFiles(all, { env: {}, platform: 'darwin', home: '/Users/u' })[0]!.file, '/Users/u/Library/Application Support/Claude/claude_desktop_config.json');
    assert.deepEqual(discoveryFiles(enabledDiscovery([{ windsurf: true }]), { env: {}, platform: 'linux', home: '/h', workspaceFolders: ['/ws'] }).map((d) => d.source), ['windsurf']);
  });

  it('reads mcpServers of each enabled application\'s file, with the application named', () => {
    const home = dir();
    const ws = dir();
    const claude = write(path.join(home, '.config', 'Claude', 'claude_desktop_config.json'), JSON.stringify({
      mcpServers: { fs: server('@modelcontextprotocol/server-filesystem'), remote: { url: 'https://mcp.example.com/mcp' } },
    }));
    const cursor = write(path.join(ws, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { cur: server('cursor-mcp@2.0.0'), bad: { serverUrl: 'https://x' } } }));
    write(path.join(home, '.codeium', 'windsurf', 'mcp_config.json'), JSON.stringify({ mcpServers: { surf: server('surf-mcp') } }));
    const discovered = discoveryFiles(enabledDiscovery([{ 'claude-desktop': true, 'cursor-workspace': true }]), { env: {}, platform: 'linux', home, workspaceFolders: [ws] });
    const inv = readMcpInventory({ discovered });
    assert.deepEqual(summary(inv), [
      ['fs', 'discovered', claude, 'Claude Desktop'],
      ['remote', 'discovered', claude, 'Claude Desktop'],
      ['cur', 'discovered', cursor, 'Cursor (workspace)'],
    ]);
    assert.equal(inv.servers[0]!.package?.name, '@modelcontextprotocol/server-filesystem');
    assert.deepEqual(inv.problems, [{ path: cursor, message: 'mcpServers.bad.command: expected a string (the program that starts the server)' }]);
  });
});

describe('commandLineSources: what alfred audit reads for a folder', () => {
  it('every source together: the folder, its workspace file, the user\'s and each profile\'s files, the applications the settings import', () => {
    const home = dir();
    const ws = dir();
    const env = { XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local', 'share') };
    const user = path.join(home, '.config', 'Code', 'User');
    write(path.join(ws, '.vscode', 'mcp.json'), JSON.stringify({ servers: { folder: server('folder-mcp') } }));
    write(path.join(ws, 'all.code-workspace'), JSON.stringify({ folders: [{ path: '.' }], settings: { mcp: { servers: { wsfile: server('wsfile-mcp') } } } }));
    write(path.join(user, 'mcp.json'), JSON.stringify({ servers: { usr: server('user-mcp') } }));
    write(path.join(user, 'settings.json'), JSON.stringify({ 'chat.mcp.discovery.enabled': { 'claude-desktop': true } }));
    write(path.join(user, 'profiles', 'p1', 'mcp.json'), JSON.stringify({ servers: { prof: server('profile-mcp') } }));
    write(path.join(home, '.config', 'Claude', 'claude_desktop_config.json'), JSON.stringify({ mcpServers: { claude: server('claude-mcp') } }));
    write(path.join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { cursor: server('cursor-mcp') } }));
    // The workspace's own settings turn discovery off: the user's choice stands.
    write(path.join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'chat.mcp.discovery.enabled': false }));
    const sources = commandLineSources(ws, env, home);
    const inv = readMcpInventory(sources.inventory);
    assert.deepEqual(inv.problems, []);
    assert.deepEqual(inv.servers.map((s) => [s.name, s.source, s.origin ?? null]), [
      ['folder', 'workspace', null], ['wsfile', 'workspace', null], ['usr', 'user', null],
      ['prof', 'user', 'profile p1'], ['claude', 'discovered', 'Claude Desktop'],
    ]);
    assert.ok(sources.userSettings.includes(path.join(user, 'settings.json')));
  });

  it('a workspace turning discovery on adds only the fixed application paths, and its workspace file\'s setting counts the same', () => {
    const home = dir();
    const ws = dir();
    write(path.join(ws, 'x.code-workspace'), JSON.stringify({ settings: { 'chat.mcp.discovery.enabled': { 'cursor-global': true } } }));
    const sources = commandLineSources(ws, { XDG_CONFIG_HOME: path.join(home, '.config') }, home);
    assert.deepEqual(sources.inventory.discovered?.map((d) => d.file), [path.join(home, '.cursor', 'mcp.json')]);
  });
});
