import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { appendEvents } from '../../../src/core/base/events/append';
import { EVENTS_FILE, MAX_LINES, rotatedFile } from '../../../src/core/base/events/format';
import { newEventId } from '../../../src/core/base/events/ids';
import { readEvents } from '../../../src/core/base/events/read';
import { authorize } from '../../../src/core/ledger/govern';
import { foldLedger } from '../../../src/core/ledger/ledgerFold';
import { LEDGER_FILE, accountingOf, readLedger, readLedgerFile, writeLedger } from '../../../src/core/ledger/ledgerFormat';
import { LOCK_FILE } from '../../../src/core/base/state/lock';
import { stateDir } from '../../../src/core/base/state/paths';
import { makeRole, shellGate } from '../../fixtures/budget-role';
import { fixtureBundle } from '../../support/fixtureBundle';

const ROOT = path.resolve(__dirname, '../../..');
const CHILD = path.join(ROOT, 'test/fixtures/crash-child.ts');

function freshState(): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-home-'));
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-ws-'));
  return stateDir(ws, { ALFRED_HOME: home });
}

const shellCall = (dir: string) => authorize(dir, { role: makeRole('coder'), tool: 'run_in_terminal', source: 'test', decide: shellGate });

/** Runs the crash child to `point`; it must die by SIGKILL there, leaving its lock behind. */
function crashAt(dir: string, point: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fixtureBundle(CHILD), dir, point], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal === 'SIGKILL') resolve();
      else reject(new Error(`the child was not killed at ${point} (exit ${code}): ${out}`));
    });
  });
}

/** The dead child held the lock; nobody else runs, so its lock is removed rather than waited out (10 s). */
const dropDeadLock = (dir: string): void => fs.rmSync(path.join(dir, LOCK_FILE), { recursive: true, force: true });

async function assertLedgerIsTheLog(dir: string, shell: number): Promise<void> {
  const ledger = readLedger(dir)!;
  assert.deepEqual(ledger.usage, { tokens: 0, shell, costUsd: 0 });
  assert.deepEqual(accountingOf(ledger), accountingOf(await foldLedger(dir)));
}

// [point, shell calls the log holds after the crash (two before it), what a torn line leaves]
const POINTS: [string, number][] = [
  ['before-append', 2], // nothing of it reached the log
  ['torn-append', 2], // half a line: corrupt, skipped by every reader
  ['after-append', 3], // in the log, not in the ledger: caught up
  ['torn-ledger', 3], // half the ledger written over the old one: its checksum fails, it is rebuilt from the log
  ['after-ledger', 3],
];

for (const [point, logged] of POINTS) {
  test(`killed at ${point}: the next load equals the fold of the log and the next charge counts once`, { timeout: 60_000 }, async () => {
    const dir = freshState();
    await shellCall(dir);
    await shellCall(dir);
    await crashAt(dir, point);
    dropDeadLock(dir);
    const calls = readEvents(dir, { types: ['ToolCall'] }).events;
    assert.equal(calls.length, logged);
    if (point === 'torn-ledger') assert.match(readLedgerFile(dir).problem ?? 'whole', /checksum does not match|not valid JSON/);
    const next = await shellCall(dir);
    assert.equal(next.status.dimensions.shell.used, logged + 1);
    await assertLedgerIsTheLog(dir, logged + 1);
    assert.equal(readEvents(dir).corrupt.length, point === 'torn-append' ? 1 : 0);
    const again = await shellCall(dir);
    assert.equal(again.status.dimensions.shell.used, logged + 2);
    await assertLedgerIsTheLog(dir, logged + 2);
  });
}

test('killed between a rotation of the log and the ledger write: the rotated events are caught up', { timeout: 60_000 }, async () => {
  const dir = freshState();
  await shellCall(dir);
  await shellCall(dir);
  const l = readLedger(dir)!;
  writeLedger(dir, { ...l, eventLines: MAX_LINES }); // as if the file were full: the child's append rotates
  await crashAt(dir, 'after-append');
  dropDeadLock(dir);
  assert.equal(fs.readFileSync(rotatedFile(dir, 1), 'utf8').split('\n').length, 3, 'two lines and the final newline were rotated');
  assert.equal(fs.readFileSync(path.join(dir, EVENTS_FILE), 'utf8').split('\n').length, 2, 'the child\'s line starts the new file');
  const next = await shellCall(dir);
  assert.equal(next.status.dimensions.shell.used, 4);
  await assertLedgerIsTheLog(dir, 4);
  assert.equal(readLedger(dir)!.eventLines, 2);
});

test('killed after a rotation, before its append: nothing is beyond and nothing is counted twice', { timeout: 60_000 }, async () => {
  const dir = freshState();
  await shellCall(dir);
  const l = readLedger(dir)!;
  writeLedger(dir, { ...l, eventLines: MAX_LINES });
  await crashAt(dir, 'before-append');
  dropDeadLock(dir);
  assert.equal(fs.existsSync(path.join(dir, EVENTS_FILE)), false, 'rotated, not yet appended');
  const next = await shellCall(dir);
  assert.equal(next.status.dimensions.shell.used, 2);
  await assertLedgerIsTheLog(dir, 2);
});

test('the common case reads no event: a ledger whose end matches the log is taken as it stands', async () => {
  const dir = freshState();
  await shellCall(dir);
  const l = readLedger(dir)!;
  assert.equal(l.eventBytes, fs.statSync(path.join(dir, EVENTS_FILE)).size);
  // A ledger that says more than the log holds is believed as long as the log's end matches its own:
  // nothing beyond, so nothing is read or folded.
  writeLedger(dir, { ...l, usage: { ...l.usage, shell: 40 } });
  assert.equal((await shellCall(dir)).status.dimensions.shell.used, 41);
});

test('a ledger written before its end of the log was recorded is trusted as it stands', async () => {
  const dir = freshState();
  await shellCall(dir);
  const { eventBytes: _b, eventIno: _i, ...old } = readLedger(dir)!;
  fs.writeFileSync(path.join(dir, LEDGER_FILE), JSON.stringify({ ...old, usage: { ...old.usage, shell: 7 } }));
  fs.appendFileSync(path.join(dir, EVENTS_FILE), fs.readFileSync(path.join(dir, EVENTS_FILE)));
  assert.equal((await shellCall(dir)).status.dimensions.shell.used, 8, 'its place in the log is unknown: nothing is folded twice');
  assert.equal(readLedger(dir)!.eventBytes, fs.statSync(path.join(dir, EVENTS_FILE)).size, 'and from now on it is known');
});

test('a second holder of the lock (a takeover race of a dead holder\'s lock) appends during a transaction: its charge is not lost', async () => {
  const dir = freshState();
  await shellCall(dir);
  await shellCall(dir);
  // proper-lockfile takes over a stale lock with stat, rmdir, mkdir: two waiters can both get it.
  // Here the other holder's charged call lands in the log while this transaction runs.
  const theirs = readEvents(dir, { types: ['ToolCall'] }).events.at(-1)!;
  const result = await authorize(dir, {
    role: makeRole('coder'), tool: 'run_in_terminal', source: 'test',
    decide: (budget) => {
      appendEvents(dir, [{ ...theirs, id: newEventId() }]);
      return shellGate(budget);
    },
  });
  assert.equal(result.decision.allowed, true);
  await assertLedgerIsTheLog(dir, 4);
  await shellCall(dir);
  await assertLedgerIsTheLog(dir, 5);
});

/**
 * Runs one charged shell call while a second holder of the lock appends its own charged call at
 * `moment` of this transaction's append (the file functions are replaced for that one call).
 */
async function chargeWhileAnotherAppends(dir: string, moment: 'before-our-write' | 'after-our-write' | 'half-seen'): Promise<void> {
  const log = path.join(dir, EVENTS_FILE);
  const theirs = JSON.stringify({ ...readEvents(dir, { types: ['ToolCall'] }).events.at(-1)!, id: newEventId() }) + '\n';
  const isOurs = (fd: unknown): boolean => typeof fd === 'number' && fs.fstatSync(fd).ino === fs.statSync(log).ino;
  let landed = false;
  const land = (bytes = theirs) => {
    fs.writeFileSync(log, bytes, { flag: 'a' });
    landed = true;
  };
  const appendFileSync = fs.appendFileSync;
  const openSync = fs.openSync;
  if (moment === 'half-seen') {
    // Half of their line is in the file when this transaction folds the log; the rest comes before our append.
    land(theirs.slice(0, theirs.length >> 1));
    landed = false;
    mock.method(fs, 'openSync', (file: fs.PathLike, flags?: fs.OpenMode, mode?: fs.Mode) => {
      if (!landed && String(file) === log && flags === 'a+') land(theirs.slice(theirs.length >> 1));
      return openSync(file, flags ?? 'r', mode);
    });
  } else {
    mock.method(fs, 'appendFileSync', (file: fs.PathOrFileDescriptor, data: string | Uint8Array, options?: fs.WriteFileOptions) => {
      const first = !landed && isOurs(file);
      if (first && moment === 'before-our-write') land();
      appendFileSync(file, data, options);
      if (first && moment === 'after-our-write') land();
    });
  }
  try {
    const result = await shellCall(dir);
    assert.equal(result.decision.allowed, true);
  } finally {
    mock.restoreAll();
  }
  assert.equal(landed, true, 'the other holder\'s call was written');
}

const MOMENTS = {
  'before-our-write': 'between a transaction\'s look at the log and its own write',
  'after-our-write': 'right after a transaction\'s own write',
  'half-seen': 'half written when a transaction reads the log, finished before its own write',
} as const;

for (const [moment, when] of Object.entries(MOMENTS) as [keyof typeof MOMENTS, string][]) {
  test(`a second holder of the lock appends a charged call ${when}: the ledger counts it once`, async () => {
    const dir = freshState();
    await shellCall(dir);
    await shellCall(dir);
    await chargeWhileAnotherAppends(dir, moment);
    assert.equal(readEvents(dir, { types: ['ToolCall'] }).events.length, 4);
    await assertLedgerIsTheLog(dir, 4);
    await shellCall(dir);
    await assertLedgerIsTheLog(dir, 5);
  });
}
