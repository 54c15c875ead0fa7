import * as vscode from 'vscode';
import type { PricingOptions } from '../core/harness';
import type { ModelPrice } from '../core/budget/prices';
import { offeredId } from '../core/providers/catalog';
import { readProviders } from './providers/providerSettings';

export interface AlfredSettings {
  role: string | undefined;
  pricing: PricingOptions;
  shellTimeoutSeconds: number;
}

/**
 * `alfred.role` apart by where it is set: the user's own (user settings) and the workspace's (the
 * repository's `.vscode/settings.json` or a workspace file), which may lower authority, never raise it.
 */
export function roleSettings(): { user: string | undefined; workspace: string | undefined } {
  const inspected = vscode.workspace.getConfiguration('alfred').inspect<string>('role');
  return {
    user: inspected?.globalValue || undefined,
    workspace: inspected?.workspaceFolderValue || inspected?.workspaceValue || undefined,
  };
}

/** Alfred's settings, read fresh each time (they can change at any moment). */
export function readSettings(): AlfredSettings {
  const c = vscode.workspace.getConfiguration('alfred');
  return {
    role: c.get<string>('role') || undefined,
    pricing: {
      fallback: c.get<ModelPrice>('fallbackPrice'),
      overrides: { ...providerPrices(), ...c.get<Record<string, ModelPrice>>('prices') },
      model: c.get<string>('model') || undefined,
    },
    shellTimeoutSeconds: c.get<number>('shell.timeoutSeconds') ?? 120,
  };
}

/**
 * Prices from `alfred.providers`, keyed by Alfred's model ids: a model's own under its id, a
 * provider's under `alfred/<provider>/`, which the table matches as a prefix of every model it lists.
 */
function providerPrices(): Record<string, ModelPrice> {
  const out: Record<string, ModelPrice> = {};
  for (const p of readProviders().providers) {
    if (p.price) out[offeredId(p.name, '')] = p.price;
    if (p.models === 'list') continue;
    for (const m of p.models) if (m.price) out[offeredId(p.name, m.id)] = m.price;
  }
  return out;
}
