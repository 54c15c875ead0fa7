/**
 * The network cases, through Alfred's proxy (a namespace of the command's own, sandbox/netRun.ts) and
 * srt's (its CLI), with the same rules: `localhost` allowed, and another name /etc/hosts leads to
 * loopback not allowed (no test seam on either side: both proxies resolve as they would for a user;
 * srt accepts no single-label name in its allow list but `localhost`, and offers no map of names), and
 * the loopback address named as well, which both need before an allowed name may lead to this machine.
 * Judged by what the servers outside received, not by what the command printed.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as dgram from 'node:dgram';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { planSandbox } from '../src/core/sandbox/index';
import { srtArgv, type SrtSettings } from './srt';

const ROOT = path.resolve(__dirname, '..');
const RUNNER = path.join(ROOT, 'dist', 'cli', 'alfred-net.cjs');

export interface NetCase { name: string; command: string; mark: string; expect: 'reached' | 'refused' }
/** Whether a server outside received the case's mark: unsandboxed (the control), in Alfred's sandbox (auto, the default, and strict), under srt. */
export interface NetRow extends NetCase { plain: boolean; alfred: boolean; alfredStrict: boolean | undefined; srt: boolean }

/** A name other than localhost that /etc/hosts leads to 127.0.0.1, or undefined where there is none. */
export function otherLoopbackName(): string | undefined {
  const text = fs.existsSync('/etc/hosts') ? fs.readFileSync('/etc/hosts', 'utf8') : '';
  const names = text.split('\n').map((l) => l.replace(/#.*/, '').trim().split(/\s+/)).filter((w) => w[0] === '127.0.0.1').flatMap((w) => w.slice(1))
    .filter((n) => n && n !== 'localhost' && !n.endsWith('.localhost'));
  return names[0];
}

/** The servers outside: HTTP on loopback, UDP on loopback, a Unix socket in the home; each notes the marks it receives. */
async function servers(socketPath: string): Promise<{ port: number; udpPort: number; seen: Set<string>; close(): Promise<void> }> {
  const seen = new Set<string>();
  const httpServer = http.createServer((req, res) => {
    seen.add(req.url!.slice(1));
    res.end('reached\n');
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const udp = dgram.createSocket('udp4');
  udp.on('message', (m) => seen.add(m.toString().trim()));
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  const unix = net.createServer((s) => s.on('data', (d) => seen.add(d.toString().trim())).on('error', () => {}));
  await new Promise<void>((resolve) => unix.listen(socketPath, resolve));
  return {
    port: (httpServer.address() as AddressInfo).port, udpPort: (udp.address() as AddressInfo).port, seen,
    close: async () => {
      httpServer.closeAllConnections();
      await Promise.all([new Promise((r) => httpServer.close(r)), new Promise((r) => udp.close(() => r(undefined))), new Promise((r) => unix.close(r))]);
    },
  };
}

export function netCases(allowed: string, denied: string, port: number, udpPort: number, socketPath: string): NetCase[] {
  // Through the proxy whatever NO_PROXY says (srt's names localhost and 127.0.0.1 there).
  const curl = "curl -sS -m 5 -o /dev/null --noproxy ''";
  const py = (code: string) => `python3 -c ${JSON.stringify(code)}`;
  return [
    { name: `an allowed name (${allowed}) through the proxy`, command: `${curl} http://${allowed}:${port}/n1`, mark: 'n1', expect: 'reached' },
    { name: `a name not allowed (${denied}) through the proxy`, command: `${curl} http://${denied}:${port}/n2`, mark: 'n2', expect: 'refused' },
    { name: `a tunnel (CONNECT) to the name not allowed`, command: `${curl} -p http://${denied}:${port}/n4`, mark: 'n4', expect: 'refused' },
    { name: 'the allowed address directly, around the proxy', command: `curl -sS -m 5 -o /dev/null --noproxy '*' http://127.0.0.1:${port}/n5`, mark: 'n5', expect: 'refused' },
    { name: 'raw TCP from bash, no proxy', command: `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port} && printf "GET /n6 HTTP/1.0\\r\\n\\r\\n" >&3 && cat <&3'`, mark: 'n6', expect: 'refused' },
    { name: 'UDP to loopback', command: py(`import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'n7', ('127.0.0.1', ${udpPort}))`), mark: 'n7', expect: 'refused' },
    {
      name: 'a Unix socket of a server outside, in the home (a relay out, a daemon\'s API)',
      command: py(`import socket; s = socket.socket(socket.AF_UNIX); s.connect(${JSON.stringify(socketPath)}); s.sendall(b'n8')`), mark: 'n8', expect: 'refused',
    },
  ];
}

/** Runs the network cases both ways; undefined (with why) where they cannot run here. */
export async function runNetwork(root: string): Promise<{ rows: NetRow[]; names: [string, string] } | { skipped: string }> {
  const other = otherLoopbackName();
  if (!other) return { skipped: '/etc/hosts leads no name besides localhost to 127.0.0.1' };
  const names: [string, string] = ['localhost', other];
  if (spawnSync('curl', ['--version']).status !== 0 || spawnSync('python3', ['--version']).status !== 0) return { skipped: 'no curl or python3' };
  if (!fs.existsSync(RUNNER)) return { skipped: `no ${path.relative(ROOT, RUNNER)} (node build.mjs)` };
  const [allowed, denied] = names;
  const ws = path.join(root, 'net', 'ws');
  const home = path.join(root, 'net', 'home');
  fs.mkdirSync(ws, { recursive: true });
  fs.mkdirSync(path.join(home, '.local', 'share'), { recursive: true });
  const socketPath = path.join(home, '.local', 'share', 'relay.sock');
  const env = { ...process.env, HOME: home, ALFRED_HOME: path.join(home, '.alfred') };
  const s = await servers(socketPath);
  try {
    const planFor = (mode: 'auto' | 'strict') => planSandbox({
      role: { name: 'coder', sandbox: mode, network: { allow: [allowed, '127.0.0.1'], deny: [] } }, workspaceFolder: ws, protectedGlobs: [], env, home,
      netRunner: [process.execPath, RUNNER],
    });
    const plan = planFor('auto');
    if (plan.kind !== 'sandboxed' || plan.network.kind !== 'filtered') throw new Error(`expected Alfred's proxy, got ${plan.kind}`);
    // strict (its seccomp filter refuses Unix sockets) where the machine can set it up; else not run.
    const strict = planFor('strict');
    const settings: SrtSettings = {
      network: { allowedDomains: [allowed, `127.0.0.1:${s.port}`], deniedDomains: [] },
      filesystem: { denyRead: [], allowWrite: [ws], denyWrite: [] },
    };
    const rows: NetRow[] = [];
    for (const c of netCases(allowed, denied, s.port, s.udpPort, socketPath)) {
      // Spawned without blocking: the servers answer from this process.
      const reached = async (argv: string[]): Promise<boolean> => {
        s.seen.clear();
        await new Promise((resolve) => spawn(argv[0]!, argv.slice(1), { cwd: ws, env, stdio: 'ignore', timeout: 30_000 }).on('close', resolve));
        return s.seen.has(c.mark);
      };
      const plain = await reached(['/bin/sh', '-c', c.command]);
      const alfred = await reached(plan.argv(c.command, ws));
      const alfredStrict = strict.kind === 'sandboxed' ? await reached(strict.argv(c.command, ws)) : undefined;
      const srt = await reached(srtArgv(path.join(root, 'net', 'srt-settings.json'), settings, c.command));
      rows.push({ ...c, plain, alfred, alfredStrict, srt });
    }
    return { rows, names };
  } finally {
    await s.close();
  }
}
