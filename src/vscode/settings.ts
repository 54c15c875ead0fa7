import * as vscode from 'vscode';
import type { PricingOptions } from '../core/harness';
import type { ModelPrice } from '../core/budget/prices';

export interface AlfredSettings {
  role: string | undefined;
  pricing: PricingOptions;
  shellTimeoutSeconds: number;
}

/** Alfred's settings, read fresh each time (they can change at any moment). */
export function readSettings(): AlfredSettings {
  const c = vscode.workspace.getConfiguration('alfred');
  return {
    role: c.get<string>('role') || undefined,
    pricing: {
      fallback: c.get<ModelPrice>('fallbackPrice'),
      overrides: c.get<Record<string, ModelPrice>>('prices'),
      model: c.get<string>('model') || undefined,
    },
    shellTimeoutSeconds: c.get<number>('shell.timeoutSeconds') ?? 120,
  };
}
