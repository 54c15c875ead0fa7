/**
 * The `alfred` entry point: dist/cli/alfred.cjs, CommonJS so that a hook call does not start Node's
 * ES module loader (~10 ms of a ~40 ms Node start); dist/cli/alfred.mjs only loads it, for callers
 * that name that file. `alfred hook` runs on every tool call an agent makes: it first asks the
 * resident hook server (src/cli/hookClient.ts); without one, and for every other command, the whole
 * command line runs in this process (src/cli/runBundle.ts).
 */
import { hookViaServer } from './hookClient';
import { runCommandLine } from './runBundle';

const argv = process.argv.slice(2);
if (argv[0] === 'hook') {
  hookViaServer(argv).then((outcome) => outcome.served || runCommandLine(argv, outcome.stdin), () => runCommandLine(argv));
} else {
  runCommandLine(argv);
}
