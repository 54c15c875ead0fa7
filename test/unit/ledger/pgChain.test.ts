/**
 * The PostgreSQL trail's hash chain (migration 005, ledger/pgLedger/pgChain.ts), on a private server
 * (test/support/postgres.ts): events written through the PostgreSQL ledger are linked row by row,
 * two state folders writing one scope at once leave one chain, and an edited, a deleted or a
 * reordered row is found and named by its seq.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { LedgerBackend } from '../../../src/core/ledger/ledgerBackend';
import { recordEvents } from '../../../src/core/ledger/ledgerStore';
import { stateDir } from '../../../src/core/base/state/paths';
import { CHAIN_ROWS_SQL, verifyPgRows, type ChainRow } from '../../../src/core/ledger/pgLedger/pgChain';
import { openLedgerBackend } from '../../../src/core/ledger/pgLedger/open';
import { PG_TEST_PASSWORD, pgRows, startPostgres, type PgServer } from '../../support/postgres';

let pg: PgServer;
const opened: LedgerBackend[] = [];
before(async () => { pg = await startPostgres(); });
after(async () => {
  await Promise.all(opened.map((b) => b.close()));
  pg?.stop();
});

const sql = <T extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => pgRows<T>(pg.url, text, params);

/** A state folder whose ledger is in the test server under `scope`. */
function onPostgres(scope: string): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-ws-'));
  const dir = stateDir(ws, { ALFRED_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-home-')) });
  const backend = openLedgerBackend({
    stateDir: dir, workspaceFolder: ws,
    env: { ALFRED_LEDGER_BACKEND: 'postgres', ALFRED_LEDGER_URL: pg.url.replace('alfred@', 'alfred:$TEST_PG_PASSWORD@'), TEST_PG_PASSWORD: PG_TEST_PASSWORD, ALFRED_LEDGER_SCOPE: scope },
  })!;
  assert.equal(backend.name, 'postgres');
  opened.push(backend);
  return dir;
}

const rows = (scope: string) => sql<ChainRow & Record<string, unknown>>(CHAIN_ROWS_SQL, [scope]);

test('events written through the PostgreSQL ledger are linked; two state folders writing one scope at once leave one chain', async () => {
  const [a, b] = [onPostgres('chain-shared'), onPostgres('chain-shared')];
  await Promise.all(Array.from({ length: 10 }, (_v, i) => recordEvents(i % 2 ? a : b, 'coder', [{ type: 'ConfigWritten', i }, { type: 'CheckRun', i }])));
  const written = await rows('chain-shared');
  assert.equal(written.length, 20);
  assert.deepEqual(verifyPgRows(written), { ok: true, rows: 20, unchained: 0 });
  // What `alfred events --verify` asks the backend.
  assert.deepEqual(await opened.at(-1)!.verifyChain!(), { ok: true, rows: 20, unchained: 0 });
});

test('an edited, a deleted and a reordered row are each found, by seq', async () => {
  const dir = onPostgres('chain-tamper');
  for (let i = 0; i < 5; i++) await recordEvents(dir, 'coder', [{ type: 'ConfigWritten', i }]);
  const seqs = (await rows('chain-tamper')).map((r) => Number(r.seq));
  assert.equal(seqs.length, 5);
  await sql(`UPDATE alfred_ledger_events SET event = jsonb_set(event, '{i}', '9') WHERE seq = $1`, [seqs[1]]);
  assert.deepEqual(verifyPgRows(await rows('chain-tamper')), { ok: false, seq: seqs[1], rows: 2, problem: 'the row was changed after it was written (its hash no longer matches)' });
  await sql('DELETE FROM alfred_ledger_events WHERE seq = $1', [seqs[1]]);
  assert.deepEqual(verifyPgRows(await rows('chain-tamper')), { ok: false, seq: seqs[2], rows: 2, problem: 'prev does not match the row before it: that row was removed, or rows were reordered' });

  const other = onPostgres('chain-reorder');
  for (let i = 0; i < 3; i++) await recordEvents(other, 'coder', [{ type: 'ConfigWritten', i }]);
  const [s1, s2] = (await rows('chain-reorder')).map((r) => Number(r.seq));
  // Swapped seqs: each row's hash covered the seq it was written with.
  await sql('UPDATE alfred_ledger_events SET seq = -1 WHERE seq = $1', [s1]);
  await sql('UPDATE alfred_ledger_events SET seq = $1 WHERE seq = $2', [s1, s2]);
  await sql('UPDATE alfred_ledger_events SET seq = $1 WHERE seq = -1', [s2]);
  const reordered = verifyPgRows(await rows('chain-reorder'));
  assert.deepEqual(reordered.ok ? undefined : reordered.seq, s1);
});
