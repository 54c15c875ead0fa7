import * as vscode from 'vscode';
import type { PricingOptions } from '../core/harness';
import type { ModelPrice } from '../core/budget/prices';

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
      overrides: c.get<Record<string, ModelPrice>>('prices'),
      model: c.get<string>('model') || undefined,
    },
    shellTimeoutSeconds: c.get<number>('shell.timeoutSeconds') ?? 120,
  };
}
