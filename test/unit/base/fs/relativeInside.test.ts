import assert from 'node:assert/strict';
import { test } from 'node:test';
import { relativeInside } from '../../../../src/core/base/fs/relativeInside';

test('relativeInside: the path below the root with /, empty for the root, undefined outside it', () => {
  assert.equal(relativeInside('/home/ana', '/home/ana'), '');
  assert.equal(relativeInside('/home/ana', '/home/ana/.local/bin'), '.local/bin');
  assert.equal(relativeInside('/home/ana', '/home/ana/..cache/x'), '..cache/x', 'a name that starts with two dots is inside');
  assert.equal(relativeInside('/home/ana', '/home'), undefined);
  assert.equal(relativeInside('/home/ana', '/home/anabel/bin'), undefined);
  assert.equal(relativeInside('/home/ana', '/home/ana/../bob'), undefined);
  assert.equal(relativeInside('/home/ana', '/usr/bin'), undefined);
});
