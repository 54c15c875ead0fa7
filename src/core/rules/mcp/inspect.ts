/**
 * What a package's files show: the install scripts npm would run, the programs it ships, how many
 * packages it depends on, and the hosts its sources (and its install scripts) reference.
 */
import * as path from 'node:path';
import { isScannedSource, scanHosts } from './hostScan';
import type { TarFile } from './tarball';
import type { McpAudit } from './types';

/** The lifecycle scripts that run on install (`prepare` too: npm runs it for git and local installs). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'] as const;

export interface Manifest {
  name?: string;
  scripts?: Record<string, unknown>;
  bin?: string | Record<string, unknown>;
  dependencies?: Record<string, unknown>;
  optionalDependencies?: Record<string, unknown>;
}

export type Inspection = Pick<McpAudit, 'installScripts' | 'hosts' | 'binaries' | 'dependencyCount'>;

export function installScripts(manifest: Manifest, files: readonly TarFile[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of INSTALL_SCRIPTS) {
    const cmd = manifest.scripts?.[key];
    if (typeof cmd === 'string' && cmd.trim()) out[key] = cmd;
  }
  // npm runs node-gyp for a package with binding.gyp and no install script of its own.
  if (!out.install && !out.preinstall && files.some((f) => f.path === 'binding.gyp')) out.install = 'node-gyp rebuild (implied by binding.gyp)';
  return out;
}

/** ELF, Mach-O (both byte orders, fat) and PE headers. */
function isNative(f: TarFile): boolean {
  if (/\.(node|so(\.\d+)*|dylib|dll|exe)$/i.test(f.path)) return true;
  const h = f.head.toString('hex');
  return h === '7f454c46' || ['feedface', 'feedfacf', 'cefaedfe', 'cffaedfe', 'cafebabe'].includes(h) || h.startsWith('4d5a');
}

/** `bin` entries as `name: file`, then native binaries and executable scripts (`#!`) shipped outside `bin`. */
export function binaries(manifest: Manifest, files: readonly TarFile[]): string[] {
  const bin = typeof manifest.bin === 'string'
    ? { [(manifest.name ?? '').replace(/^@[^/]+\//, '')]: manifest.bin }
    : Object.fromEntries(Object.entries(manifest.bin ?? {}).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  const binFiles = new Set(Object.values(bin).map((p) => path.posix.normalize(p)));
  const out = Object.entries(bin).map(([name, file]) => `${name}: ${path.posix.normalize(file)}`);
  for (const f of files) {
    if (binFiles.has(f.path)) continue;
    const script = (f.mode & 0o111) !== 0 && f.head.subarray(0, 2).toString('latin1') === '#!';
    if (isNative(f) || script) out.push(f.path);
  }
  return out;
}

export function inspectPackage(manifest: Manifest, files: readonly TarFile[]): Inspection {
  const deps = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {})]);
  const scripts = installScripts(manifest, files);
  const sources = files.filter((f) => f.text !== undefined && isScannedSource(f.path)).map((f) => ({ path: f.path, text: f.text! }));
  // An install script's own URLs (`curl https://… | sh`) are hosts the package reaches too, named by package.json.
  const scriptText = Object.values(scripts).join('\n');
  return {
    installScripts: scripts,
    hosts: scanHosts(scriptText ? [...sources, { path: 'package.json', text: scriptText }] : sources),
    binaries: binaries(manifest, files),
    dependencyCount: deps.size,
  };
}
