import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkedText, readCheckedJson, writeCheckedJson } from '../../../../src/core/base/fs/checkedJson';

const tmpFile = (): string => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-checked-')), 'ledger.json');
const older = { version: 1, usage: { tokens: 1999, shell: 40 }, role: 'coder', recent: ['a', 'b', 'c'] };
const newer = { version: 1, usage: { tokens: 2000, shell: 41 }, role: 'coder' };

test('a value written in place reads back exactly, as plain JSON with its check last, the file 0600', () => {
  const file = tmpFile();
  writeCheckedJson(file, older);
  writeCheckedJson(file, newer);
  assert.deepEqual(readCheckedJson(file), { value: newer });
  const text = fs.readFileSync(file, 'utf8');
  assert.equal(text, checkedText(newer), 'the shorter value left nothing of the longer one behind');
  assert.match(text, /,\n {2}"check": "[0-9a-f]{8}"\n\}\n$/);
  if (process.platform !== 'win32') assert.equal(fs.statSync(file).mode & 0o777, 0o600);
});

test('a reader that catches a write halfway (new bytes over old) finds a mismatch, never a mixed value', () => {
  const file = tmpFile();
  const oldText = checkedText(older);
  const newText = checkedText(newer);
  // Every place a write could be cut: the new prefix over the rest of the old file.
  let refused = 0;
  for (let cut = 1; cut < newText.length; cut++) {
    fs.writeFileSync(file, newText.slice(0, cut) + oldText.slice(cut));
    const read = readCheckedJson(file);
    if ('value' in read) assert.ok([older, newer].some((v) => JSON.stringify(v) === JSON.stringify(read.value)), `cut at ${cut}: ${JSON.stringify(read.value)}`);
    else refused++;
  }
  assert.ok(refused > newText.length / 2, `most cuts are refused (${refused})`);
  // Written, not yet truncated: the new value followed by the old file's tail.
  fs.writeFileSync(file, newText + oldText.slice(newText.length));
  assert.ok('problem' in readCheckedJson(file));
});

test('a mixed value that is valid JSON (digits from the new, the rest from the old) is refused by its checksum', () => {
  const file = tmpFile();
  const oldText = checkedText(older);
  const at = oldText.indexOf('1999');
  fs.writeFileSync(file, oldText.slice(0, at) + '2999' + oldText.slice(at + 4));
  const read = readCheckedJson(file);
  assert.ok('problem' in read);
  assert.match(read.problem, /checksum does not match/);
});

test('a file without a check (written by hand) is taken as it is; a missing file is missing; bad JSON is a problem', () => {
  const file = tmpFile();
  assert.deepEqual(readCheckedJson(file), { missing: true });
  fs.writeFileSync(file, JSON.stringify(newer));
  assert.deepEqual(readCheckedJson(file), { value: newer });
  fs.writeFileSync(file, '{"version":');
  const read = readCheckedJson(file);
  assert.ok('problem' in read);
  assert.match(read.problem, /not valid JSON/);
});

test('a checked file reformatted by hand, its check still that of its value, is taken; a whole file is taken without serializing it again', (t) => {
  const file = tmpFile();
  const sum = /"check": "([0-9a-f]{8})"/.exec(checkedText(newer))![1];
  fs.writeFileSync(file, JSON.stringify({ ...newer, check: sum }));
  assert.deepEqual(readCheckedJson(file), { value: newer });
  writeCheckedJson(file, older);
  const stringify = t.mock.method(JSON, 'stringify');
  assert.deepEqual(readCheckedJson(file), { value: older });
  assert.equal(stringify.mock.callCount(), 0);
});

test('a symlink planted at the path is not written through', { skip: process.platform === 'win32' }, () => {
  const file = tmpFile();
  const elsewhere = path.join(path.dirname(file), 'elsewhere.json');
  fs.writeFileSync(elsewhere, 'untouched');
  fs.symlinkSync(elsewhere, file);
  assert.throws(() => writeCheckedJson(file, newer), /ELOOP/);
  assert.equal(fs.readFileSync(elsewhere, 'utf8'), 'untouched');
});
