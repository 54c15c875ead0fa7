/**
 * Twenty processes deciding at once against one budget on a backend: exactly ten allowed, each at its
 * own count, the ledger and the log exact. Run on the files (concurrency.test.ts) and on PostgreSQL
 * (pgBackend.test.ts) with the same assertions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EVENTS_FILE } from '../../../../src/core/base/events/format';
import { readEvents } from '../../../../src/core/base/events/read';
import { readLedger } from '../../../../src/core/ledger/ledgerFormat';
import { fixtureBundle } from '../../../support/fixtureBundle';

const ROOT = path.resolve(__dirname, '../../../..');
const CHILD = path.join(ROOT, 'test/fixtures/authorize-child.ts');
const PROCESSES = 20;

interface Child { out: string; err: string; code: number | null }

export interface ConcurrencyBackend {
  /** A fresh state folder under `home` (its ALFRED_HOME) on the backend. */
  freshState(home: string): string;
  /** What the child processes need in their environment to use the backend. */
  env: () => NodeJS.ProcessEnv;
}

export function concurrencySuite(backend: ConcurrencyBackend): void {
  test(`${PROCESSES} processes authorizing at once against max_shell_invocations = 10`, { timeout: 120_000 }, async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-home-'));
    const dir = backend.freshState(home);

    let ready = 0;
    let releaseAll!: () => void;
    const allReady = new Promise<void>((r) => (releaseAll = r));
    const children = Array.from({ length: PROCESSES }, () => {
      const proc = spawn(process.execPath, [fixtureBundle(CHILD), dir], { cwd: ROOT, env: { ...process.env, ...backend.env(), ALFRED_HOME: home } });
      const result: Child = { out: '', err: '', code: null };
      proc.stdout.setEncoding('utf8').on('data', (d: string) => {
        result.out += d;
        if (result.out === 'ready\n' && ++ready === PROCESSES) releaseAll();
      });
      proc.stderr.setEncoding('utf8').on('data', (d: string) => (result.err += d));
      const done = new Promise<Child>((resolve) => proc.on('close', (code) => resolve({ ...result, code })));
      return { proc, done };
    });
    // Start every authorize at the same moment, once all 20 have loaded.
    await allReady;
    for (const c of children) c.proc.stdin.end('go\n');
    const results = await Promise.all(children.map((c) => c.done));

    for (const r of results) assert.equal(r.code, 0, r.err);
    const decisions = results.map((r) => JSON.parse(r.out.split('\n')[1]!) as { allowed: boolean; shell: number });
    assert.equal(decisions.filter((d) => d.allowed).length, 10, 'exactly 10 allowed');
    assert.equal(decisions.filter((d) => !d.allowed).length, 10, 'exactly 10 refused');
    // Each allowed call saw a distinct shell count 1..10: no two charged the same slot.
    assert.deepEqual(decisions.filter((d) => d.allowed).map((d) => d.shell).sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

    const ledger = readLedger(dir)!;
    assert.equal(ledger.usage.shell, 10);

    const text = fs.readFileSync(path.join(dir, EVENTS_FILE), 'utf8');
    assert.ok(text.endsWith('\n'));
    const lines = text.slice(0, -1).split('\n');
    for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), `torn line: ${line}`);
    const { events, corrupt } = readEvents(dir);
    assert.deepEqual(corrupt, []);
    const calls = events.filter((e) => e.type === 'ToolCall');
    assert.equal(calls.length, PROCESSES);
    assert.equal(calls.filter((e) => e.decision === 'allow').length, 10);
    assert.equal(events.filter((e) => e.type === 'PolicyViolation').length, 10);
    assert.equal(events.filter((e) => e.type === 'BudgetWarning').length, 1);
    assert.equal(events.filter((e) => e.type === 'BudgetExhausted').length, 1);
    assert.equal(new Set(events.map((e) => e.session)).size, 1, 'one session: only the first process started it');
    assert.equal(ledger.eventLines, lines.length);
    assert.equal(fs.existsSync(path.join(dir, 'ledger.lock')), false, 'the lock was released');
  });
}
