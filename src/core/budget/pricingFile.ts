/**
 * The prices the editor's settings give (`alfred.prices`, `alfred.fallbackPrice`, `alfred.model`),
 * published in the workspace's state folder for the processes that cannot read VS Code's settings:
 * `alfred hook` and the CLI. Without it the same measured request would be priced by the table in a
 * hook and by the user's override in the editor.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ModelPrice } from './prices';

export const PRICING_FILE = 'pricing.json';

export interface PublishedPricing {
  overrides?: Readonly<Record<string, ModelPrice>>;
  fallback?: ModelPrice;
  model?: string;
}

/** Writes the pricing when it differs from what is there (atomic: readers never see half a file). */
export function publishPricing(stateDir: string, pricing: PublishedPricing): void {
  const file = path.join(stateDir, PRICING_FILE);
  const text = JSON.stringify(pricing);
  try {
    if (fs.readFileSync(file, 'utf8') === text) return;
  } catch {
    // Not there yet.
  }
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** A reader of the published pricing, re-read when the file changes; nothing published means the table alone. */
export function publishedPricingReader(stateDir: string): () => PublishedPricing {
  const file = path.join(stateDir, PRICING_FILE);
  let seen: { mtimeMs: number; size: number; value: PublishedPricing } | undefined;
  return () => {
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (!st) return {};
    if (seen && seen.mtimeMs === st.mtimeMs && seen.size === st.size) return seen.value;
    try {
      const data = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
      const value = data && typeof data === 'object' && !Array.isArray(data) ? (data as PublishedPricing) : {};
      seen = { mtimeMs: st.mtimeMs, size: st.size, value };
      return value;
    } catch {
      return {};
    }
  };
}
