import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Journal } from '../../../../src/core/base/fs/journal';

const tempDir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-journal-'));

test('a journal gives back what was appended; a batch not marked done is taken again, with what came since, until done() removes it', () => {
  const dir = tempDir();
  const journal = new Journal<{ id: number }>('pending');
  assert.equal(journal.has(dir), false);
  journal.append(dir, [{ id: 1 }, { id: 2 }]);
  journal.append(dir, [{ id: 3 }]);
  assert.equal(journal.has(dir), true);
  const first = journal.take(dir);
  assert.deepEqual(first.items, [{ id: 1 }, { id: 2 }, { id: 3 }]);
  // Not marked done (the other side did not take them): the replay file is taken again, with what came since.
  journal.append(dir, [{ id: 4 }]);
  const again = journal.take(dir);
  assert.deepEqual(again.items.map((i) => i.id).sort(), [1, 2, 3, 4]);
  again.done();
  assert.equal(journal.has(dir), false);
  assert.deepEqual(journal.take(dir).items, []);
});

test('a line a killed writer left torn loses only itself: the next append starts on a line of its own', () => {
  const dir = tempDir();
  const journal = new Journal<{ id: number }>('pending');
  journal.append(dir, [{ id: 1 }]);
  fs.appendFileSync(path.join(dir, journal.file), '{"id":2,"ha');
  journal.append(dir, [{ id: 3 }]);
  assert.deepEqual(journal.take(dir).items, [{ id: 1 }, { id: 3 }]);
});

test('a journal file is written 0600: what waits to be sent may name the user and the repository', () => {
  const dir = tempDir();
  const journal = new Journal<{ id: number }>('pending');
  journal.append(dir, [{ id: 1 }]);
  assert.equal(fs.statSync(path.join(dir, journal.file)).mode & 0o777, 0o600);
});
