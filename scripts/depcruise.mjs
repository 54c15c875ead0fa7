// The import graph of src/core against .dependency-cruiser.cjs: its layers (each imports only from
// the layers below) and no cycles. Exits non-zero on a violation, naming the rule and both files.
// Through dependency-cruiser's API: its command line refuses Node 20, which Alfred supports.
// Usage: node scripts/depcruise.mjs
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const ROOT = path.resolve(import.meta.dirname, '..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
process.chdir(ROOT);

const options = await extractDepcruiseOptions(CONFIG);
const { output } = await cruise(['src/core'], { ...options, validate: true }, {}, { tsConfig: extractTSConfig(options.tsConfig.fileName) });

const problems = output.summary.violations.map((v) => v.cycle?.length
  ? `${v.rule.name}: ${[v.from, ...v.cycle.map((c) => c.name ?? c)].join(' → ')}`
  : `${v.rule.name}: ${v.from} → ${v.to}`);

const config = createRequire(import.meta.url)(CONFIG);
// A file no group holds, even one that imports nothing and that nothing imports.
const groups = config.layers.map((g) => g.paths.map((p) => new RegExp(p)));
const files = fs.readdirSync('src/core', { recursive: true }).map(String).filter((f) => /\.[cm]?[jt]s$/.test(f)).map((f) => path.posix.join('src/core', f.split(path.sep).join('/')));
for (const f of files) {
  const holders = groups.filter((g) => g.some((re) => re.test(f))).length;
  if (holders !== 1) problems.push(`${holders ? 'in more than one layer' : 'not-in-a-layer'}: ${f}`);
}

// Cycles between modules (a folder, or one folder of a layer that holds several), when the config names them.
if (config.moduleOf) problems.push(...moduleCycles(output.modules, new RegExp(config.moduleOf)));

for (const p of [...new Set(problems)]) console.error(`✖ ${p}`);
console.log(`${output.summary.totalCruised} modules, ${output.summary.totalDependenciesCruised} imports: ${problems.length ? `${problems.length} problem(s)` : 'no upward import, no cycle'}`);
process.exit(problems.length ? 1 : 0);

/** Each set of modules that reach each other through imports (Tarjan's strongly connected components). */
function moduleCycles(modules, moduleOf) {
  const of = (f) => moduleOf.exec(f)?.[0] ?? f;
  const edges = new Map();
  for (const m of modules) {
    const from = of(m.source);
    if (!edges.has(from)) edges.set(from, new Set());
    for (const d of m.dependencies) if (d.resolved.startsWith('src/core/') && of(d.resolved) !== from) edges.get(from).add(of(d.resolved));
  }
  const index = new Map(), low = new Map(), stack = [], onStack = new Set(), found = [];
  const visit = (v) => {
    index.set(v, index.size); low.set(v, index.get(v)); stack.push(v); onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do { w = stack.pop(); onStack.delete(w); component.push(w); } while (w !== v);
    if (component.length > 1) found.push(`module cycle: ${component.sort().join(', ')}`);
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}
