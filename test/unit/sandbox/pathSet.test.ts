import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coveredBy, outermost } from '../../../src/core/sandbox/pathSet';

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
