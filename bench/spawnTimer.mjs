/**
 * Times commands spawned by a small process of its own, for hook.bench.ts. Starting any program costs
 * its parent a fork, which copies the parent's page tables: from a Node process of 350 MB, starting
 * bash took 11 ms instead of 1.9 ms here. Timed from the benchmark's own process (tsx, the seeded
 * state), every spawn would carry that process's size, the same milliseconds added to each way and
 * to the baseline. Plain JavaScript, no loader: the spawner stays as small as Node makes it.
 *
 * Standard input, JSON: { warmup, runs, ways: { name: { file, args, env, cwd, input?, status, refuse? } }, orders }.
 * `input` may hold `{n}`, replaced by a number counted across all calls (each hook call a different
 * command), and `{ts}`, the time. Round i runs every way once, in the order `orders[i]` (the caller
 * shuffles them: bench/util.ts, roundOrder); a way whose exit status differs from `status`, or whose
 * output matches `refuse` (a regular expression), stops the run.
 * Standard output, JSON: { rss, times: { name: milliseconds[] } } (the warm-up rounds left out).
 */
import { spawnSync } from 'node:child_process';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { warmup, runs, ways, orders } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const names = Object.keys(ways);
const times = Object.fromEntries(names.map((name) => [name, []]));
let calls = 0;

function once(name) {
  const way = ways[name];
  const input = way.input?.replaceAll('{n}', String(++calls)).replaceAll('{ts}', new Date().toISOString());
  const t0 = process.hrtime.bigint();
  const r = spawnSync(way.file, way.args, { env: way.env, cwd: way.cwd, input, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== way.status || (way.refuse && new RegExp(way.refuse).test(r.stdout))) {
    throw new Error(`${name} exited ${r.status} (expected ${way.status}): ${r.stdout} ${r.stderr} ${r.error ?? ''}`);
  }
  return ms;
}

for (let i = 0; i < warmup + runs; i++) {
  for (const name of orders[i]) {
    const ms = once(name);
    if (i >= warmup) times[name].push(ms);
  }
}
process.stdout.write(JSON.stringify({ rss: process.memoryUsage().rss, times }));
