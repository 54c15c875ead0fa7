import { openHarness } from '../context';
import { json } from '../io';
import type { CliCommand } from './command';

/**
 * `alfred check [--json]`: runs the workspace's acceptance checks, as "Alfred: Verify Completion"
 * does, and appends the completion record. Exit code 0 only when the work is accepted; 1 when it is
 * not; 2 when there is nothing to run (no checks, or a checks file with problems).
 */
export const checkCommand: CliCommand = {
  name: 'check',
  usage: 'alfred check [--json]',
  async run(args, io) {
    const harness = await openHarness(args.workspace);
    // Loaded here, not at start-up: `alfred hook` shares this bundle's entry and must stay fast.
    const [{ verifyCompletion }, { formatOutcome, checkLine }] = await Promise.all([
      import('../../core/workflow/completion/verify'), import('../../core/workflow/completion/report'),
    ]);
    const abort = new AbortController();
    const onSignal = () => abort.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      const outcome = await verifyCompletion(harness, {
        trigger: 'cli',
        signal: abort.signal,
        onProgress: args.json ? undefined : (p) => {
          if (p.step === 'check') io.err(`running ${p.name} (${p.index + 1}/${p.total})…`);
          if (p.step === 'checked') io.err(checkLine(p.result));
        },
      });
      if (args.json) {
        io.out(json(outcome.kind === 'recorded'
          ? { accepted: outcome.accepted, reason: outcome.reason, record: outcome.record }
          : { accepted: false, reason: outcome.reason, kind: outcome.kind, checksFile: outcome.checksFile, ...(outcome.kind === 'invalid' ? { problems: outcome.problems } : {}) }));
      } else {
        io.out(formatOutcome(outcome));
      }
      if (outcome.kind !== 'recorded') return 2;
      return outcome.accepted ? 0 : 1;
    } finally {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    }
  },
};
