// Node's test runner on test files in the order they are given: `node --test` sorts its files by path,
// and the e2e stage starts its slowest files first so that the two workers end together.
// Usage: node --import tsx scripts/lib/runInOrder.mjs [--test-concurrency=N] [--test-timeout=MS]
//        [--test-force-exit] FILE...
// The options mean what they mean to `node --test` (a file's whole run is bounded by the timeout); the
// spec reporter writes to stdout, summary included, and the exit code is 1 when a test failed.
import { run } from 'node:test';
import { spec } from 'node:test/reporters';

const args = process.argv.slice(2);
const option = (name) => args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
const files = args.filter((a) => !a.startsWith('--'));
const concurrency = Number(option('--test-concurrency') ?? 1);
const timeout = Number(option('--test-timeout') ?? Infinity);

// The file processes inherit this one's options (tsx's --import); forceExit adds --test-force-exit to
// theirs, not to this process, which must live until the reporter has written the summary.
const stream = run({ files, concurrency, timeout, forceExit: args.includes('--test-force-exit') });
stream.on('test:fail', (data) => {
  if (!data.todo) process.exitCode = 1;
});
stream.compose(spec).pipe(process.stdout);
