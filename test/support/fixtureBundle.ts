/**
 * A TypeScript file run as a child process by tests that start many at once (twenty or forty agents
 * racing for one budget), bundled once per test process into plain CommonJS. `node --import tsx`
 * compiles TypeScript in every child, about a second of CPU each: on two cores, forty children spent
 * most of a minute before their race began. The bundle lies inside the repository's node_modules, so
 * the packages it leaves external (pg, proper-lockfile, …) resolve as from the sources.
 */
import { buildSync } from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const MIGRATIONS = path.join(ROOT, 'src', 'core', 'ledger', 'team', 'migrations');
const built = new Map<string, string>();

/** The path of `file` (a .ts under the repository) bundled as CommonJS: run it with `node <path>`. */
export function fixtureBundle(file: string): string {
  const done = built.get(file);
  if (done) return done;
  const outfile = path.join(ROOT, 'node_modules', '.cache', 'alfred-fixtures', `${path.basename(file, '.ts')}.${process.pid}.cjs`);
  // As build.mjs does for Alfred's own bundles: the team ledger's migrations and the sandbox's script inlined.
  const sandboxScript = fs.readFileSync(path.join(ROOT, 'src', 'core', 'sandbox', 'alfred-sandbox.sh'), 'utf8');
  const migrations = Object.fromEntries(fs.readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql')).map((f) => [f, fs.readFileSync(path.join(MIGRATIONS, f), 'utf8')]));
  buildSync({
    entryPoints: [file], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external',
    define: { ALFRED_TEAM_MIGRATIONS: JSON.stringify(migrations), ALFRED_SANDBOX_SCRIPT: JSON.stringify(sandboxScript) }, logLevel: 'warning',
  });
  process.once('exit', () => fs.rmSync(outfile, { force: true }));
  built.set(file, outfile);
  return outfile;
}
