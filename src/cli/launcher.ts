/**
 * The `alfred` entry point (dist/cli/alfred.mjs). `alfred hook` runs on every tool call an agent
 * makes, and much of a cold start is V8 compiling the bundle; Node 20 has no compile cache for
 * modules, so this runs the CommonJS bundle alfred-main.cjs through `vm.Script` with V8's code
 * cache, kept in ${ALFRED_HOME:-~/.alfred}/cache/. The first run of a command writes it; a missing,
 * stale or rejected cache only means compiling from source, as without one.
 */
import { createRequire } from 'node:module';

// Built-ins through require: an ES import of `fs` reads every export and loads its lazy parts.
const load = createRequire(import.meta.url);
const fs = load('node:fs') as typeof import('node:fs');
const os = load('node:os') as typeof import('node:os');
const path = load('node:path') as typeof import('node:path');
const url = load('node:url') as typeof import('node:url');
const vm = load('node:vm') as typeof import('node:vm');

const MAIN = url.fileURLToPath(new URL('./alfred-main.cjs', import.meta.url));
/** The bundle's CommonJS parameters, plus what it reads as `import.meta.url` (see build.mjs). */
const WRAPPER = ['(function (exports, require, module, __filename, __dirname, __alfredMetaUrl) {', '\n})'];

interface CacheFile {
  dir: string;
  /** `cli-<runtime>-<bundle size>-<bundle mtime>-`: a rebuilt bundle never meets an old cache, nor Node the editor's. */
  stamp: string;
  file: string;
}

/** One cache per hook event (each holds the functions its own run compiled), one for the rest. */
function cacheFile(): CacheFile | undefined {
  try {
    const { size, mtimeMs } = fs.statSync(MAIN);
    const [command, event = ''] = process.argv.slice(2);
    const what = command === 'hook' && /^[A-Za-z]{1,40}$/.test(event) ? `hook-${event}` : 'other';
    const home = process.env.ALFRED_HOME ? path.resolve(process.env.ALFRED_HOME) : path.join(os.homedir(), '.alfred');
    const dir = path.join(home, 'cache');
    // Hook files run the CLI with the editor's Electron as Node, other callers with their own node.
    const runtime = `${process.versions.electron ? `electron${process.versions.electron}` : process.version}-v8_${process.versions.v8}-${process.arch}`;
    const stamp = `cli-${runtime}-${size}-${Math.trunc(mtimeMs)}-`;
    return { dir, stamp, file: path.join(dir, `${stamp}${what}.bin`) };
  } catch {
    return undefined;
  }
}

function readCache(cache: CacheFile | undefined): Buffer | undefined {
  try {
    return cache ? fs.readFileSync(cache.file) : undefined;
  } catch {
    return undefined;
  }
}

/** Another bundle's cache unused this long is dropped (another installed version may still be in use). */
const STALE_MS = 7 * 24 * 3600_000;

/** At exit, when every function this command ran is compiled: written whole or not at all. */
function writeCacheAtExit(script: import('node:vm').Script, cache: CacheFile): void {
  process.once('exit', () => {
    const tmp = `${cache.file}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(cache.dir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(tmp, cache.file);
      for (const name of fs.readdirSync(cache.dir)) {
        const other = path.join(cache.dir, name);
        if (name.startsWith('cli-') && !name.startsWith(cache.stamp) && Date.now() - fs.statSync(other).mtimeMs > STALE_MS) fs.rmSync(other, { force: true });
      }
    } catch {
      fs.rmSync(tmp, { force: true });
    }
  });
}

const cache = cacheFile();
const cachedData = readCache(cache);
const script = new vm.Script(WRAPPER[0] + fs.readFileSync(MAIN, 'utf8') + WRAPPER[1], { filename: MAIN, cachedData });
if (cache && (!cachedData || script.cachedDataRejected)) writeCacheAtExit(script, cache);
const mod = { exports: {} };
script.runInThisContext()(mod.exports, createRequire(MAIN), mod, MAIN, path.dirname(MAIN), url.pathToFileURL(MAIN).href);
