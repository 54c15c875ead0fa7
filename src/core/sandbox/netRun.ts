/**
 * Runs a bubblewrap command with no network of its own but Alfred's proxy (netProxy.ts): the argv
 * a sandbox plan gives for a role whose [sandbox.network] restricts names is
 * `node alfred-net.cjs --net <config> -- bwrap <mounts…> -- <shell> -c <command>`. Here, outside the
 * sandbox, the proxy listens on a Unix socket in a folder of its own (under the net folder every
 * plan hides, so no other command finds it); bwrap gets `--unshare-net`, that folder, and the bridge
 * (netBridge.ts) before the command. Each refused connection is said on the command's standard error
 * and recorded as a NetworkRefused event in the workspace's log.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { readLedger } from '../ledger/ledgerFormat';
import { createRedactor } from '../base/secrets/redact';
import { recordEvents } from '../ledger/ledgerStore';
import { isNetConfig, type NetConfig } from './netConfig';
import { BRIDGE } from './netBridge';
import { startNetProxy, type Refusal } from './netProxy';

/** Runs `args` (`--net <config> -- bwrap …`); resolves with the exit code to exit with. */
export async function runNet(args: readonly string[], stderr: NodeJS.WritableStream = process.stderr): Promise<number> {
  const sep = args.indexOf('--');
  let config: unknown;
  try {
    config = args[0] === '--net' && sep === 2 ? JSON.parse(args[1] ?? '') : undefined;
  } catch {
    config = undefined;
  }
  const bwrap = args.slice(sep + 1);
  const inner = bwrap.indexOf('--', 1);
  if (!isNetConfig(config) || inner < 0) {
    stderr.write('alfred-net: usage: alfred-net --net <config> -- bwrap <arguments> -- <command>\n');
    return 126;
  }
  fs.mkdirSync(config.netDir, { recursive: true, mode: 0o700 });
  const dir = fs.mkdtempSync(path.join(config.netDir, 'r'));
  const socket = path.join(dir, 'proxy.sock');
  const pending: Promise<unknown>[] = [];
  const onRefused = (r: Refusal) => {
    stderr.write(`${r.reason}\n`);
    if (config.stateDir) pending.push(record(config, r, bwrap.at(-1) ?? '').catch(() => undefined));
  };
  const proxy = await startNetProxy(socket, { rules: config, role: config.role, onRefused, ...(config.hosts ? { hosts: config.hosts } : {}) });
  const hook = await hookCarrier(config.hookPortFile, path.join(dir, 'hook.sock'));
  const argv = [...bwrap.slice(0, inner), '--unshare-net', '--ro-bind', dir, dir, '--', process.execPath, '-e', BRIDGE, socket,
    hook ? hook.socket : '-', hook ? String(hook.port) : '-', ...bwrap.slice(inner + 1)];
  // A strict plan's seccomp filter is open on a descriptor of its own (wrap.ts): bwrap gets it too.
  const seccomp = argv.indexOf('--seccomp');
  const fds = seccomp > 0 && seccomp < inner ? Number(argv[seccomp + 1]) : 2;
  const stdio = Array.from({ length: fds + 1 }, (_v, i) => i);
  try {
    return await new Promise<number>((resolve) => {
      const child = spawn(argv[0]!, argv.slice(1), { stdio });
      const forward = (s: NodeJS.Signals) => child.kill(s);
      for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, forward);
      child.on('error', (e) => {
        stderr.write(`alfred-net: ${argv[0]}: ${e.message}\n`);
        resolve(126);
      });
      child.on('exit', (code, signal) => resolve(code ?? 128 + (signal ? (osSignal(signal) ?? 0) : 0)));
    });
  } finally {
    hook?.server.close();
    await proxy.close();
    await Promise.all(pending);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A Unix socket that carries each connection to the hook server's loopback port, when its sandboxed port file names one. */
async function hookCarrier(portFile: string | undefined, socket: string): Promise<{ socket: string; port: number; server: net.Server } | undefined> {
  let port: number;
  try {
    port = Number((portFile ? fs.readFileSync(portFile, 'utf8') : '').split(' ')[0]);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(port) || port <= 0 || port > 65535) return undefined;
  const server = net.createServer({ allowHalfOpen: true }, (c) => {
    const u = net.connect(port, '127.0.0.1');
    c.pipe(u);
    u.pipe(c);
    c.on('error', () => u.destroy());
    u.on('error', () => c.destroy());
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socket, resolve));
  return { socket, port, server };
}

const osSignal = (s: NodeJS.Signals): number | undefined => os.constants.signals[s];

/** The refusal as an event of the session running now (its role, not a new session's). */
async function record(config: NetConfig, r: Refusal, command: string): Promise<void> {
  const dir = config.stateDir!;
  const role = readLedger(dir)?.role ?? config.role;
  await recordEvents(dir, role, [{ type: 'NetworkRefused', host: r.host, port: r.port, method: r.method, command: createRedactor().text(command).slice(0, 500), commandRole: config.role }]);
}
