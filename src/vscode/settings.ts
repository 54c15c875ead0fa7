import * as vscode from 'vscode';
import type { PricingOptions } from '../core/rules/budget/prices';
import type { ModelPrice } from '../core/rules/budget/prices';
import { capLowerOnly } from '../core/rules/budget/workspaceLimits';
import { workspacePricing } from '../core/rules/budget/workspacePricing';
import { offeredId } from '../core/models/providers/catalog';
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
  const role = bySource<string>(vscode.workspace.getConfiguration('alfred'), 'role');
  return { user: role.user || undefined, workspace: role.workspace || undefined };
}

/** A setting as the user set it (else its default), and as a workspace set it (a folder's, else the workspace's). */
export function bySource<T>(c: vscode.WorkspaceConfiguration, key: string): { user: T | undefined; workspace: T | undefined } {
  const i = c.inspect<T>(key);
  return { user: i?.globalValue ?? i?.defaultValue, workspace: i?.workspaceFolderValue || i?.workspaceValue };
}

/**
 * Alfred's settings, read fresh each time (they can change at any moment). Prices from a workspace
 * may raise what calls are charged, never lower it (workspacePricing).
 */
export function readSettings(): AlfredSettings {
  const c = vscode.workspace.getConfiguration('alfred');
  const fallback = bySource<ModelPrice>(c, 'fallbackPrice');
  const prices = bySource<Record<string, ModelPrice>>(c, 'prices');
  const model = bySource<string>(c, 'model');
  return {
    role: c.get<string>('role') || undefined,
    pricing: workspacePricing(
      { fallback: fallback.user, overrides: { ...providerPrices(), ...prices.user }, model: model.user || undefined },
      { fallback: fallback.workspace, overrides: prices.workspace, model: model.workspace },
    ),
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

/** `alfred.dailyBudgetUsd` (0: no cap): a workspace may set one or lower the user's, never raise or remove it. */
export function dailyBudgetCap(): number {
  const cap = bySource<number>(vscode.workspace.getConfiguration('alfred'), 'dailyBudgetUsd');
  return capLowerOnly(cap.user, cap.workspace);
}
