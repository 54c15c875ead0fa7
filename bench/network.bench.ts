/**
 * What network filtering adds (roles' [sandbox.network]: a namespace of the command's own whose only
 * way out is Alfred's proxy, sandbox/netRun.ts), in the same run against its baselines:
 * - start-up: `sh -c true` plain, sandboxed with the network as it is (every name allowed), and
 *   sandboxed behind the proxy; p50 and p95. The runner outside and the bridge inside are two Node
 *   starts, whose time depends on the machine's load more than on Alfred: `node -e 0` is timed in
 *   the same rounds, and the target is what the proxy adds, under two Node starts and 100 ms.
 * - throughput: 100 MB from a server on loopback, fetched by curl directly and from inside the
 *   sandbox through the proxy (a name the proxy resolves to loopback), alternating, median of 5.
 *   Every byte crosses two Node processes (bridge, proxy) besides curl and the server: on a loaded
 *   2-core machine the ratio measured 0.10 to 0.24. Target: at least a twentieth of the direct rate
 *   (a regression to a copy per byte in JavaScript, or a stall, falls far below).
 * Skipped (and passing) where there is no bubblewrap or no curl.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { detectSandbox, planSandbox, type PlanOptions } from '../src/core/sandbox/index';
import { finish, median, nowMs, percentile, tempDir, verdict } from './util';

const ROOT = path.resolve(__dirname, '..');
const RUNNER = path.join(ROOT, 'dist', 'cli', 'alfred-net.cjs');
const STARTS = 40;
const DOWNLOADS = 5;
const SIZE = 100 * 1024 * 1024;
const TARGET_SLACK_MS = 100;
const TARGET_RATIO = 0.05;

function run(argv: readonly string[], cwd: string): Promise<number> {
  const t0 = nowMs();
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve(nowMs() - t0) : reject(new Error(`${argv.slice(0, 3).join(' ')} … exited ${code}: ${err}`))));
  });
}

async function main(): Promise<void> {
  const found = detectSandbox(process.env);
  if (found.kind !== 'bwrap' || spawnSync('curl', ['--version']).status !== 0) {
    verdict('network filter', `skipped: ${found.kind !== 'bwrap' ? 'no bubblewrap' : 'no curl'}`, true);
    return;
  }
  const root = tempDir('network');
  const chunk = Buffer.alloc(1024 * 1024, 7);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-length': SIZE });
    let sent = 0;
    const more = () => {
      while (sent < SIZE) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  try {
    const ws = path.join(root, 'ws');
    const home = path.join(root, 'home');
    fs.mkdirSync(ws, { recursive: true });
    fs.mkdirSync(home, { recursive: true });
    const env = { ...process.env, HOME: home, ALFRED_HOME: path.join(home, '.alfred') };
    const base: PlanOptions = { role: { name: 'coder', sandbox: 'auto' }, workspaceFolder: ws, protectedGlobs: [], env, home, tempFolders: [path.join(root, 'tmp')] };
    const open = planSandbox({ ...base, role: { ...base.role, network: { allow: ['*'], deny: [] } } });
    const filtered = planSandbox({
      ...base, role: { ...base.role, network: { allow: ['files.test'], deny: [] } }, netRunner: [process.execPath, RUNNER], netHosts: { 'files.test': '127.0.0.1' },
    });
    if (open.kind !== 'sandboxed' || filtered.kind !== 'sandboxed') throw new Error('expected a sandbox');

    const ways = { plain: ['/bin/sh', '-c', 'true'], node: [process.execPath, '-e', '0'], sandbox: open.argv('true', ws), proxy: filtered.argv('true', ws) };
    const times: Record<keyof typeof ways, number[]> = { plain: [], node: [], sandbox: [], proxy: [] };
    for (let i = 0; i < STARTS + 3; i++) {
      for (const way of Object.keys(ways) as (keyof typeof ways)[]) {
        const ms = await run(ways[way], ws);
        if (i >= 3) times[way].push(ms);
      }
    }
    const p = (way: keyof typeof ways, q: number) => percentile(times[way], q);
    for (const way of Object.keys(ways) as (keyof typeof ways)[]) console.log(`sh -c true ${way}: p50 ${p(way, 50).toFixed(1)} ms, p95 ${p(way, 95).toFixed(1)} ms`);
    const added = p('proxy', 50) - p('sandbox', 50);
    const bound = 2 * p('node', 50) + TARGET_SLACK_MS;
    verdict('network filter start-up', `p50 ${(p('proxy', 50) / p('plain', 50)).toFixed(1)}× plain, ${(p('proxy', 50) / p('sandbox', 50)).toFixed(1)}× the sandbox without it (+${added.toFixed(1)} ms, `
      + `${(added / p('node', 50)).toFixed(1)} Node starts) | target < 2 Node starts + ${TARGET_SLACK_MS} ms (${bound.toFixed(0)} ms)`, added < bound);

    const direct = ['curl', '-sS', '--noproxy', '*', '-o', '/dev/null', `http://127.0.0.1:${port}/`];
    const proxied = filtered.argv(`curl -sS -o /dev/null http://files.test:${port}/`, ws);
    const rates = { direct: [] as number[], proxy: [] as number[] };
    for (let i = 0; i < DOWNLOADS; i++) {
      rates.direct.push(SIZE / 1048576 / ((await run(direct, ws)) / 1000));
      rates.proxy.push(SIZE / 1048576 / ((await run(proxied, ws)) / 1000));
    }
    const ratio = median(rates.proxy) / median(rates.direct);
    console.log(`100 MB from loopback: direct ${median(rates.direct).toFixed(0)} MB/s, through the proxy ${median(rates.proxy).toFixed(0)} MB/s (medians of ${DOWNLOADS})`);
    verdict('network filter throughput', `${ratio.toFixed(2)}× the direct rate | target ≥ ${TARGET_RATIO}×`, ratio >= TARGET_RATIO);
  } finally {
    server.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main().then(finish);
