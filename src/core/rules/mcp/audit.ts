/**
 * The audit of MCP servers' packages (npm first): for each server, the package version its launcher
 * resolves to, fetched from the registry the user's npm is configured for, and what its tarball shows
 * (install scripts, hosts, binaries, dependencies) with its curation. A version's tarball is read once
 * (cached by name@version); audits run in parallel with a bound; a registry that does not answer, or
 * answers with an error, makes a `not-audited` result with its reason, never a throw.
 */
import maxSatisfying from 'semver/ranges/max-satisfying';
import validRange from 'semver/ranges/valid';
import satisfies from 'semver/functions/satisfies';
import { readFacts, writeFacts, writeLatest, type PackageFacts } from './cache';
import { curationOf, type CurationThresholds } from './curation';
import { inspectPackage, type Manifest } from './inspect';
import { isRegistryName } from './npmSpec';
import { npmRegistryConfig, registryFor, tokenFor, type NpmRegistryConfig, type NpmrcOptions } from './npmrc';
import { downloadsApiFor, fetchPackument, fetchTarball, fetchWeeklyDownloads, RegistryError, type Fetch, type Packument } from './registry';
import { integrityProblem, readTarball } from './tarball';
import { isScannedSource } from './hostScan';
import type { McpAudit, McpPackageRef, McpServerEntry } from './types';

export interface AuditOptions {
  /** The state folder: versions' facts are cached there and `latest.json` written. Without it nothing is kept. */
  stateDir?: string;
  /** Every package from this registry, overriding npm's configuration. */
  registry?: string;
  /** Where npm's configuration is read (the workspace's `.npmrc`, the environment, the home folder). */
  npmrc?: NpmrcOptions;
  /** The downloads API (`…/downloads/point/last-week/<name>`); default: npm's for registry.npmjs.org, none for others. null: none. */
  downloadsApi?: string | null;
  /** Per request, default 10 s. */
  timeoutMs?: number;
  /** Packages audited at once, default 4. */
  concurrency?: number;
  thresholds?: CurationThresholds;
  fetch?: Fetch;
  now?: () => Date;
  /** Default 25 MB compressed, 150 MB unpacked; sources over 2 MB are listed but not scanned. */
  maxTarballBytes?: number;
  maxUnpackedBytes?: number;
  maxSourceBytes?: number;
  /** Write `latest.json` (default: whenever stateDir is given). */
  writeLatest?: boolean;
}

type PackageAudit = Omit<McpAudit, 'server' | 'inUseIsAudited'>;

const EMPTY = { installScripts: {}, hosts: [], binaries: [], dependencyCount: 0 };
const LAUNCHERS = 'npx, npm exec, pnpm dlx, yarn dlx, bunx, uvx, docker run';

/** Why a server's package is not checked, or undefined when it is an npm registry package. */
function notChecked(server: McpServerEntry): string | undefined {
  const ref = server.package;
  if (server.url !== undefined) return `a remote server at ${server.url}: nothing is installed, so there is no package to audit`;
  if (!ref) return `started by "${server.command}", not by a package launcher (${LAUNCHERS}): the program it runs is not checked`;
  if (ref.ecosystem === 'pypi') return `a PyPI package (${ref.name}): only npm packages are audited; its install scripts, hosts and curation are not checked`;
  if (ref.ecosystem === 'docker') return `a Docker image (${ref.name}): only npm packages are audited; its contents, hosts and curation are not checked`;
  if (!isRegistryName(ref)) return `"${ref.spec}" is not a registry package (a path, git or tarball URL): not checked`;
  return undefined;
}

/** The version npm would install for the spec: the exact version, a dist-tag, or the highest in a range (latest when it fits). */
export function resolveVersion(doc: Packument, ref: McpPackageRef): string | undefined {
  const versions = Object.keys(doc.versions ?? {});
  if (ref.pinned) return ref.version && versions.includes(ref.version) ? ref.version : undefined;
  const tags = doc['dist-tags'] ?? {};
  if (tags[ref.spec]) return tags[ref.spec];
  if (!validRange(ref.spec)) return undefined;
  const latest = tags.latest;
  if (latest && satisfies(latest, ref.spec)) return latest;
  return maxSatisfying(versions, ref.spec) ?? undefined;
}

/** A bounded pool: at most `n` of the tasks run at once. */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

class NpmAuditor {
  private readonly config: NpmRegistryConfig;
  private readonly timeoutMs: number;
  /**
   * One run's packuments and tarball reads, by registry and name (and version): specs that differ
   * (`x@1.0.0`, `x@^1`, `x`) but resolve to one version are audited in parallel, and would each
   * download it before any had written the cache.
   */
  private readonly packuments = new Map<string, Promise<Packument>>();
  private readonly inspections = new Map<string, Promise<PackageFacts | string>>();
  constructor(private readonly opts: AuditOptions) {
    this.config = npmRegistryConfig(opts.npmrc);
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  private now(): Date {
    return this.opts.now?.() ?? new Date();
  }

  async audit(ref: McpPackageRef): Promise<PackageAudit> {
    const registry = this.opts.registry ? (this.opts.registry.endsWith('/') ? this.opts.registry : `${this.opts.registry}/`) : registryFor(this.config, ref.name);
    const req = { fetch: this.opts.fetch, timeoutMs: this.timeoutMs, token: tokenFor(this.config, registry) };
    const auditedAt = this.now().toISOString();
    let doc: Packument;
    try {
      const docKey = `${registry}\n${ref.name}`;
      let pending = this.packuments.get(docKey);
      if (!pending) {
        pending = fetchPackument(registry, ref.name, req);
        this.packuments.set(docKey, pending);
      }
      doc = await pending;
    } catch (err) {
      if (!(err instanceof RegistryError)) throw err;
      // A registry that answered (404, 401, 500, a page that is no metadata) is not one that did not answer.
      const what = err.status === undefined ? 'the registry did not answer'
        : err.status === 404 ? `the registry has no package ${ref.name}` : 'the registry answered with an error';
      const cached = ref.pinned && ref.version && this.opts.stateDir ? readFacts(this.opts.stateDir, ref.name, ref.version) : undefined;
      if (cached) return this.fromFacts(cached, { verdict: 'unknown', ...cached.curation }, `${what} (${err.message}); results of the audit of ${cached.auditedAt}`);
      return { status: 'not-audited', reason: `${what}: ${err.message}`, ...EMPTY, curation: { verdict: 'unknown' }, auditedAt };
    }
    const version = resolveVersion(doc, ref);
    if (!version) {
      return { status: 'not-audited', reason: `${registry} has no version of ${ref.name} matching "${ref.spec}"`, ...EMPTY, curation: { verdict: 'unknown' }, auditedAt };
    }
    const api = this.opts.downloadsApi === null ? undefined : this.opts.downloadsApi ?? downloadsApiFor(registry);
    const downloads = api
      ? fetchWeeklyDownloads(api, ref.name, { ...req, token: undefined }).then((n) => ({ n }), (err: Error) => ({ err: err.message }))
      : Promise.resolve({ err: `${registry} has no downloads API that Alfred knows of` });
    const cached = this.opts.stateDir ? readFacts(this.opts.stateDir, ref.name, version) : undefined;
    const [facts, dl] = await Promise.all([cached ? Promise.resolve(cached) : this.inspectOnce(registry, doc, version, req, auditedAt), downloads]);
    const weekly = 'n' in dl ? dl.n : undefined;
    const curation = curationOf(doc, version, weekly, this.now(), this.opts.thresholds);
    const downloadsNote = 'err' in dl ? `weekly downloads unknown: ${dl.err}` : undefined;
    if (typeof facts === 'string') {
      return { status: 'not-audited', reason: facts, auditedVersion: `${ref.name}@${version}`, ...EMPTY, curation, auditedAt };
    }
    if (this.opts.stateDir) {
      try {
        writeFacts(this.opts.stateDir, { ...facts, curation });
      } catch {
        // The cache only saves a download next time: an audit whose cache cannot be written still stands.
      }
    }
    return this.fromFacts(facts, curation, downloadsNote);
  }

  private fromFacts(f: PackageFacts, curation: McpAudit['curation'], reason: string | undefined): PackageAudit {
    return {
      status: 'audited', ...(reason ? { reason } : {}), auditedVersion: `${f.name}@${f.version}`,
      installScripts: f.installScripts, hosts: f.hosts, binaries: f.binaries, dependencyCount: f.dependencyCount,
      curation, auditedAt: f.auditedAt,
    };
  }

  /** `inspect`, once per registry and name@version in this run. */
  private inspectOnce(registry: string, doc: Packument, version: string, req: { fetch?: Fetch; timeoutMs: number; token?: string }, auditedAt: string): Promise<PackageFacts | string> {
    const key = `${registry}\n${doc.name}@${version}`;
    let pending = this.inspections.get(key);
    if (!pending) {
      pending = this.inspect(doc, version, req, auditedAt);
      this.inspections.set(key, pending);
    }
    return pending;
  }

  /** The version's tarball, read: its facts, or why it could not be read. */
  private async inspect(doc: Packument, version: string, req: { fetch?: Fetch; timeoutMs: number; token?: string }, auditedAt: string): Promise<PackageFacts | string> {
    const meta = doc.versions![version]!;
    const url = meta.dist?.tarball;
    if (!url) return `the registry gives no tarball for ${doc.name}@${version}`;
    try {
      const gz = await fetchTarball(url, { ...req, token: tokenFor(this.config, url), maxBytes: this.opts.maxTarballBytes ?? 25_000_000 });
      const bad = integrityProblem(gz, meta.dist?.integrity, meta.dist?.shasum);
      if (bad) return `${doc.name}@${version}: ${bad}`;
      const files = await readTarball(gz, {
        maxUnpackedBytes: this.opts.maxUnpackedBytes ?? 150_000_000,
        maxTextBytes: this.opts.maxSourceBytes ?? 2_000_000,
        wantText: (p) => p === 'package.json' || isScannedSource(p),
      });
      const pkgJson = files.find((f) => f.path === 'package.json')?.text;
      // The package.json inside the tarball is what npm runs; the registry's copy stands in without one.
      const manifest = (pkgJson ? JSON.parse(pkgJson) : meta) as Manifest;
      return { name: doc.name, version, ...inspectPackage(manifest, files), auditedAt };
    } catch (err) {
      if (err instanceof RegistryError) return `the tarball could not be fetched: ${err.message}`;
      return `the tarball of ${doc.name}@${version} could not be read: ${(err as Error).message}`;
    }
  }
}

export async function auditServers(entries: readonly McpServerEntry[], opts: AuditOptions = {}): Promise<McpAudit[]> {
  const auditor = new NpmAuditor(opts);
  const limit = limiter(Math.max(1, opts.concurrency ?? 4));
  const byPackage = new Map<string, Promise<PackageAudit>>();
  const audits = await Promise.all(entries.map(async (server): Promise<McpAudit> => {
    const why = notChecked(server);
    const ref = server.package;
    if (why !== undefined || !ref) {
      return { server, status: 'not-checked', reason: why, inUseIsAudited: false, ...EMPTY, curation: { verdict: 'unknown' }, auditedAt: (opts.now?.() ?? new Date()).toISOString() };
    }
    const key = `${ref.name}@${ref.spec}`;
    let pending = byPackage.get(key);
    if (!pending) {
      pending = limit(() => auditor.audit(ref));
      byPackage.set(key, pending);
    }
    const result = await pending;
    const inUseIsAudited = result.status === 'audited' && ref.pinned && result.auditedVersion === `${ref.name}@${ref.version}`;
    return { server, ...result, inUseIsAudited };
  }));
  if (opts.stateDir && opts.writeLatest !== false) writeLatest(opts.stateDir, { at: (opts.now?.() ?? new Date()).toISOString(), audits });
  return audits;
}
