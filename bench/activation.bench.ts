/**
 * (f) The load of the extension bundle, the part of activation that happens before activate() is
 * called: dist/extension.js as the VSIX ships it (a production build into a temporary folder) required
 * by a fresh Node process. The bundle's top level only asks `vscode` whether it is an ES module, so
 * the stand-in answers that and throws on anything else: were the load to use the API, this bench
 * would stop rather than measure something else. activate() itself needs a real VS Code: the
 * integration suite prints its time (test/integration/suites/activation.test.ts).
 *
 * Three processes, spawned in turn (in an order shuffled each round): a bare `node -e 0`; one that loads the
 * bundle; one that loads it and then counts a token, as the first charged tool call does. Target: the
 * bundle's load is under 0.6× the load plus the first count, so the tokenizer (about 2.7 MB) stays out
 * of activation; loading it with the bundle would put the ratio near 1.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { finish, median, nowMs, roundOrder, tempDir, verdict } from './util';

const TARGET_RATIO = 0.6;
const RUNS = 15;
const WARMUP = 2;
const ROOT = path.resolve(__dirname, '..');
const NOT_CLEAN = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'];

/** A child's script: the stand-in, the bundle's load timed in process, and (with `count`) one count. */
function loader(extension: string, count: boolean): string {
  return `
const Module = require('node:module');
const load = Module._load;
const standIn = new Proxy({}, { get: (_, key) => {
  if (key === '__esModule') return false;
  throw new Error('the bundle touched vscode.' + String(key) + ' while loading: the stand-in no longer suffices');
} });
Module._load = function (request, ...rest) { return request === 'vscode' ? standIn : load.call(this, request, ...rest); };
const t0 = performance.now();
const ext = require(${JSON.stringify(extension)});
const loaded = performance.now() - t0;
if (typeof ext.activate !== 'function') throw new Error('no activate()');
const eager = Object.keys(require.cache).filter((k) => k.includes('o200k'));
if (eager.length) throw new Error('loading the bundle loaded the tokenizer: ' + eager.join(', '));
let counted = 0;
${count ? `const t1 = performance.now();
const tokenizer = require(${JSON.stringify(path.join(path.dirname(extension), 'cli', 'o200k_base.cjs'))});
if (tokenizer.countTokens('hello world') !== 2) throw new Error('the tokenizer miscounted');
counted = performance.now() - t1;` : ''}
process.stdout.write(JSON.stringify({ loaded, counted }));
`;
}

type Way = 'bare' | 'load' | 'loadAndCount';
interface Sample { wall: number; loaded: number; counted: number }

function spawnTimed(args: string[], env: NodeJS.ProcessEnv): Sample {
  const t0 = nowMs();
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  const wall = nowMs() - t0;
  if (r.status !== 0) throw new Error(`node ${args[0]} exited ${r.status}: ${r.stderr}`);
  const { loaded = 0, counted = 0 } = r.stdout ? (JSON.parse(r.stdout) as Partial<Sample>) : {};
  return { wall, loaded, counted };
}

function main(): void {
  const dir = tempDir('activation');
  const build = spawnSync(process.execPath, ['build.mjs', '--production', '--out', dir], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`the production build failed: ${build.stderr}`);
  const extension = path.join(dir, 'dist', 'extension.js');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !NOT_CLEAN.includes(k)));
  const runs: Record<Way, () => Sample> = {
    bare: () => spawnTimed(['-e', '0'], env),
    load: () => spawnTimed(['-e', loader(extension, false)], env),
    loadAndCount: () => spawnTimed(['-e', loader(extension, true)], env),
  };
  const names = Object.keys(runs) as Way[];
  const samples = Object.fromEntries(names.map((n) => [n, [] as Sample[]])) as Record<Way, Sample[]>;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const name of roundOrder(names, i)) {
      const s = runs[name]();
      if (i >= WARMUP) samples[name].push(s);
    }
  }
  const kb = (f: string) => Math.round(fs.statSync(path.join(dir, 'dist', f)).size / 1024);
  const sizes = `dist/extension.js ${kb('extension.js')} KB, dist/cli/o200k_base.cjs ${kb('cli/o200k_base.cjs')} KB`;
  fs.rmSync(dir, { recursive: true, force: true });

  const wall = (w: Way) => median(samples[w].map((s) => s.wall));
  const loaded = median(samples.load.map((s) => s.loaded));
  const loadedThenCounted = median(samples.loadAndCount.map((s) => s.loaded + s.counted));
  const firstCount = median(samples.loadAndCount.map((s) => s.counted));
  console.log(`extension bundle load: ${RUNS} runs each after ${WARMUP} warm-up runs, production build (${sizes})`);
  console.log(`process wall time (no target): bare node -e 0 ${wall('bare').toFixed(1)} ms | load ${wall('load').toFixed(1)} ms | load and count ${wall('loadAndCount').toFixed(1)} ms`);
  console.log(`the first count's tokenizer load, later, in process (no target): median ${firstCount.toFixed(1)} ms`);
  verdict('require(dist/extension.js) in process, the tokenizer not loaded',
    `median ${loaded.toFixed(1)} ms | baseline load then first count ${loadedThenCounted.toFixed(1)} ms | ratio ${(loaded / loadedThenCounted).toFixed(2)}× | target < ${TARGET_RATIO}×`,
    loaded / loadedThenCounted < TARGET_RATIO);
  finish();
}

main();
