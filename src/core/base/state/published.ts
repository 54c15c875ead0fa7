/**
 * Settings the editor publishes in the workspace's state folder for the processes that cannot read
 * VS Code's settings (`alfred hook`, the CLI): the prices (`pricing.json`) and the providers
 * (`providers.json`, key references only, never keys). Written atomically, only when changed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { atomicWrite } from '../fs/atomicWrite';

export const PRICING_FILE = 'pricing.json';
export const PROVIDERS_FILE = 'providers.json';

export function publishJson(stateDir: string, name: string, value: unknown): void {
  const file = path.join(stateDir, name);
  const text = JSON.stringify(value ?? null);
  try {
    if (fs.readFileSync(file, 'utf8') === text) return;
  } catch {
    // Not there yet.
  }
  atomicWrite(file, text);
}

/** A reader of a published value, re-read when the file changes; `fallback` when nothing was published. */
export function publishedJsonReader<T>(stateDir: string, name: string, fallback: T): () => T {
  const file = path.join(stateDir, name);
  let seen: { mtimeMs: number; size: number; value: T } | undefined;
  return () => {
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (!st) return fallback;
    if (seen && seen.mtimeMs === st.mtimeMs && seen.size === st.size) return seen.value;
    try {
      const value = (JSON.parse(fs.readFileSync(file, 'utf8')) as T | null) ?? fallback;
      seen = { mtimeMs: st.mtimeMs, size: st.size, value };
      return value;
    } catch {
      return fallback;
    }
  };
}
