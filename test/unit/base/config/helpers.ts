import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A temporary folder for target files and a separate state folder, like the extension's. */
export function sandbox(): { dir: string; stateDir: string; file(name: string, text?: string, mode?: number): string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-config-'));
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-state-'));
  return {
    dir,
    stateDir,
    file(name, text, mode) {
      const file = path.join(dir, name);
      if (text !== undefined) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, text);
        if (mode !== undefined) fs.chmodSync(file, mode);
      }
      return file;
    },
  };
}

/** Files left in a folder (temporary files included), sorted. */
export function listing(dir: string): string[] {
  return fs.readdirSync(dir).sort();
}
