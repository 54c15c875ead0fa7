/**
 * Network egress per role (roles' [sandbox.network]): a sandboxed command's only way out is Alfred's
 * proxy, which lets through the names the role allows and refuses the others with a reason, each
 * refusal an event. Real processes: bubblewrap, the runner's bundle, curl, servers on loopback under
 * names the proxy resolves there (offline).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { readEvents } from '../../../src/core/base/events/read';
import type { NetworkRules } from '../../../src/core/rules/roles/types';
import { planSandbox } from '../../../src/core/sandbox/index';
import { NO_SANDBOX, tempRoot } from './helpers';

const ROOT = path.resolve(__dirname, '../../..');
const RUNNER = path.join(ROOT, 'dist', 'cli', 'alfred-net.cjs');
const NO_CURL = spawnSync('curl', ['--version']).status === 0 ? false : 'no curl here';

let server: http.Server;
let port = 0;
before(async () => {
  if (!fs.existsSync(RUNNER)) spawnSync(process.execPath, ['build.mjs'], { cwd: ROOT, stdio: 'ignore' });
  server = http.createServer((req, res) => res.end(`hello from ${req.headers.host}\n`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(() => server.close());

interface Ran { status: number | null; stdout: string; stderr: string }

/** Spawned, not spawnSync: the servers answering the command live in this process. */
function spawned(file: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function setup(network: NetworkRules | undefined, role = 'coder') {
  const root = tempRoot('alfred-net-');
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  const state = path.join(root, 'state');
  for (const dir of [ws, home, state]) fs.mkdirSync(dir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, ALFRED_HOME: path.join(home, '.alfred') };
  for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'ALL_PROXY', 'all_proxy', 'NO_PROXY', 'no_proxy']) delete env[k];
  const plan = planSandbox({
    role: { name: role, sandbox: 'auto', ...(network ? { network } : {}) }, workspaceFolder: ws, protectedGlobs: [], env, home, stateDir: state,
    tempFolders: [path.join(root, 'tmp')], netRunner: [process.execPath, RUNNER],
    netHosts: { 'registry.test': '127.0.0.1', 'api.github.test': '127.0.0.1', 'evil.test': '127.0.0.1' },
  });
  if (plan.kind !== 'sandboxed') throw new Error(plan.kind);
  const run = (command: string) => {
    const [file, ...args] = plan.argv(command, ws);
    return spawned(file!, args, { cwd: ws, env });
  };
  const runLine = (command: string) => spawned('/bin/sh', ['-c', plan.line(command)], { cwd: ws, env });
  return { plan, run, runLine, state };
}

const skip = NO_SANDBOX || NO_CURL;

test('an allowed name is reached through the proxy, as a plain request and through CONNECT; a refused one gets a reason and is an event', { skip }, async () => {
  const f = setup({ allow: ['registry.test', '*.github.test'], deny: [] });
  assert.equal(f.plan.kind === 'sandboxed' && f.plan.network.kind, 'filtered');
  const ok = await f.run(`curl -sS http://registry.test:${port}/ && curl -sS -p http://api.github.test:${port}/`);
  assert.equal(ok.stdout, `hello from registry.test:${port}\nhello from api.github.test:${port}\n`, ok.stderr);
  assert.equal(ok.status, 0);

  const plain = await f.run(`curl -sS -f http://evil.test:${port}/`);
  assert.equal(plain.status, 22, 'curl -f fails on the 403');
  assert.match(plain.stderr, /Alfred \(role coder\): the sandbox refused a connection to evil\.test: it is not in its \[sandbox\.network\] allow list \(registry\.test, \*\.github\.test\)\. If the task needs evil\.test, ask the user/);
  const tunnel = await f.run(`curl -sS -p http://evil.test:${port}/`);
  assert.equal(tunnel.status, 56, `CONNECT refused: ${tunnel.stderr}`);
  assert.equal(tunnel.stdout, '');

  const refused = readEvents(f.state, { types: ['NetworkRefused'] }).events;
  assert.deepEqual(refused.map((e) => [e.host, e.port, e.method, e.commandRole, e.command]), [
    ['evil.test', port, 'GET', 'coder', `curl -sS -f http://evil.test:${port}/`],
    ['evil.test', port, 'CONNECT', 'coder', `curl -sS -p http://evil.test:${port}/`],
  ]);
});

test('the proxy is the only way out: a direct connection, past the proxy variables, reaches nothing', { skip }, async () => {
  const f = setup({ allow: ['registry.test'], deny: [] });
  const direct = await f.run(`curl -sS --noproxy '*' --max-time 5 http://127.0.0.1:${port}/; echo "exit $?"`);
  assert.match(direct.stdout, /exit (7|28)\n$/, `no server on the namespace's own loopback, no other interface: ${direct.stdout}${direct.stderr}`);
  const node = await f.run(`${JSON.stringify(process.execPath)} -e "require('net').connect(${port}, '127.0.0.1').on('connect', () => console.log('reached')).on('error', (e) => console.log(e.code))"`);
  assert.equal(node.stdout.trim(), 'ECONNREFUSED');
});

test('deny wins over allow; a role that allows no name (the reviewer) reaches none', { skip }, async () => {
  const f = setup({ allow: ['*'], deny: ['evil.test'] });
  const r = await f.run(`curl -sS http://registry.test:${port}/ && curl -sS -f http://evil.test:${port}/`);
  assert.equal(r.stdout, `hello from registry.test:${port}\n`);
  assert.match(r.stderr, /evil\.test: its \[sandbox\.network\] deny list names it \("evil\.test"\)/);
  const reviewer = setup({ allow: [], deny: [] }, 'reviewer');
  const none = await reviewer.run(`curl -sS -f http://registry.test:${port}/`);
  assert.equal(none.status, 22);
  assert.match(none.stderr, /role reviewer\): the sandbox refused a connection to registry\.test: it allows no network name/);
});

test('the terminal line (an agent\'s command rewritten by its hook) goes through the same proxy', { skip }, async () => {
  const f = setup({ allow: ['registry.test'], deny: [] });
  const line = f.plan.kind === 'sandboxed' ? f.plan.line('true') : '';
  assert.match(line, /alfred-sandbox [0-9a-f]{16} 'true'$/);
  const r = await f.runLine(`curl -sS http://registry.test:${port}/; curl -sS -f http://evil.test:${port}/`);
  assert.equal(r.stdout, `hello from registry.test:${port}\n`, r.stderr);
  assert.equal(r.status, 22);
  assert.equal(readEvents(f.state, { types: ['NetworkRefused'] }).events.length, 1);
});

test('every name allowed and none denied: the network is left as it is, with no proxy', { skip }, async () => {
  const f = setup({ allow: ['*'], deny: [] });
  assert.deepEqual(f.plan.kind === 'sandboxed' && f.plan.network, { kind: 'open', why: 'every name allowed' });
  const r = await f.run(`curl -sS --noproxy '*' http://127.0.0.1:${port}/`);
  assert.equal(r.stdout, `hello from 127.0.0.1:${port}\n`);
});

test('an allowed name that resolves to this machine is refused; the address itself, when the list names it, is reached', { skip }, async () => {
  const byName = await setup({ allow: ['localhost'], deny: [] }).run(`curl -sS -f --noproxy '' http://localhost:${port}/`);
  assert.equal(byName.status, 22);
  assert.match(byName.stderr, /refused a connection to localhost: it resolves to (127\.0\.0\.1|::1), a loopback address, which the allow list does not name/);
  const literal = await setup({ allow: ['127.0.0.1'], deny: [] }).run(`curl -sS --noproxy '' http://127.0.0.1:${port}/`);
  assert.equal(literal.stdout, `hello from 127.0.0.1:${port}\n`);
});
