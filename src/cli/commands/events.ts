import { summarizeEvent } from '../../core/events/summary';
import { openHarness } from '../context';
import type { CliCommand } from './command';

/** `alfred events [--tail N] [--json]`: the event log, oldest first; corrupt lines reported on stderr. */
export const eventsCommand: CliCommand = {
  name: 'events',
  usage: 'alfred events [--tail N] [--json]',
  async run(args, io) {
    const { events, corrupt } = (await openHarness(args.workspace)).events({ tail: args.tail ?? 20 });
    for (const e of events) io.out(args.json ? JSON.stringify(e) : `${e.ts}  ${e.type.padEnd(16)} ${e.role.padEnd(12)} ${summarizeEvent(e)}`);
    for (const c of corrupt) io.err(`skipped corrupt line ${c.file}:${c.line}: ${c.message}`);
    return 0;
  },
};
