import * as vscode from 'vscode';
import { parseProviders } from '../../core/models/providers/config';
import type { ProviderConfig, ProviderProblem } from '../../core/models/providers/types';

/** `alfred.providers`, read and checked (core/models/providers/config.ts): bad entries are problems, the rest load. */
export function readProviders(): { providers: ProviderConfig[]; problems: ProviderProblem[] } {
  return parseProviders(vscode.workspace.getConfiguration('alfred').get<unknown>('providers'));
}
