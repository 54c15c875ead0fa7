// `npm run bench`: builds, then runs each benchmark in bench/ in its own Node process. Each prints its
// result, a ratio against a baseline measured in the same run, and PASS or FAIL against its target.
// Exits non-zero when a build or a target fails. Usage: node scripts/bench.mjs [gate|hook|hookSession|eventLoop|fold|activation ...]
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { BENCH_PACKAGES, ensureDebianPackages, InstallError } from './lib/install.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const BENCHES = {
  gate: { file: 'bench/gate.bench.ts', flags: [] },
  usage: { file: 'bench/usage.bench.ts', flags: [] },
  // The input tokens of @alfred's "hello" request under coder: persona, pack, prompt and the tools offered.
  hello: { file: 'bench/helloRequest.bench.ts', flags: [] },
  sandbox: { file: 'bench/sandbox.bench.ts', flags: [] },
  // Sandbox start-up behind the network proxy, and 100 MB through it against direct.
  network: { file: 'bench/network.bench.ts', flags: [] },
  // Alfred's sandbox against @anthropic-ai/sandbox-runtime: the escape corpus, start-up and the network cases, side by side.
  sandboxCompare: { file: 'bench/sandboxCompare.bench.ts', flags: [] },
  hook: { file: 'bench/hook.bench.ts', flags: [] },
  // An agent's session without an editor: the first call starts the hook server the others use.
  hookSession: { file: 'bench/hookSession.bench.ts', flags: [] },
  // Starts a private PostgreSQL (Debian's postgresql) on loopback for its run.
  team: { file: 'bench/teamLedger.bench.ts', flags: [] },
  // The extension bundle's load, from a production build it makes itself.
  activation: { file: 'bench/activation.bench.ts', flags: [] },
  // The extension host's event-loop delay while an agent process makes 20 tool calls a second through its
  // hook server (ALFRED_BENCH_SECONDS shortens its 60 s).
  eventLoop: { file: 'bench/eventLoop.bench.ts', flags: [] },
  // The heap is measured after a collection.
  fold: { file: 'bench/fold.bench.ts', flags: ['--expose-gc'] },
};
const wanted = process.argv.slice(2).filter((a) => a in BENCHES);
const names = wanted.length ? wanted : Object.keys(BENCHES);
const started = Date.now();

const run = (args) => spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' }).status ?? 1;

try {
  ensureDebianPackages(BENCH_PACKAGES);
} catch (err) {
  if (!(err instanceof InstallError)) throw err;
  console.error(`bench: ${err.message}`);
  process.exit(1);
}

if (run(['build.mjs']) !== 0) {
  console.error('bench: the build failed');
  process.exit(1);
}
const failed = [];
for (const name of names) {
  console.log(`\n── ${name} ──`);
  const { file, flags } = BENCHES[name];
  if (run([...flags, '--import', 'tsx', file]) !== 0) failed.push(name);
}
console.log(`\n${names.length - failed.length}/${names.length} benchmarks met their targets${failed.length ? `; failed: ${failed.join(', ')}` : ''} (${Math.round((Date.now() - started) / 1000)} s)`);
process.exit(failed.length ? 1 : 0);
