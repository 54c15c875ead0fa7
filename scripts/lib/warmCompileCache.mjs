// Run as `node --import tsx scripts/lib/warmCompileCache.mjs` (scripts/test.mjs, beside the install):
// loads every module the unit tests import, so that tsx compiles each once, into its cache, while a
// core is idle, instead of in the unit stage's processes. Test files are not loaded (they would run),
// nor test/unit's helpers, some of which are workers that run when loaded.
// Loading runs nothing else: modules have no effects when imported, except the command line's
// launcher (its bundle's entry, which runs at once) and the entry points that check how they were
// started. A module that fails to load is left for the tests to report.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// src/vscode needs VS Code's API, which only the extension host has.
const FOLDERS = ['src/core', 'src/cli', 'src/protocol', 'test/support'];
const RUNS_WHEN_LOADED = new Set([path.join(ROOT, 'src', 'cli', 'launcher.ts')]);

const modules = FOLDERS.flatMap((folder) => {
  const dir = path.join(ROOT, folder);
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true }).map(String)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.join(dir, f))
    .filter((f) => !RUNS_WHEN_LOADED.has(f));
});
let failed = 0;
for (const file of modules) {
  try {
    await import(pathToFileURL(file).href);
  } catch {
    failed++;
  }
}
console.log(`compile cache: ${modules.length - failed} modules loaded${failed ? `, ${failed} could not be` : ''}`);
// Whatever a module started on load (a timer) must not keep this process alive.
process.exit(0);
