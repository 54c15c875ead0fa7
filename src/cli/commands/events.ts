import { verifyChain } from '../../core/base/events/chain';
import { summarizeEvent } from '../../core/base/events/summary';
import { ledgerBackendOf } from '../../core/ledger/ledgerBackend';
import { openHarness } from '../context';
import type { CliCommand } from './command';

/**
 * `alfred events [--tail N] [--json]`: the event log, oldest first; corrupt lines reported on stderr.
 * `--verify`: checks the log's hash chain (core/base/events/chain.ts); exit 1 naming the first broken line.
 */
export const eventsCommand: CliCommand = {
  name: 'events',
  usage: 'alfred events [--tail N] [--json] [--verify]',
  async run(args, io) {
    const harness = await openHarness(args.workspace);
    if (args.verify) {
      const verdict = verifyChain(harness.stateDir);
      if (args.json) io.out(JSON.stringify(verdict));
      else if (verdict.ok) {
        const start = verdict.anchored === 'genesis' ? 'from its first line' : verdict.anchored === 'rotated-away' ? 'from the oldest file kept (older ones were rotated away)'
          : verdict.anchored === 'unchained' ? 'from the last line written before the chain existed' : 'empty';
        io.out(`The event log's chain holds: ${verdict.lines} lines in ${verdict.files.length} file(s), linked ${start}${verdict.unchained ? `; ${verdict.unchained} older lines were written before the chain` : ''}.`);
      } else io.out(`The event log's chain breaks at ${verdict.file}:${verdict.line}: ${verdict.problem}.`);
      // The PostgreSQL trail, where the ledger is kept there (core/ledger/pgLedger/pgChain.ts).
      const backend = ledgerBackendOf(harness.stateDir);
      const db = backend?.verifyChain ? await backend.verifyChain().catch((err: Error) => ({ ok: false as const, seq: 0, rows: 0, problem: `cannot be read: ${err.message}` })) : undefined;
      if (db && args.json) io.out(JSON.stringify({ database: db }));
      else if (db) io.out(db.ok ? `The ${backend!.where} trail's chain holds: ${db.rows} rows${db.unchained ? ` (${db.unchained} written before the chain)` : ''}.`
        : `The ${backend!.where} trail's chain breaks at seq ${db.seq}: ${db.problem}.`);
      return verdict.ok && (db?.ok ?? true) ? 0 : 1;
    }
    const { events, corrupt } = harness.events({ tail: args.tail ?? 20 });
    for (const e of events) io.out(args.json ? JSON.stringify(e) : `${e.ts}  ${e.type.padEnd(16)} ${e.role.padEnd(12)} ${summarizeEvent(e)}`);
    for (const c of corrupt) io.err(`skipped corrupt line ${c.file}:${c.line}: ${c.message}`);
    return 0;
  },
};
