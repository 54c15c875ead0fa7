/**
 * Pricing from two sources of settings: the user's own, and a workspace's (a repository's
 * `.vscode/settings.json`, written by whoever wrote the repository). The cost budget is the user's
 * guard, so a workspace may raise what a call is charged, never lower it: a repository that ships
 * `"alfred.prices": { "gpt-4o": { "inputPerMTok": 0, … } }` must not turn that guard off.
 */
import { DEFAULT_FALLBACK_PRICE, priceFor, type ModelPrice, type PricingOptions } from './prices';

const isRate = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** A workspace's price as given, or undefined when it is not one (a setting file is not validated). */
function priceOf(value: unknown): ModelPrice | undefined {
  const p = value as Partial<ModelPrice> | null;
  if (typeof p !== 'object' || p === null || !isRate(p.inputPerMTok) || !isRate(p.outputPerMTok)) return undefined;
  return {
    inputPerMTok: p.inputPerMTok, outputPerMTok: p.outputPerMTok,
    ...(isRate(p.cachedInputPerMTok) ? { cachedInputPerMTok: p.cachedInputPerMTok } : {}),
    ...(isRate(p.cacheWritePerMTok) ? { cacheWritePerMTok: p.cacheWritePerMTok } : {}),
  };
}

/** Each rate the higher of the two; a cache rate a price leaves out is its input rate. */
function higher(base: ModelPrice, raise: ModelPrice): ModelPrice {
  const out: ModelPrice = {
    inputPerMTok: Math.max(base.inputPerMTok, raise.inputPerMTok),
    outputPerMTok: Math.max(base.outputPerMTok, raise.outputPerMTok),
  };
  for (const k of ['cachedInputPerMTok', 'cacheWritePerMTok'] as const) {
    if (base[k] !== undefined || raise[k] !== undefined) out[k] = Math.max(base[k] ?? base.inputPerMTok, raise[k] ?? raise.inputPerMTok);
  }
  return out;
}

/** No rate an estimate uses (input and output: tool output is charged as input) is lower in `a` than in `b`. */
const notCheaper = (a: ModelPrice, b: ModelPrice): boolean => a.inputPerMTok >= b.inputPerMTok && a.outputPerMTok >= b.outputPerMTok;

/**
 * The pricing to charge by, from the user's settings and a workspace's:
 * - the fallback price: each rate the higher of the two;
 * - a workspace's price for a model (or family): each rate counts where it is higher than the price
 *   Alfred would use for that key without the workspace (the table, the user's prices, the fallback);
 * - the model tool output is priced for: the workspace's only when its input and output rates are
 *   no lower than those of the user's model (or the fallback).
 */
export function workspacePricing(user: PricingOptions, workspace: { overrides?: unknown; fallback?: unknown; model?: unknown }): PricingOptions {
  const wsFallback = priceOf(workspace.fallback);
  const fallback = wsFallback ? higher(user.fallback ?? DEFAULT_FALLBACK_PRICE, wsFallback) : user.fallback;
  const overrides: Record<string, ModelPrice> = { ...user.overrides };
  const wsPrices = typeof workspace.overrides === 'object' && workspace.overrides !== null ? Object.entries(workspace.overrides as Record<string, unknown>) : [];
  for (const [key, value] of wsPrices) {
    const price = priceOf(value);
    if (price) overrides[key] = higher(priceFor(key, user.overrides, fallback), price);
  }
  const wsModel = typeof workspace.model === 'string' && workspace.model ? workspace.model : undefined;
  const model = wsModel && notCheaper(priceFor(wsModel, overrides, fallback), priceFor(user.model, overrides, fallback)) ? wsModel : user.model;
  return { ...(fallback ? { fallback } : {}), ...(Object.keys(overrides).length > 0 ? { overrides } : {}), ...(model ? { model } : {}) };
}
