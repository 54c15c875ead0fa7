/**
 * The whole command line in this process: the CommonJS bundle alfred-main.cjs (alfred-hook.cjs for a
 * hook call: the same `alfred hook`, without the other commands' code). Much of its cold start
 * is V8 compiling the bundle, and Node 20 has no compile cache for modules, so it runs through
 * `vm.Script` with V8's code cache, kept in ${ALFRED_HOME:-~/.alfred}/cache/. The first run of a
 * command writes it; a missing, stale or rejected cache only means compiling from source, as without one.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Script } from 'node:vm';
import { atomicWrite } from '../core/base/fs/atomicWrite';

// Loaded only when the command line runs: a served hook call needs neither.
const load = createRequire(__filename);

const bundleFor = (argv: readonly string[]): string => join(__dirname, argv[0] === 'hook' ? 'alfred-hook.cjs' : 'alfred-main.cjs');
/** The bundle's CommonJS parameters, plus what it reads as `import.meta.url` (see build.mjs). */
const WRAPPER = ['(function (exports, require, module, __filename, __dirname, __alfredMetaUrl) {', '\n})'];

interface CacheFile {
  dir: string;
  /** `cli-<runtime>-<bundle size>-<bundle mtime>-`: a rebuilt bundle never meets an old cache, nor Node the editor's. */
  stamp: string;
  file: string;
}

/** One cache per hook event (each holds the functions its own run compiled), one for the server, one for the rest. */
function cacheFile(argv: readonly string[], bundle: string): CacheFile | undefined {
  try {
    const { size, mtimeMs } = statSync(bundle);
    const [command, event = ''] = argv;
    // The hook server's own: written as it leaves, it holds the hook code it ran, which another
    // command's cache lacks (a server started on demand compiles less on its first calls).
    const what = command === 'hook' && /^[A-Za-z]{1,40}$/.test(event) ? `hook-${event}` : command === 'serve' ? 'serve' : 'other';
    const { homedir } = load('node:os') as typeof import('node:os');
    const home = process.env.ALFRED_HOME ? resolve(process.env.ALFRED_HOME) : join(homedir(), '.alfred');
    const dir = join(home, 'cache');
    // Hook files run the CLI with the editor's Electron as Node, other callers with their own node.
    const runtime = `${process.versions.electron ? `electron${process.versions.electron}` : process.version}-v8_${process.versions.v8}-${process.arch}`;
    const stamp = `cli-${runtime}-${size}-${Math.trunc(mtimeMs)}-`;
    return { dir, stamp, file: join(dir, `${stamp}${what}.bin`) };
  } catch {
    return undefined;
  }
}

function readCache(cache: CacheFile | undefined): Buffer | undefined {
  try {
    return cache ? readFileSync(cache.file) : undefined;
  } catch {
    return undefined;
  }
}

/** Another bundle's cache unused this long is dropped (another installed version may still be in use). */
const STALE_MS = 7 * 24 * 3600_000;

/** At exit, when every function this command ran is compiled: written whole or not at all. */
function writeCacheAtExit(script: Script, cache: CacheFile): void {
  process.once('exit', () => {
    try {
      mkdirSync(cache.dir, { recursive: true, mode: 0o700 });
      // No fsync: a cache lost with a power cut is compiled again.
      atomicWrite(cache.file, script.createCachedData(), { fsync: false });
      for (const name of readdirSync(cache.dir)) {
        const other = join(cache.dir, name);
        if (name.startsWith('cli-') && !name.startsWith(cache.stamp) && Date.now() - statSync(other).mtimeMs > STALE_MS) rmSync(other, { force: true });
      }
    } catch {
      // No cache this time: the next run compiles from source again.
    }
  });
}

type Bundle = typeof import('./main');

/** Runs `alfred <argv>`; `stdin` is the hook input already read (by the hook client), else it is read as usual. */
export function runCommandLine(argv: string[], stdin?: string): void {
  const { Script } = load('node:vm') as typeof import('node:vm');
  const bundle = bundleFor(argv);
  const cache = cacheFile(argv, bundle);
  const cachedData = readCache(cache);
  const script = new Script(WRAPPER[0] + readFileSync(bundle, 'utf8') + WRAPPER[1], { filename: bundle, cachedData });
  if (cache && (!cachedData || script.cachedDataRejected)) writeCacheAtExit(script, cache);
  const mod = { exports: {} as Bundle };
  script.runInThisContext()(mod.exports, createRequire(bundle), mod, bundle, dirname(bundle), pathToFileURL(bundle).href);
  const { main, processIo } = mod.exports;
  const io = stdin === undefined ? processIo : { ...processIo, readStdin: () => Promise.resolve(stdin) };
  void main(argv, io).then((code) => { process.exitCode = code; });
}
