/**
 * Stops the hook servers a test's sessions started on demand in an Alfred home, before the home is
 * removed: such a server answers its own build and leaves only when idle (minutes later), writing
 * into its home meanwhile. Each server's socket is named after its pid: `run/hook.<pid>.<hex>.sock`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export async function stopHookServers(alfredHome: string): Promise<void> {
  const run = path.join(alfredHome, 'run');
  const names = fs.existsSync(run) ? fs.readdirSync(run) : [];
  const pids = names.map((n) => /^hook\.(\d+)\.[0-9a-f]+\.sock$/.exec(n)?.[1]).filter((p): p is string => p !== undefined).map(Number);
  for (const pid of pids) {
    try { process.kill(pid, 'SIGTERM'); } catch { /* already gone */ }
  }
  // Gone within a few seconds; a server that is not is killed.
  for (let i = 0; i < 50 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
  for (const pid of pids.filter(alive)) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone meanwhile */ }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
