/**
 * One `alfred trial run` per suite at a time: a second one would take the first's running trials for
 * a dead run's leftovers (recording them interrupted, removing their worktrees). The lock is a pid
 * file; one whose process is gone is a crashed run's, and is taken over.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { processAlive } from '../base/processAlive';

const LOCK_FILE = 'run.pid';


/** Takes the suite's run lock: a release function, or the pid of the live run that holds it. */
export function takeRunLock(trialsRoot: string): { release: () => void } | { heldBy: number } {
  fs.mkdirSync(trialsRoot, { recursive: true });
  const file = path.join(trialsRoot, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return { release: () => fs.rmSync(file, { force: true }) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid)) return { heldBy: pid };
    fs.rmSync(file, { force: true });
  }
  throw new Error(`could not take the run lock ${file}`);
}
