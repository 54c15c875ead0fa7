/**
 * The npm registry's answers the audit needs: a package's full metadata (the packument, with `time`),
 * a tarball's bytes, and weekly downloads where the registry has a downloads API. Every request has a
 * timeout; a failure is a RegistryError whose message says which URL and why.
 */

export type Fetch = typeof fetch;

export interface PackumentVersion {
  name?: string;
  version: string;
  deprecated?: string;
  scripts?: Record<string, unknown>;
  bin?: string | Record<string, string>;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  dist?: { tarball?: string; integrity?: string; shasum?: string };
}

export interface Packument {
  name: string;
  'dist-tags'?: Record<string, string>;
  versions?: Record<string, PackumentVersion>;
  time?: Record<string, string>;
}

export class RegistryError extends Error {
  /** The HTTP status of the registry's answer; undefined when it did not answer (refused, unreachable, timed out). */
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

export interface RequestOptions {
  fetch?: Fetch;
  timeoutMs: number;
  token?: string;
}

async function get(url: string, opts: RequestOptions, accept: string): Promise<Response> {
  const headers: Record<string, string> = { accept };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let res: Response;
  try {
    res = await (opts.fetch ?? fetch)(url, { headers, signal: AbortSignal.timeout(opts.timeoutMs), redirect: 'follow' });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const why = e.name === 'TimeoutError' ? `no answer within ${opts.timeoutMs} ms` : e.cause?.code ?? e.cause?.message ?? e.message;
    throw new RegistryError(`${url}: ${why}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new RegistryError(`${url}: HTTP ${res.status}${res.status === 404 ? ' (not found)' : ''}`, res.status);
  }
  return res;
}

/** `@scope/name` travels as `@scope%2fname`, as npm sends it. */
export function packumentUrl(registry: string, name: string): string {
  return `${registry}${name.replace('/', '%2f')}`;
}

export async function fetchPackument(registry: string, name: string, opts: RequestOptions): Promise<Packument> {
  const url = packumentUrl(registry, name);
  const res = await get(url, opts, 'application/json');
  try {
    const doc = (await res.json()) as Packument;
    if (typeof doc !== 'object' || doc === null || typeof doc.versions !== 'object') throw new Error('no versions');
    return doc;
  } catch (err) {
    throw new RegistryError(`${url}: not a package's metadata (${(err as Error).message})`, res.status);
  }
}

/** A tarball's bytes, refused past `maxBytes` (a package that large is reported, not read). */
export async function fetchTarball(url: string, opts: RequestOptions & { maxBytes: number }): Promise<Buffer> {
  const res = await get(url, opts, 'application/octet-stream');
  const declared = Number(res.headers.get('content-length'));
  if (declared > opts.maxBytes) {
    await res.body?.cancel();
    throw new RegistryError(`${url}: ${declared} bytes, more than the ${opts.maxBytes} the audit reads`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of res.body ?? []) {
      total += (chunk as Uint8Array).length;
      if (total > opts.maxBytes) throw new RegistryError(`${url}: more than the ${opts.maxBytes} bytes the audit reads`);
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
  } catch (err) {
    if (err instanceof RegistryError) throw err;
    throw new RegistryError(`${url}: ${(err as Error).name === 'TimeoutError' ? `not received within ${opts.timeoutMs} ms` : (err as Error).message}`);
  }
  return Buffer.concat(chunks);
}

/** npm's public registry has a downloads API; another registry has none that Alfred knows of. */
export function downloadsApiFor(registry: string): string | undefined {
  return /^https?:\/\/registry\.npmjs\.(org|com)\/$/.test(registry) ? 'https://api.npmjs.org/' : undefined;
}

/** `/downloads/point/last-week/<name>` → its `downloads`. */
export async function fetchWeeklyDownloads(api: string, name: string, opts: RequestOptions): Promise<number> {
  const url = `${api.endsWith('/') ? api : `${api}/`}downloads/point/last-week/${name}`;
  const res = await get(url, { ...opts, token: undefined }, 'application/json');
  const body = (await res.json().catch(() => undefined)) as { downloads?: unknown } | undefined;
  if (typeof body?.downloads !== 'number') throw new RegistryError(`${url}: no "downloads" number in the answer`);
  return body.downloads;
}
