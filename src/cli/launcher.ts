/**
 * The `alfred` entry point: dist/cli/alfred.cjs, CommonJS so that a hook call does not start Node's
 * ES module loader (~10 ms of a ~40 ms Node start); dist/cli/alfred.mjs only loads it, for callers
 * that name that file. `alfred hook` runs on every tool call an agent makes: it first asks the
 * resident hook server (src/cli/hookClient.ts); without one, it starts one for the calls to come
 * (src/cli/serverStart.ts), and this call, like every other command, runs in this process
 * (src/cli/runBundle.ts).
 */
import { hookViaServer } from './hookClient';
import { runCommandLine } from './runBundle';
import { startServerOnDemand } from './serverStart';

const argv = process.argv.slice(2);
if (argv[0] === 'hook') {
  hookViaServer(argv).then((outcome) => {
    if (outcome.served) return;
    // Started first: it comes up while this call is answered here.
    if (outcome.home !== undefined) startServerOnDemand(outcome.home);
    runCommandLine(argv, outcome.stdin);
  }, () => runCommandLine(argv));
} else {
  runCommandLine(argv);
}
