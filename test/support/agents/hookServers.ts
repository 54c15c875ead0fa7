/**
 * Stops the hook servers a test's sessions started on demand in an Alfred home, before the home is
 * removed: such a server answers its own build and leaves only when idle (minutes later), writing
 * into its home meanwhile. A server started on demand gets its home as ALFRED_HOME
 * (src/cli/serverStart.ts), which is how it is found here (/proc: the agents stage runs on Linux).
 */
import * as fs from 'node:fs';

export async function stopHookServers(alfredHome: string): Promise<void> {
  const marker = `\0ALFRED_HOME=${alfredHome}\0`;
  const pids = fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number).filter((pid) => {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return cmdline.includes('\0serve\0') && `\0${fs.readFileSync(`/proc/${pid}/environ`, 'utf8')}`.includes(marker);
    } catch {
      return false; // gone, or not ours to read
    }
  });
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
