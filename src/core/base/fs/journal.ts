/**
 * A journal of things to send elsewhere later (what happened while a database was unreachable): one
 * JSON line each in `<name>.jsonl`, taken for a replay by renaming it, so two processes never replay
 * the same lines; a replay that fails leaves its file for the next, and only `done()` removes it.
 * What is sent must be idempotent (by id): a replay that succeeded but was not marked done is sent again.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUuid } from '../crypto/random';
import { appendJsonLines, parseJsonLines } from './jsonLines';

export interface JournalBatch<T extends object> {
  items: T[];
  /** Removes the replayed files: call once the other side holds them. */
  done(): void;
}

export class Journal<T extends object> {
  readonly file: string;
  private readonly replay: RegExp;

  constructor(private readonly name: string) {
    this.file = `${name}.jsonl`;
    this.replay = new RegExp(`^${name.replace(/[.-]/g, '\\$&')}\\.[0-9a-f-]+\\.replay$`);
  }

  append(dir: string, items: readonly T[]): void {
    if (items.length === 0) return;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // One write with O_APPEND: lines of concurrent writers never interleave; a line a killed writer
    // left torn does not swallow the first of these.
    appendJsonLines(path.join(dir, this.file), items);
  }

  /** Whether anything waits: one readdir. */
  has(dir: string): boolean {
    try {
      return fs.readdirSync(dir).some((f) => f === this.file || this.replay.test(f));
    } catch {
      return false;
    }
  }

  /** Takes what is waiting (the current file and any replay a failed attempt left), oldest file first. */
  take(dir: string): JournalBatch<T> {
    try {
      fs.renameSync(path.join(dir, this.file), path.join(dir, `${this.name}.${randomUuid()}.replay`));
    } catch { /* nothing new, or another process took it */ }
    let names: string[] = [];
    try {
      names = fs.readdirSync(dir).filter((f) => this.replay.test(f));
    } catch { /* no state folder yet */ }
    const files = names.map((name) => path.join(dir, name)).map((file) => ({ file, mtime: fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs }))
      .filter((f) => f.mtime !== undefined).sort((a, b) => a.mtime! - b.mtime!).map((f) => f.file);
    const items: T[] = [];
    const taken: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        continue; // replayed and removed by another process meanwhile
      }
      taken.push(file);
      // A torn line of a killed writer is passed over: what it held was never acknowledged.
      for (const item of parseJsonLines(text, file, (value) => (typeof value === 'object' && value !== null ? value as T : 'not an object')).records) items.push(item);
    }
    return { items, done: () => taken.forEach((f) => fs.rmSync(f, { force: true })) };
  }
}
