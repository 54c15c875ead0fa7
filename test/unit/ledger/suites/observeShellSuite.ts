/**
 * Terminal commands observed (govern.ts observeShell) on a backend. Run on the files
 * (observeShell.test.ts) and on PostgreSQL (pgBackend.test.ts) with the same assertions.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readEvents } from '../../../../src/core/base/events/read';
import { observeShell } from '../../../../src/core/ledger/govern';
import { readLedger } from '../../../../src/core/ledger/ledgerFormat';
import { makeRole } from '../../../fixtures/budget-role';

export function observeShellSuite(tmp: () => string): void {
  test('a terminal command is charged one shell call and logged with its exit code', async () => {
    const dir = tmp();
    const r = await observeShell(dir, { role: makeRole('coder'), command: 'npm test', exitCode: 1, cwd: '/w', source: 'terminal:bash' });
    assert.equal(r.violation, false);
    assert.equal(readLedger(dir)?.usage.shell, 1);
    const [e] = readEvents(dir, { types: ['ShellExecution'] }).events;
    assert.equal(e?.command, 'npm test');
    assert.equal(e?.exitCode, 1);
    assert.equal(readEvents(dir, { types: ['PolicyViolation'] }).events.length, 0);
  });

  test('under shell deny the command is still counted and recorded as a PolicyViolation', async () => {
    const dir = tmp();
    const role = { ...makeRole('reviewer', { maxShellInvocations: 0 }), shellPolicy: 'deny' as const };
    const r = await observeShell(dir, { role, command: 'rm -rf build', exitCode: 0, source: 'terminal:zsh' });
    assert.equal(r.violation, true);
    assert.equal(r.status.dimensions.shell.used, 1);
    assert.equal(r.status.signal, 'EXHAUSTED');
    const violations = readEvents(dir, { types: ['PolicyViolation'] }).events;
    assert.equal(violations.length, 1);
    assert.match(String(violations[0]?.reason), /rm -rf build/);
    assert.deepEqual(r.crossed.map((c) => `${c.dimension}:${c.to}`), ['shell:EXHAUSTED']);
  });
}
