import * as fs from 'node:fs';

/**
 * Appends records to a JSONL file (0600) in one write. A writer that crashed mid-line left no
 * newline: the new records start on a fresh line, so only that torn line is lost. Call under the lock.
 */
export function appendJsonLines(file: string, records: readonly unknown[]): void {
  if (records.length === 0) return;
  let data = records.map((r) => JSON.stringify(r) + '\n').join('');
  const fd = fs.openSync(file, 'a+', 0o600);
  try {
    const size = fs.fstatSync(fd).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      fs.readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 10) data = '\n' + data;
    }
    fs.appendFileSync(fd, data);
  } finally {
    fs.closeSync(fd);
  }
}
