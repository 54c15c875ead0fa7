/** `alfred-net`: runs a sandboxed command whose only way out is Alfred's proxy (core/sandbox/netRun.ts). */
import { runNet } from '../core/sandbox/netRun';

void runNet(process.argv.slice(2)).then((code) => process.exit(code), (err: unknown) => {
  process.stderr.write(`alfred-net: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(126);
});
