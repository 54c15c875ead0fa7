/**
 * While the hook server keeps the state lock between uses, the ledger stays exact for everyone: the
 * file is current once the turn of each transaction is over (readers without the lock see it; in the
 * process itself at once), another process gets the lock once the lease ends and counts on top, and a
 * process that ends during its lease writes its last ledger and releases the lock.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, test } from 'node:test';
import { authorize } from '../../../src/core/ledger/govern';
import { foldLedger } from '../../../src/core/ledger/ledgerFold';
import { LEDGER_FILE, readLedger } from '../../../src/core/ledger/ledgerFormat';
import { holdLocksBetweenUses, LOCK_FILE } from '../../../src/core/base/state/lock';
import { stateDir } from '../../../src/core/base/state/paths';
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
/** The shell calls the file on disk counts (0: no file yet). */
const onDisk = (dir: string) => {
  const file = path.join(dir, LEDGER_FILE);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')).usage.shell as number : 0;
};

test('during a lease the ledger is current after each transaction: in this process at once, on disk once the turn that charged is over', async () => {
  const dir = freshState();
  holdLocksBetweenUses(300);
  for (let i = 1; i <= 3; i++) {
    await shellCall(dir);
    assert.equal(readLedger(dir)?.usage.shell, i);
    // The hook server's answer goes out in this turn; the file is written right after it.
    assert.equal(onDisk(dir), i - 1);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(onDisk(dir), i);
  }
  assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), true, 'the lock kept meanwhile');
  await sleep(600);
  assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), false, 'released when the lease ran out');
});

test('another process waits for the lease and then counts on top of it: exact totals', async () => {
  const dir = freshState();
  holdLocksBetweenUses(300);
  await shellCall(dir);
  await shellCall(dir);
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', `
    const { authorize } = require(${JSON.stringify(path.join(ROOT, 'src/core/ledger/govern.ts'))});
    const { makeRole, shellGate } = require(${JSON.stringify(path.join(ROOT, 'test/fixtures/budget-role.ts'))});
    authorize(${JSON.stringify(dir)}, { role: makeRole('coder'), tool: 'run_in_terminal', source: 'other', decide: shellGate }).then(() => process.exit(0));
  `], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  assert.equal(await new Promise((r) => child.on('exit', r)), 0);
  holdLocksBetweenUses(0);
  await sleep(50);
  assert.equal(onDisk(dir), 3);
  assert.equal(readLedger(dir)?.usage.shell, 3);
});

test('a process that ends during its lease releases the lock and loses no charge', async () => {
  const dir = freshState();
  await shellCall(dir);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/fixtures/lease-child.ts'), dir, '4'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  assert.equal(await new Promise((r) => child.on('exit', r)), 0);
  assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), false, 'its lock released on the way out');
  assert.equal(onDisk(dir), 5);
  await shellCall(dir);
  assert.equal(onDisk(dir), 6);
});

test('a process killed right after its last charge, before its ledger write: the log has the charge, and the next transaction counts it', async () => {
  const dir = freshState();
  await shellCall(dir);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/fixtures/lease-child.ts'), dir, '4', 'kill'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  assert.equal(await new Promise((r) => child.on('exit', (_code, signal) => r(signal))), 'SIGKILL');
  assert.equal(onDisk(dir), 4, 'its last ledger was not written');
  assert.equal((await foldLedger(dir))?.usage.shell, 5, 'its last charge is in the log');
  // Its lock, left behind, would be taken over once stale (10 s); removed here instead.
  fs.rmdirSync(path.join(dir, LOCK_FILE));
  await shellCall(dir);
  assert.equal(onDisk(dir), 6);
});
