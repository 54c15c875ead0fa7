/** What tests ask of the processes a command started. */
import * as fs from 'node:fs';

/** Whether a process runs; a zombie (dead, not yet reaped by a container's init) does not count. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (macOS): kill(0) succeeded
  }
}
