// Keeps `npm start` running until it is stopped, whichever way: Ctrl-C (SIGINT), SIGTERM to this
// process, or its parent going away. The last one matters because `kill <pid of npm start>` stops npm
// alone: npm does not pass the signal on, so this process (and the code-server it started in a
// process group of its own) would live on. It polls its parent id: when this process is re-parented
// (to init or a subreaper), the parent is gone, and it stops as on Ctrl-C.

/** The parent when this module was first loaded: npm may be gone by the time code-server is up. */
const FIRST_PARENT = process.ppid;

/** Calls `onExit` once when the parent process (the first one) is gone; returns a function that stops watching. */
export function onParentExit(onExit, everyMs = 500, parent = FIRST_PARENT) {
  // Started by init: nothing to watch.
  if (parent <= 1) return () => {};
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onExit();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Stops `server` (its `stop()` ends its process group) and exits on SIGINT, SIGTERM or the parent's
 * exit; exits with the server's code if the server ends first. `say` tells the user why.
 */
export function runUntilStopped(server, { say = console.log, onServerExit } = {}) {
  let stopping = false;
  const stop = (why) => {
    if (stopping) return;
    stopping = true;
    say(why);
    server.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => stop('stopping code-server…'));
  process.on('SIGTERM', () => stop('stopping code-server…'));
  onParentExit(() => stop('the process that started npm start is gone: stopping code-server…'));
  server.child.on('exit', (code) => {
    if (stopping) return;
    onServerExit?.(code);
    process.exit(code ?? 1);
  });
}
