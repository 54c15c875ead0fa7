/**
 * The prices the editor's settings give (`alfred.prices`, `alfred.fallbackPrice`, `alfred.model`),
 * published for `alfred hook` and the CLI (base/state/published.ts). Without it the same measured request
 * would be priced by the table in a hook and by the user's override in the editor.
 */
import { PRICING_FILE, publishJson, publishedJsonReader } from '../../base/state/published';
import type { ModelPrice } from './prices';
import { isObject } from '../../base/isObject';

export interface PublishedPricing {
  overrides?: Readonly<Record<string, ModelPrice>>;
  fallback?: ModelPrice;
  model?: string;
}

export function publishPricing(stateDir: string, pricing: PublishedPricing): void {
  publishJson(stateDir, PRICING_FILE, pricing);
}

/** Nothing published means the table alone. */
export function publishedPricingReader(stateDir: string): () => PublishedPricing {
  const read = publishedJsonReader<unknown>(stateDir, PRICING_FILE, {});
  return () => {
    const value = read();
    return isObject(value) ? (value as PublishedPricing) : {};
  };
}
