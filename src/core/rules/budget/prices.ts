/** Per-model prices, for estimating cost from token counts. */

export interface ModelPrice {
  /** USD per million input tokens. */
  inputPerMTok: number;
  /** USD per million output tokens. */
  outputPerMTok: number;
  /** USD per million input tokens read from the prompt cache; absent: priced as input. */
  cachedInputPerMTok?: number;
  /** USD per million input tokens written to the prompt cache; absent: priced as input. */
  cacheWritePerMTok?: number;
}

/** The pricing settings a harness charges with: `alfred.prices`, `alfred.fallbackPrice` and the model. */
export interface PricingOptions {
  overrides?: Readonly<Record<string, ModelPrice>>;
  fallback?: ModelPrice;
  /** The model tool outputs are priced for, when the caller does not say. */
  model?: string;
}

export interface PriceQuote extends ModelPrice {
  /** True when the model had no price and the fallback price was used. */
  estimated: boolean;
}

/**
 * List prices in USD per million tokens (standard tier, no caching or batch discounts).
 * These are estimates taken from the vendors' public price pages in 2025 and go stale: update them
 * when vendors change prices. Keys are model families, matched by longest prefix (see `priceFor`).
 */
export const PRICE_TABLE: Readonly<Record<string, ModelPrice>> = {
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 },
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  'gpt-4.1-nano': { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10 },
  'gpt-5-mini': { inputPerMTok: 0.25, outputPerMTok: 2 },
  'gpt-5-nano': { inputPerMTok: 0.05, outputPerMTok: 0.4 },
  'o3': { inputPerMTok: 2, outputPerMTok: 8 },
  'o3-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  'o3-pro': { inputPerMTok: 20, outputPerMTok: 80 },
  'o4-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  // Anthropic: cache reads at a tenth of input, five-minute cache writes at 1.25×.
  'claude-sonnet-4': { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3, cacheWritePerMTok: 3.75 },
  'claude-3.5-sonnet': { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3, cacheWritePerMTok: 3.75 },
  'claude-3.7-sonnet': { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3, cacheWritePerMTok: 3.75 },
  'claude-opus-4': { inputPerMTok: 15, outputPerMTok: 75, cachedInputPerMTok: 1.5, cacheWritePerMTok: 18.75 },
  'claude-opus-4.5': { inputPerMTok: 5, outputPerMTok: 25, cachedInputPerMTok: 0.5, cacheWritePerMTok: 6.25 },
  'claude-haiku': { inputPerMTok: 1, outputPerMTok: 5, cachedInputPerMTok: 0.1, cacheWritePerMTok: 1.25 },
  'claude-3.5-haiku': { inputPerMTok: 0.8, outputPerMTok: 4, cachedInputPerMTok: 0.08, cacheWritePerMTok: 1 },
  'claude-3-haiku': { inputPerMTok: 0.25, outputPerMTok: 1.25, cachedInputPerMTok: 0.03, cacheWritePerMTok: 0.3 },
  'gemini-2.5-pro': { inputPerMTok: 1.25, outputPerMTok: 10 },
  'gemini-2.5-flash': { inputPerMTok: 0.3, outputPerMTok: 2.5 },
  'gemini-2.5-flash-lite': { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  'gemini-2.0-flash': { inputPerMTok: 0.1, outputPerMTok: 0.4 },
};

/** Used for a model with no price unless the caller configures another; deliberately not cheap. */
export const DEFAULT_FALLBACK_PRICE: ModelPrice = { inputPerMTok: 3, outputPerMTok: 15 };

/**
 * Lower case, vendor prefix (`copilot/`, `anthropic/`) dropped, `.` and `_` read as `-`, so
 * `Claude-3.5-Sonnet`, `claude-3-5-sonnet-20241022` and `anthropic/claude-3-5-sonnet` all agree.
 */
export function normalizeModelId(id: string): string {
  const bare = id.trim().toLowerCase().split('/').pop() ?? '';
  return bare.replace(/[._\s]+/g, '-');
}

/**
 * An override for the whole id, vendor path included: Alfred's own models (`alfred/<provider>/<model>`)
 * are priced per provider, where the same model can cost differently; a key ending in `/` prices every
 * model under it (the longest such key wins).
 */
function fullIdMatch(modelId: string, overrides: Readonly<Record<string, ModelPrice>>): ModelPrice | undefined {
  const exact = Object.hasOwn(overrides, modelId) ? overrides[modelId] : undefined;
  if (exact) return exact;
  let best: ModelPrice | undefined;
  let bestLen = 0;
  for (const [key, price] of Object.entries(overrides)) {
    if (key.endsWith('/') && key.length > bestLen && modelId.startsWith(key)) {
      best = price;
      bestLen = key.length;
    }
  }
  return best;
}

/** Overrides matched by the model's name: not those for Alfred's models, which price one provider's model only. */
function namedOverrides(overrides: Readonly<Record<string, ModelPrice>> | undefined): Record<string, ModelPrice> {
  return Object.fromEntries(Object.entries(overrides ?? {}).filter(([key]) => !key.startsWith('alfred/')));
}

/** Longest key that equals the id or is a prefix of it ending at a `-` (so `o3` never matches `o30`). */
function longestMatch(id: string, table: Readonly<Record<string, ModelPrice>>): ModelPrice | undefined {
  let best: ModelPrice | undefined;
  let bestLen = -1;
  for (const [key, price] of Object.entries(table)) {
    const k = normalizeModelId(key);
    if (!k || k.length < bestLen) continue; // on a tie the later entry (an override) wins
    if (id === k || (id.startsWith(k) && id[k.length] === '-')) {
      best = price;
      bestLen = k.length;
    }
  }
  return best;
}

/**
 * The price of a model. `overrides` (same key rules as the table) replace or extend the table;
 * a model matching nothing gets `fallback` and `estimated: true`.
 */
export function priceFor(
  modelId?: string,
  overrides?: Readonly<Record<string, ModelPrice>>,
  fallback: ModelPrice = DEFAULT_FALLBACK_PRICE,
): PriceQuote {
  const id = modelId ? normalizeModelId(modelId) : '';
  const found = (modelId && overrides ? fullIdMatch(modelId, overrides) : undefined) ?? (id ? longestMatch(id, { ...PRICE_TABLE, ...namedOverrides(overrides) }) : undefined);
  if (found) return { ...found, estimated: false };
  return { inputPerMTok: fallback.inputPerMTok, outputPerMTok: fallback.outputPerMTok, estimated: true };
}

/**
 * Cost in USD of a measured request: cache reads and writes (parts of `input`) at their own prices
 * where the price has them, the rest of the input at the input price.
 */
export function costOfUsage(u: { input: number; cachedInput: number; cacheWrite: number; output: number }, price: ModelPrice): number {
  const cached = Math.max(0, u.cachedInput);
  const written = Math.max(0, u.cacheWrite);
  const plain = Math.max(0, u.input - cached - written);
  return (plain * price.inputPerMTok + cached * (price.cachedInputPerMTok ?? price.inputPerMTok)
    + written * (price.cacheWritePerMTok ?? price.inputPerMTok) + Math.max(0, u.output) * price.outputPerMTok) / 1_000_000;
}

/** Cost in USD of a call with these token counts. */
export function costOf(tokensIn: number, tokensOut: number, price: ModelPrice): number {
  return (Math.max(0, tokensIn) * price.inputPerMTok + Math.max(0, tokensOut) * price.outputPerMTok) / 1_000_000;
}
