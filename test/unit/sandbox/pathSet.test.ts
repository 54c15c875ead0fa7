import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { coveredBy, normalized, outermost } from '../../../src/core/sandbox/pathSet';

test('outermost keeps each covered path once, parents before children, and never a sibling that only shares a prefix', () => {
  assert.deepEqual(
    outermost(['/w/a/b', '/w/a', '/w/ab', '/w/a/b/c', 'relative/x', '/w/ab/', '/x/y/../z', '/x/z/q', '/w/a']),
    ['/w/a', '/w/ab', '/x/z'],
  );
});

test('the root covers everything, and stays itself', () => {
  assert.deepEqual(outermost(['/a/b', '/', '/c']), ['/']);
  assert.deepEqual(outermost(['/']), ['/']);
  assert.deepEqual(outermost([]), []);
});

test('coveredBy: the path itself or an ancestor in the set, never a prefix sibling', () => {
  const set = new Set(['/w/a', '/x']);
  assert.deepEqual(['/w/a', '/w/a/b/c', '/w/ab', '/w', '/x/y', '/xy', '/'].map((p) => coveredBy(p, set)), [true, true, false, false, true, false, false]);
  assert.equal(coveredBy('/anything', new Set(['/'])), true);
});

test('normalized gives what path.resolve gives for an absolute path, resolving only those that need it', { skip: path.sep !== '/' && 'POSIX paths' }, () => {
  const paths = ['/', '//', '/a', '/a/', '/a//b', '/a/./b', '/a/../b', '/a/..', '/a/.', '/.a', '/a/.b/..c', '/a/b.', '/a/..b/c', '/..', '/a/b/../../..', '/.config/git', '/a/.../b', '///a'];
  for (const p of paths) assert.equal(normalized(p), path.resolve(p), p);
});
