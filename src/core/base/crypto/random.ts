/**
 * Random identifiers (event and session ids, file name suffixes). Without Node's crypto loaded (see
 * nodeCrypto.ts) the bytes come from the kernel's random device, read a pool at a time; where there
 * is none (Windows), Node's crypto is loaded after all.
 */
import * as fs from 'node:fs';
import { loadedNodeCrypto, useNodeCrypto } from './nodeCrypto';

const POOL_BYTES = 1024;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

function fromDevice(buf: Buffer): boolean {
  if (process.platform === 'win32') return false;
  let fd: number | undefined;
  try {
    fd = fs.openSync('/dev/urandom', 'r');
    for (let n = 0; n < buf.length;) {
      const read = fs.readSync(fd, buf, n, buf.length - n, null);
      if (read <= 0) return false;
      n += read;
    }
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** `count` random bytes (a fresh Buffer). */
export function randomBytes(count: number): Buffer {
  const native = loadedNodeCrypto();
  if (native) return native.randomBytes(count);
  const out = Buffer.alloc(count);
  if (count > POOL_BYTES) {
    if (!fromDevice(out)) useNodeCrypto().randomFillSync(out);
    return out;
  }
  if (used + count > POOL_BYTES) {
    if (!fromDevice(pool)) return useNodeCrypto().randomBytes(count);
    used = 0;
  }
  pool.copy(out, 0, used, used + count);
  // Handed out once: the bytes are wiped from the pool.
  pool.fill(0, used, used + count);
  used += count;
  return out;
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** A version 4 UUID (RFC 9562), as crypto.randomUUID() gives. */
export function randomUuid(): string {
  const native = loadedNodeCrypto();
  if (native) return native.randomUUID();
  const b = randomBytes(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
