/**
 * SHA-256 as lowercase hex, the one way Alfred hashes (state folder names, call and policy
 * fingerprints, probe keys). Without Node's crypto loaded (see nodeCrypto.ts) it is @noble/hashes'
 * audited JavaScript implementation: the same digest, fast enough for the short inputs of a hook call.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { loadedNodeCrypto } from './nodeCrypto';

export interface Sha256 {
  update(data: string | Uint8Array): Sha256;
  hex(): string;
}

export function sha256Hex(data: string | Uint8Array): string {
  return sha256Hasher().update(data).hex();
}

/** A digest fed in parts (strings as UTF-8). */
export function sha256Hasher(): Sha256 {
  const native = loadedNodeCrypto();
  if (native) {
    const hash = native.createHash('sha256');
    const parts: Sha256 = { update: (data) => (hash.update(data), parts), hex: () => hash.digest('hex') };
    return parts;
  }
  const hash = sha256.create();
  const parts: Sha256 = { update: (data) => (hash.update(typeof data === 'string' ? utf8ToBytes(data) : data), parts), hex: () => bytesToHex(hash.digest()) };
  return parts;
}
