/**
 * Hashes and random ids without Node's crypto (a one-shot hook process), then with it (a process
 * that called useNodeCrypto): the same digests, the same id format. The order matters: the module
 * keeps Node's crypto once loaded, so the JavaScript ways are tested first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { loadedNodeCrypto, useNodeCrypto } from '../../../../src/core/base/crypto/nodeCrypto';
import { randomBytes, randomHex, randomUuid } from '../../../../src/core/base/crypto/random';
import { sha256Hasher, sha256Hex } from '../../../../src/core/base/crypto/sha256';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
// FIPS 180-2's examples, and text with characters outside ASCII (hashed as UTF-8).
const VECTORS: [string, string][] = [
  ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
];

function checkHashes(): void {
  for (const [text, hex] of VECTORS) {
    assert.equal(sha256Hex(text), hex);
    assert.equal(sha256Hex(Buffer.from(text)), hex);
  }
  const text = '/home/ana/projets/été ✓\0x';
  assert.equal(sha256Hex(text), createHash('sha256').update(text).digest('hex'));
  // In parts, strings and bytes mixed: the digest of the whole.
  const bytes = Buffer.from([0, 1, 2, 255]);
  assert.equal(sha256Hasher().update('12:').update(text).update(bytes).hex(), createHash('sha256').update('12:').update(text).update(bytes).digest('hex'));
}

function checkIds(): void {
  const ids = new Set<string>();
  // 200 ids take 3,200 random bytes: the pool is refilled on the way.
  for (let i = 0; i < 200; i++) {
    const id = randomUuid();
    assert.match(id, UUID_V4);
    ids.add(id);
  }
  assert.equal(ids.size, 200);
  assert.match(randomHex(3), /^[0-9a-f]{6}$/);
  assert.equal(randomBytes(5000).length, 5000);
  assert.notDeepEqual(randomBytes(32), randomBytes(32));
}

test('without Node\'s crypto: SHA-256 gives the standard digests, ids are distinct version 4 UUIDs', () => {
  assert.equal(loadedNodeCrypto(), undefined, 'nothing here loaded Node\'s crypto yet');
  checkHashes();
  checkIds();
  assert.equal(loadedNodeCrypto(), undefined, 'still not loaded');
});

test('bytes handed out are not handed out again', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 300; i++) seen.add(randomHex(8));
  assert.equal(seen.size, 300);
});

test('with Node\'s crypto loaded: the same digests and id format', () => {
  assert.ok(useNodeCrypto().createHash);
  assert.ok(loadedNodeCrypto());
  checkHashes();
  checkIds();
});
