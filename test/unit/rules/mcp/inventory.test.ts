import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { readMcpInventory } from '../../../../src/core/rules/mcp/inventory';
import { packageOfLaunch } from '../../../../src/core/rules/mcp/launchers';
import { dockerImage, npmPackage, pypiPackage } from '../../../../src/core/rules/mcp/npmSpec';
import { userMcpFiles } from '../../../../src/core/rules/mcp/locations';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-mcp-inv-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
function write(rel: string, text: string): string {
  const file = path.join(root, `t${++n}`, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

describe('package launchers: every form resolves the package and whether it is pinned', () => {
  const cases: [string, string[], ReturnType<typeof packageOfLaunch>][] = [
    ['npx', ['-y', '@modelcontextprotocol/server-github'], { ecosystem: 'npm', name: '@modelcontextprotocol/server-github', spec: 'latest', pinned: false }],
    ['npx', ['--yes', 'mcp-server@1.2.3', '--port', '3000'], { ecosystem: 'npm', name: 'mcp-server', spec: '1.2.3', version: '1.2.3', pinned: true }],
    ['npx', ['@scope/pkg@latest'], { ecosystem: 'npm', name: '@scope/pkg', spec: 'latest', pinned: false }],
    ['npx', ['pkg@^1.2.0'], { ecosystem: 'npm', name: 'pkg', spec: '^1.2.0', pinned: false }],
    ['npx', ['-p', 'tool-pkg@2.0.0', 'tool-bin', 'serve'], { ecosystem: 'npm', name: 'tool-pkg', spec: '2.0.0', version: '2.0.0', pinned: true }],
    ['npx', ['--package=@a/b@3.1.4-beta.1', 'b'], { ecosystem: 'npm', name: '@a/b', spec: '3.1.4-beta.1', version: '3.1.4-beta.1', pinned: true }],
    ['/usr/local/bin/npx', ['pkg@1.0'], { ecosystem: 'npm', name: 'pkg', spec: '1.0', pinned: false }],
    ['C:\\Program Files\\nodejs\\npx.cmd', ['-y', 'pkg@4.5.6'], { ecosystem: 'npm', name: 'pkg', spec: '4.5.6', version: '4.5.6', pinned: true }],
    ['npm', ['exec', '--yes', '--', 'pkg@0.0.1', 'arg'], { ecosystem: 'npm', name: 'pkg', spec: '0.0.1', version: '0.0.1', pinned: true }],
    ['npm', ['x', 'pkg'], { ecosystem: 'npm', name: 'pkg', spec: 'latest', pinned: false }],
    ['npm', ['exec', '--package=pkg@1.1.1', '--', 'bin'], { ecosystem: 'npm', name: 'pkg', spec: '1.1.1', version: '1.1.1', pinned: true }],
    ['pnpm', ['dlx', 'pkg@next'], { ecosystem: 'npm', name: 'pkg', spec: 'next', pinned: false }],
    ['pnpm', ['--package=pkg@9.9.9', 'dlx', 'bin'], { ecosystem: 'npm', name: 'pkg', spec: '9.9.9', version: '9.9.9', pinned: true }],
    ['pnpx', ['pkg'], { ecosystem: 'npm', name: 'pkg', spec: 'latest', pinned: false }],
    ['yarn', ['dlx', '-p', 'pkg@1.0.0', 'bin'], { ecosystem: 'npm', name: 'pkg', spec: '1.0.0', version: '1.0.0', pinned: true }],
    ['bunx', ['--bun', 'pkg@2.3.4'], { ecosystem: 'npm', name: 'pkg', spec: '2.3.4', version: '2.3.4', pinned: true }],
    ['bun', ['x', 'pkg'], { ecosystem: 'npm', name: 'pkg', spec: 'latest', pinned: false }],
    ['uvx', ['mcp-server-fetch'], { ecosystem: 'pypi', name: 'mcp-server-fetch', spec: 'latest', pinned: false }],
    ['uvx', ['mcp-server-git@0.6.2', '--repository', '.'], { ecosystem: 'pypi', name: 'mcp-server-git', spec: '0.6.2', version: '0.6.2', pinned: true }],
    ['uvx', ['--from', 'Mcp-Server-Time==2025.1.0', 'mcp-server-time'], { ecosystem: 'pypi', name: 'mcp-server-time', spec: '2025.1.0', version: '2025.1.0', pinned: true }],
    ['uvx', ['--python', '3.12', 'pkg[cli]>=1.0'], { ecosystem: 'pypi', name: 'pkg', spec: '>=1.0', pinned: false }],
    ['uv', ['tool', 'run', 'pkg==1.0'], { ecosystem: 'pypi', name: 'pkg', spec: '1.0', version: '1.0', pinned: true }],
    ['docker', ['run', '-i', '--rm', '-e', 'GITHUB_TOKEN', 'ghcr.io/github/github-mcp-server'], { ecosystem: 'docker', name: 'ghcr.io/github/github-mcp-server', spec: 'latest', pinned: false }],
    ['docker', ['run', '--rm', '-v=/a:/b', 'mcp/fetch:1.2'], { ecosystem: 'docker', name: 'mcp/fetch', spec: '1.2', pinned: false }],
    ['docker', ['container', 'run', 'localhost:5000/img@sha256:' + 'a'.repeat(64)], { ecosystem: 'docker', name: 'localhost:5000/img', spec: 'sha256:' + 'a'.repeat(64), version: 'sha256:' + 'a'.repeat(64), pinned: true }],
    ['podman', ['run', '--name', 'x', 'img:3'], { ecosystem: 'docker', name: 'img', spec: '3', pinned: false }],
  ];
  for (const [command, args, expected] of cases) {
    it(`${command} ${args.join(' ')}`, () => assert.deepEqual(packageOfLaunch(command, args), expected));
  }

  it('a command that is no launcher, or a launcher without a package, starts no package', () => {
    assert.equal(packageOfLaunch('node', ['server.js']), undefined);
    assert.equal(packageOfLaunch('python', ['-m', 'mcp_server']), undefined);
    assert.equal(packageOfLaunch('npm', ['run', 'mcp']), undefined);
    assert.equal(packageOfLaunch('docker', ['compose', 'up']), undefined);
    assert.equal(packageOfLaunch('npx', ['-y']), undefined);
    assert.equal(packageOfLaunch('uv', ['run', 'server.py']), undefined);
  });

  it('a git URL, a path or a tarball URL is kept as written and is not a registry name', () => {
    assert.deepEqual(npmPackage('github:org/repo'), { ecosystem: 'npm', name: 'github:org/repo', spec: 'github:org/repo', pinned: false });
    assert.deepEqual(npmPackage('./local-server'), { ecosystem: 'npm', name: './local-server', spec: './local-server', pinned: false });
  });

  it('spec forms: v-prefixed exact version, a range and a tag; PyPI exact only with ==; Docker pinned only by digest', () => {
    assert.deepEqual(npmPackage('pkg@v1.2.3'), { ecosystem: 'npm', name: 'pkg', spec: 'v1.2.3', version: '1.2.3', pinned: true });
    assert.equal(npmPackage('pkg@1.x').pinned, false);
    assert.equal(npmPackage('pkg@~1.2.3').pinned, false);
    assert.equal(pypiPackage('pkg>=1.2.3').pinned, false);
    assert.equal(dockerImage('img:1.2.3').pinned, false);
  });
});

describe('readMcpInventory', () => {
  it('reads .vscode/mcp.json with comments and trailing commas: stdio servers with their package, http and sse servers with their URL', () => {
    const ws = path.dirname(path.dirname(write('.vscode/mcp.json', `{
      // the team's servers
      "inputs": [{ "type": "promptString", "id": "token", "password": true }],
      "servers": {
        "github": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github@2025.4.8"], "env": { "TOKEN": "\${input:token}" } },
        "remote": { "type": "http", "url": "https://mcp.example.com/mcp" },
        "events": { "type": "sse", "url": "http://127.0.0.1:9000/sse" },
        "local": { "type": "stdio", "command": "node", "args": ["server.js"], },
      },
    }`)));
    const inv = readMcpInventory({ workspaceFolder: ws });
    const configPath = path.join(ws, '.vscode', 'mcp.json');
    assert.deepEqual(inv.problems, []);
    assert.deepEqual(inv.servers, [
      { name: 'github', source: 'workspace', configPath, command: 'npx', args: ['-y', '@modelcontextprotocol/server-github@2025.4.8'],
        package: { ecosystem: 'npm', name: '@modelcontextprotocol/server-github', spec: '2025.4.8', version: '2025.4.8', pinned: true } },
      { name: 'remote', source: 'workspace', configPath, command: '', args: [], url: 'https://mcp.example.com/mcp' },
      { name: 'events', source: 'workspace', configPath, command: '', args: [], url: 'http://127.0.0.1:9000/sse' },
      { name: 'local', source: 'workspace', configPath, command: 'node', args: ['server.js'] },
    ]);
  });

  it('a broken file is a problem with its line and column; the user file and the settings still count', () => {
    const broken = write('.vscode/mcp.json', '{\n  "servers": {\n    "a": { "command": "npx" \n  }\n');
    const ws = path.dirname(path.dirname(broken));
    const user = write('User/mcp.json', '{ "servers": { "fetch": { "command": "uvx", "args": ["mcp-server-fetch"] } } }');
    const settings = write('User/settings.json', '{ "editor.fontSize": 14, "mcp": { "servers": { "time": { "command": "npx", "args": ["time-mcp@1.0.0"] } } } }');
    const inv = readMcpInventory({ workspaceFolder: ws, userMcpPaths: [user, path.join(root, 'absent', 'mcp.json')], settingsFiles: [settings],
      settings: [{ configPath: 'settings (workspace folder)', servers: { docker: { command: 'docker', args: ['run', 'img'] } } }] });
    assert.deepEqual(inv.problems, [{ path: broken, message: 'CloseBraceExpected at line 5, column 1' }]);
    assert.deepEqual(inv.servers.map((s) => [s.name, s.source, s.configPath, s.package?.name]), [
      ['fetch', 'user', user, 'mcp-server-fetch'],
      ['docker', 'setting', 'settings (workspace folder)', 'img'],
      ['time', 'setting', settings, 'time-mcp'],
    ]);
  });

  it('a bad server is a problem naming the file and its key; the other servers of the same file still count', () => {
    const file = write('.vscode/mcp.json', JSON.stringify({ servers: {
      noCommand: { args: [] },
      badArgs: { command: 'npx', args: ['-y', 3] },
      argsNotArray: { command: 'npx', args: 'pkg' },
      badType: { type: 'websocket', url: 'ws://x' },
      noUrl: { type: 'http' },
      notObject: 'npx pkg',
      good: { command: 'npx', args: ['good-mcp'] },
    } }));
    const inv = readMcpInventory({ workspaceFolder: path.dirname(path.dirname(file)) });
    assert.deepEqual(inv.problems, [
      { path: file, message: 'servers.noCommand.command: expected a string (the program that starts the server)' },
      { path: file, message: 'servers.badArgs.args[1]: expected a string, got 3' },
      { path: file, message: 'servers.argsNotArray.args: expected an array of strings' },
      { path: file, message: 'servers.badType.type: expected "stdio", "http" or "sse", got "websocket"' },
      { path: file, message: 'servers.noUrl.url: expected a string (the server\'s address)' },
      { path: file, message: 'servers.notObject: expected an object with "command" or "url"' },
    ]);
    assert.deepEqual(inv.servers.map((s) => s.name), ['good']);
  });

  it('Claude-style mcpServers is reported (VS Code reads servers); an absent workspace file is no problem', () => {
    const file = write('.vscode/mcp.json', '{ "mcpServers": { "x": { "command": "npx", "args": ["x"] } } }');
    assert.deepEqual(readMcpInventory({ workspaceFolder: path.dirname(path.dirname(file)) }), {
      servers: [], problems: [{ path: file, message: 'mcpServers: VS Code reads "servers" in mcp.json; these servers are not started' }],
    });
    assert.deepEqual(readMcpInventory({ workspaceFolder: path.join(root, 'nowhere') }), { servers: [], problems: [] });
  });

  it('settings: a non-object mcp or servers is a problem naming the key', () => {
    const settings = write('settings.json', '{ "mcp": { "servers": [] } }');
    assert.deepEqual(readMcpInventory({ settingsFiles: [settings] }).problems, [{ path: settings, message: 'mcp.servers: expected an object of servers by name' }]);
  });

  it('the user folders of VS Code, Insiders, VSCodium and code-server on Linux; ALFRED_VSCODE_USER_DIR replaces them', () => {
    assert.deepEqual(userMcpFiles({}, 'linux', '/home/u').mcp, [
      '/home/u/.config/Code/User/mcp.json', '/home/u/.config/Code - Insiders/User/mcp.json', '/home/u/.config/VSCodium/User/mcp.json',
      '/home/u/.local/share/code-server/User/mcp.json',
    ]);
    assert.deepEqual(userMcpFiles({}, 'darwin', '/Users/u').settings[0], '/Users/u/Library/Application Support/Code/User/settings.json');
    assert.deepEqual(userMcpFiles({ ALFRED_VSCODE_USER_DIR: '/x/User' }, 'linux', '/home/u'), { mcp: ['/x/User/mcp.json'], settings: ['/x/User/settings.json'], profiles: [] });
  });
});
