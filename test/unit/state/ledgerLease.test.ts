/**
 * While the hook server keeps the state lock between uses, the ledger file is rewritten once, when the
 * lock is released: this process reads its newest ledger meanwhile, another process gets the lock only
 * after the file is written, and a process that ends without writing it loses no charge (the next
 * transaction folds the log in).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, test } from 'node:test';
import { authorize } from '../../../src/core/state/govern';
import { LEDGER_FILE, readLedger, settleLedger, stageLedger } from '../../../src/core/state/ledgerFormat';
import { transact } from '../../../src/core/state/ledgerStore';
import { holdLocksBetweenUses, LOCK_FILE } from '../../../src/core/state/lock';
import { stateDir } from '../../../src/core/state/paths';
import { makeRole, shellGate } from '../../fixtures/budget-role';

const ROOT = path.resolve(__dirname, '../../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
afterEach(() => holdLocksBetweenUses(0));

function freshState(): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-home-'));
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-ws-'));
  return stateDir(ws, { ALFRED_HOME: home });
}
const shellCall = (dir: string) => authorize(dir, { role: makeRole('coder'), tool: 'run_in_terminal', source: 'test', decide: shellGate });
const onDisk = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, LEDGER_FILE), 'utf8')).usage.shell as number;

test('during a lease the file waits, this process reads the newest ledger, and the lease\'s end writes it', async () => {
  const dir = freshState();
  await shellCall(dir); // a ledger on disk first, written at once (no lease)
  assert.equal(onDisk(dir), 1);
  holdLocksBetweenUses(300);
  await shellCall(dir);
  await shellCall(dir);
  assert.equal(onDisk(dir), 1, 'not rewritten while the lease holds');
  assert.equal(readLedger(dir)?.usage.shell, 3, 'this process sees its newest ledger');
  await sleep(600);
  assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), false);
  assert.equal(onDisk(dir), 3, 'written before the lock was released');
});

test('a transaction that throws leaves the kept ledger as it was', async () => {
  const dir = freshState();
  holdLocksBetweenUses(300);
  await shellCall(dir);
  await assert.rejects(transact(dir, 'coder', (ledger) => {
    ledger.usage.shell += 50;
    throw new Error('midway');
  }), /midway/);
  assert.equal(readLedger(dir)?.usage.shell, 1);
  await shellCall(dir);
  holdLocksBetweenUses(0);
  await sleep(50);
  assert.equal(onDisk(dir), 2);
});

test('another process waits for the lease and then counts on top of it: exact totals', async () => {
  const dir = freshState();
  holdLocksBetweenUses(300);
  await shellCall(dir);
  await shellCall(dir);
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', `
    const { authorize } = require(${JSON.stringify(path.join(ROOT, 'src/core/state/govern.ts'))});
    const { makeRole, shellGate } = require(${JSON.stringify(path.join(ROOT, 'test/fixtures/budget-role.ts'))});
    authorize(${JSON.stringify(dir)}, { role: makeRole('coder'), tool: 'run_in_terminal', source: 'other', decide: shellGate }).then(() => process.exit(0));
  `], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  assert.equal(await new Promise((r) => child.on('exit', r)), 0);
  holdLocksBetweenUses(0);
  await sleep(50);
  assert.equal(onDisk(dir), 3);
  assert.equal(readLedger(dir)?.usage.shell, 3);
});

test('a process that ends during its lease without writing the ledger loses no charge', async () => {
  const dir = freshState();
  await shellCall(dir);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/fixtures/lease-child.ts'), dir, '4'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  assert.equal(await new Promise((r) => child.on('exit', r)), 0);
  assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), false, 'its lock released on the way out');
  assert.equal(onDisk(dir), 1, 'its ledger was never written');
  await shellCall(dir);
  assert.equal(onDisk(dir), 6, '1 + 4 folded in from the log + 1');
});

test('a lost lock forgets the kept ledger instead of writing it', () => {
  const dir = freshState();
  fs.writeFileSync(path.join(dir, LEDGER_FILE), 'untouched');
  const ledger = { usage: { shell: 9 } } as unknown as Parameters<typeof stageLedger>[1];
  stageLedger(dir, ledger);
  settleLedger(dir, false);
  assert.equal(fs.readFileSync(path.join(dir, LEDGER_FILE), 'utf8'), 'untouched');
  assert.equal(readLedger(dir), undefined, 'nothing kept: the file (corrupt here) is what this process reads');
});
