/**
 * A package tarball read in memory, never written to disk: its integrity checked against the
 * registry's `dist.integrity` (or `shasum`), gunzipped with a cap on the unpacked size, and its
 * entries listed with their mode and, for sources and package.json, their text.
 */
import { gunzipSync } from 'node:zlib';
import { Parser } from 'tar/parse';
import type { ReadEntry } from 'tar/read-entry';
import { useNodeCrypto } from '../../base/crypto/nodeCrypto';

export interface TarFile {
  /** Inside the package, without npm's leading `package/` folder. */
  path: string;
  mode: number;
  size: number;
  /** The first bytes, enough to recognise a native binary. */
  head: Buffer;
  /** The whole text, for sources and package.json under the size cap. */
  text?: string;
}

export interface ReadTarballOptions {
  /** The most the unpacked archive may hold (a gzip bomb stops here). */
  maxUnpackedBytes: number;
  /** Files larger than this are listed but their text is not kept. */
  maxTextBytes: number;
  /** Which files' text to keep. */
  wantText: (path: string) => boolean;
}

/** `sha512-<base64>` (several space-separated allowed) or a hex sha1: undefined when it matches, else why not. */
export function integrityProblem(bytes: Buffer, integrity: string | undefined, shasum: string | undefined): string | undefined {
  const sris = (integrity ?? '').split(/\s+/).filter(Boolean).map((s) => /^(sha512|sha384|sha256|sha1)-(.+)$/.exec(s)).filter((m) => m !== null);
  if (sris.length > 0) {
    const ok = sris.some((m) => useNodeCrypto().createHash(m[1]!).update(bytes).digest('base64') === m[2]);
    return ok ? undefined : `the tarball does not match its integrity ${sris[0]![0]}`;
  }
  if (shasum) return useNodeCrypto().createHash('sha1').update(bytes).digest('hex') === shasum.toLowerCase() ? undefined : `the tarball does not match its shasum ${shasum}`;
  return 'the registry gives no integrity for the tarball';
}

/** Strips the archive's first folder (`package/` for npm's, sometimes another name). */
const inPackage = (p: string): string => p.replace(/^\.?\/?[^/]+\//, '');

export async function readTarball(gz: Buffer, opts: ReadTarballOptions): Promise<TarFile[]> {
  let tar: Buffer;
  try {
    tar = gunzipSync(gz, { maxOutputLength: opts.maxUnpackedBytes });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new Error(`it unpacks to more than ${opts.maxUnpackedBytes} bytes`, { cause: err });
    throw err;
  }
  const files: TarFile[] = [];
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile') {
        entry.resume();
        return;
      }
      const path = inPackage(entry.path);
      const keep = entry.size <= opts.maxTextBytes && opts.wantText(path);
      const chunks: Buffer[] = [];
      let headBytes = 0;
      entry.on('data', (c: Buffer) => {
        if (keep) chunks.push(c);
        else if (headBytes < 4) {
          chunks.push(c);
          headBytes += c.length;
        }
      });
      entry.on('end', () => {
        const body = Buffer.concat(chunks);
        files.push({ path, mode: entry.mode ?? 0o644, size: entry.size, head: body.subarray(0, 4), ...(keep ? { text: body.toString('utf8') } : {}) });
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    parser.on('error', reject);
    parser.on('end', () => resolve());
    parser.end(tar);
  });
  return files;
}
