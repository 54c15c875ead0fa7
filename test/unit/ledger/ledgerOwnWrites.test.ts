/**
 * A process takes the ledger from the text it last wrote while the file still holds exactly that
 * text, and from memory while its write waits for the end of the turn (lock.ts, deferUntilRelease).
 * Whatever another process wrote in between is read from the file, never hidden by this memory.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { checkedText } from '../../../src/core/base/fs/checkedJson';
import { LEDGER_FILE, newLedger, readLedger, writeLedger, type Ledger } from '../../../src/core/ledger/ledgerFormat';

const freshDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-own-writes-'));
const withShell = (shell: number): Ledger => ({ ...newLedger('coder', 0, '2026-01-01T00:00:00.000Z'), session: 's1', usage: { tokens: 0, shell, costUsd: 0 } });

test('another process\'s write is read from the file, whatever this process last wrote', () => {
  const dir = freshDir();
  writeLedger(dir, withShell(1));
  assert.equal(readLedger(dir)?.usage.shell, 1);
  // Another process (here: the file written behind this one's back), same size and all.
  fs.writeFileSync(path.join(dir, LEDGER_FILE), checkedText(withShell(7)));
  assert.equal(readLedger(dir)?.usage.shell, 7);
  fs.rmSync(path.join(dir, LEDGER_FILE));
  assert.equal(readLedger(dir), undefined);
});

test('a write handed over for later: read from memory until it is done; a newer one supersedes it', () => {
  const dir = freshDir();
  const later: Array<() => void> = [];
  const defer = (write: () => void) => (later.push(write), true);
  writeLedger(dir, withShell(1), defer);
  writeLedger(dir, withShell(2), defer);
  assert.equal(fs.existsSync(path.join(dir, LEDGER_FILE)), false, 'nothing written yet');
  assert.equal(readLedger(dir)?.usage.shell, 2);
  later[1]!();
  later[0]!(); // the older write, run last, leaves the newer ledger in place
  assert.equal(JSON.parse(fs.readFileSync(path.join(dir, LEDGER_FILE), 'utf8')).usage.shell, 2);
  assert.equal(readLedger(dir)?.usage.shell, 2);
});

test('a later write that fails: the file is read again from then on', () => {
  const dir = freshDir();
  writeLedger(dir, withShell(3));
  let write: (() => void) | undefined;
  writeLedger(dir, withShell(4), (w) => ((write = w), true));
  assert.equal(readLedger(dir)?.usage.shell, 4);
  // The file cannot be written over: a folder in its place.
  fs.rmSync(path.join(dir, LEDGER_FILE));
  fs.mkdirSync(path.join(dir, LEDGER_FILE));
  assert.throws(() => write!());
  fs.rmdirSync(path.join(dir, LEDGER_FILE));
  assert.equal(readLedger(dir), undefined, 'no ledger from memory once its write failed');
});

test('the ledger read back is a copy: changing it changes nothing kept', () => {
  const dir = freshDir();
  writeLedger(dir, withShell(5));
  readLedger(dir)!.usage.shell = 99;
  assert.equal(readLedger(dir)?.usage.shell, 5);
});
