/**
 * The models Alfred offers from its configured providers: each provider's configured models, or the
 * ones its endpoint lists, with the intentions that describe them. Model ids are
 * `alfred/<provider>/<model>`, so a report of usage names them as Alfred's own (usage they reported
 * is charged by Alfred's provider, never again from another agent's export).
 */
import type { ModelPrice } from '../../rules/budget/prices';
import type { Intention, ProviderConfig, ProviderModelConfig } from './types';

export const MODEL_ID_PREFIX = 'alfred/';

export interface OfferedModel {
  /** `alfred/<provider>/<model>`. */
  id: string;
  provider: ProviderConfig;
  model: ProviderModelConfig & { contextLength?: number };
  intentions: Intention[];
  price?: ModelPrice;
}

export interface CatalogProblem {
  provider: string;
  message: string;
}

export interface CatalogDeps {
  list: (provider: ProviderConfig, signal: AbortSignal) => Promise<Array<{ id: string; contextLength?: number }>>;
  intentions: (provider: ProviderConfig, model: ProviderModelConfig & { contextLength?: number }) => Intention[];
}

export function offeredId(provider: string, model: string): string {
  return `${MODEL_ID_PREFIX}${provider}/${model}`;
}

/** `{ provider, model }` of an offered id (the model part may itself hold `/`: OpenRouter's do). */
export function parseOfferedId(id: string): { provider: string; model: string } | undefined {
  if (!id.startsWith(MODEL_ID_PREFIX)) return undefined;
  const rest = id.slice(MODEL_ID_PREFIX.length);
  const slash = rest.indexOf('/');
  return slash > 0 && slash < rest.length - 1 ? { provider: rest.slice(0, slash), model: rest.slice(slash + 1) } : undefined;
}

export function isAlfredModel(id: string): boolean {
  return id.startsWith(MODEL_ID_PREFIX);
}

/** Every provider at once; one that cannot list its models is a problem, and the others are still offered. */
export async function offeredModels(providers: readonly ProviderConfig[], deps: CatalogDeps, signal: AbortSignal): Promise<{ models: OfferedModel[]; problems: CatalogProblem[] }> {
  const problems: CatalogProblem[] = [];
  const lists = await Promise.all(providers.map(async (provider) => {
    if (provider.models !== 'list') return provider.models.map((model) => offer(provider, model, deps));
    try {
      const listed = await deps.list(provider, signal);
      return listed.map((m) => offer(provider, { id: m.id, ...(m.contextLength ? { maxInputTokens: m.contextLength, contextLength: m.contextLength } : {}) }, deps));
    } catch (err) {
      problems.push({ provider: provider.name, message: (err as Error).message });
      return [];
    }
  }));
  return { models: lists.flat(), problems };
}

function offer(provider: ProviderConfig, model: ProviderModelConfig & { contextLength?: number }, deps: CatalogDeps): OfferedModel {
  const price = model.price ?? provider.price;
  return { id: offeredId(provider.name, model.id), provider, model, intentions: deps.intentions(provider, model), ...(price ? { price } : {}) };
}
