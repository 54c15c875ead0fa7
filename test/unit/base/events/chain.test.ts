/**
 * The event log's hash chain (core/base/events/chain.ts): every line names the one before it, across
 * rotated files; editing, deleting or reordering a line is found and named; many processes appending
 * at once (under the state lock, as every writer does) keep one valid chain.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { appendEvents } from '../../../../src/core/base/events/append';
import { GENESIS, lineHash, verifyChain } from '../../../../src/core/base/events/chain';
import { EVENTS_FILE, MAX_LINES, rotatedFile } from '../../../../src/core/base/events/format';
import type { AlfredEvent } from '../../../../src/core/base/events/types';
import { recordEvents } from '../../../../src/core/ledger/ledgerStore';

const ROOT = path.resolve(__dirname, '../../../..');
const tempState = () => fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-chain-'));
const ev = (i: number): AlfredEvent => ({ id: `e${i}`, ts: '2026-01-01T00:00:00.000Z', type: 'ConfigWritten', session: 's', role: 'coder', n: i });
const lines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
const writeLines = (file: string, ls: string[]) => fs.writeFileSync(file, ls.map((l) => `${l}\n`).join(''));

async function fiveEvents(): Promise<string> {
  const dir = tempState();
  for (let i = 0; i < 5; i++) await recordEvents(dir, 'coder', [{ type: 'ConfigWritten', n: i }]);
  return dir;
}

test('each line names the hash of the one before it, the first GENESIS; the chain verifies', async () => {
  const dir = await fiveEvents();
  const ls = lines(path.join(dir, EVENTS_FILE));
  assert.equal(ls.length, 5);
  assert.equal(JSON.parse(ls[0]!).prev, GENESIS);
  for (let i = 1; i < ls.length; i++) assert.equal(JSON.parse(ls[i]!).prev, lineHash(ls[i - 1]!));
  assert.deepEqual(verifyChain(dir), { ok: true, lines: 5, files: [path.join(dir, EVENTS_FILE)], unchained: 0, anchored: 'genesis' });
});

test('an edited, a deleted and a reordered line are each found, naming the first line whose link breaks', async () => {
  const file = (dir: string) => path.join(dir, EVENTS_FILE);
  const edited = await fiveEvents();
  const e = lines(file(edited));
  e[1] = e[1]!.replace('"n":1', '"n":7');
  writeLines(file(edited), e);
  assert.deepEqual(verifyChain(edited), { ok: false, file: file(edited), line: 3, lines: 3, problem: 'prev does not match the line before it: that line was changed, or lines between them were removed or reordered' });

  const deleted = await fiveEvents();
  writeLines(file(deleted), lines(file(deleted)).filter((_l, i) => i !== 2));
  assert.equal((verifyChain(deleted) as { line: number }).line, 3);

  const reordered = await fiveEvents();
  const r = lines(file(reordered));
  [r[3], r[4]] = [r[4]!, r[3]!];
  writeLines(file(reordered), r);
  assert.equal((verifyChain(reordered) as { line: number }).line, 4);

  const firstGone = await fiveEvents();
  writeLines(file(firstGone), lines(file(firstGone)).slice(1));
  assert.deepEqual(verifyChain(firstGone), { ok: false, file: file(firstGone), line: 1, lines: 1, problem: 'the first line of the chain does not start it (lines before it were removed)' });

  const unlinked = await fiveEvents();
  const u = lines(file(unlinked));
  const { prev: _p, ...rest } = JSON.parse(u[2]!) as Record<string, unknown>;
  u[2] = JSON.stringify(rest);
  writeLines(file(unlinked), u);
  assert.equal((verifyChain(unlinked) as { problem: string }).problem, 'the line has no prev: a line of its own put in the chain, or its link removed');
});

test('rotation keeps the chain: events.jsonl\'s first line names events.1.jsonl\'s last; a change there is found across the files', () => {
  const dir = tempState();
  let count = 0;
  for (let batch = 0; batch < MAX_LINES / 500 + 1; batch++) {
    const appended = appendEvents(dir, Array.from({ length: 500 }, () => ev(count++)), batch === 0 ? 0 : undefined);
    if (batch === MAX_LINES / 500) assert.equal(appended.rotated, true);
  }
  const older = lines(rotatedFile(dir, 1));
  const newer = lines(path.join(dir, EVENTS_FILE));
  assert.deepEqual([older.length, newer.length], [MAX_LINES, 500]);
  assert.equal(JSON.parse(newer[0]!).prev, lineHash(older.at(-1)!));
  assert.deepEqual(verifyChain(dir), { ok: true, lines: MAX_LINES + 500, files: [rotatedFile(dir, 1), path.join(dir, EVENTS_FILE)], unchained: 0, anchored: 'genesis' });
  older[older.length - 1] = older.at(-1)!.replace(`"n":${MAX_LINES - 1}`, '"n":0');
  writeLines(rotatedFile(dir, 1), older);
  const broken = verifyChain(dir);
  assert.deepEqual(broken.ok ? undefined : [broken.file, broken.line], [path.join(dir, EVENTS_FILE), 1]);
});

test('lines written before the chain existed are counted apart, and the chain starts after them', () => {
  const dir = tempState();
  writeLines(path.join(dir, EVENTS_FILE), [JSON.stringify(ev(0)), JSON.stringify(ev(1))]);
  appendEvents(dir, [ev(2), ev(3)]);
  const verdict = verifyChain(dir);
  assert.deepEqual(verdict.ok && [verdict.lines, verdict.unchained], [4, 2]);
  assert.equal(JSON.parse(lines(path.join(dir, EVENTS_FILE))[2]!).prev, lineHash(JSON.stringify(ev(1))));
});

test('eight processes appending at once, 25 batches each, leave one valid chain of every line', async () => {
  const dir = tempState();
  const script = `const { recordEvents } = require(${JSON.stringify(path.join(ROOT, 'src/core/ledger/ledgerStore.ts'))});
(async () => { for (let i = 0; i < 25; i++) await recordEvents(process.argv[1], 'coder', [{ type: 'ConfigWritten', writer: process.pid, i }, { type: 'CheckRun', i }]); })();`;
  await Promise.all(Array.from({ length: 8 }, () => new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script, dir], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(err))));
  })));
  const verdict = verifyChain(dir);
  assert.deepEqual(verdict.ok && [verdict.lines, verdict.unchained], [8 * 25 * 2, 0], JSON.stringify(verdict));
});

test('a line another process appended after this one\'s is chained onto, although this process remembers the head it left', () => {
  const dir = tempState();
  const file = path.join(dir, EVENTS_FILE);
  appendEvents(dir, [ev(1)]);
  // Another process's append, as its appendEvents writes it: linked to the line on disk.
  const other = JSON.stringify({ id: 'other', ts: '2026-01-01T00:00:00.000Z', type: 'CheckRun', session: 's', role: 'coder', prev: lineHash(lines(file)[0]!) });
  fs.appendFileSync(file, `${other}\n`);
  appendEvents(dir, [ev(3)]);
  appendEvents(dir, [ev(4)]);
  const ls = lines(file);
  assert.deepEqual(ls.slice(1).map((l) => JSON.parse(l).prev), [lineHash(ls[0]!), lineHash(other), lineHash(ls[2]!)]);
  assert.equal(verifyChain(dir).ok, true);
});

test('a last line longer than the blocks read from the log\'s end is found whole, blank lines after it passed over', async () => {
  for (const size of [10, 4_090, 4_200, 30_000, 200_000]) {
    const dir = tempState();
    await recordEvents(dir, 'coder', [{ type: 'ConfigWritten', n: 0 }]);
    await recordEvents(dir, 'coder', [{ type: 'ConfigWritten', note: 'x'.repeat(size) }]);
    const file = path.join(dir, EVENTS_FILE);
    fs.appendFileSync(file, '\n  \n');
    await recordEvents(dir, 'coder', [{ type: 'ConfigWritten', n: 2 }]);
    const ls = lines(file).filter((l) => l.trim() !== '');
    assert.equal(JSON.parse(ls[2]!).prev, lineHash(ls[1]!), `a ${size}-character note`);
    assert.equal(verifyChain(dir).ok, true);
  }
});
