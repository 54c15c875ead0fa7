/**
 * The adapter of governance health (src/core/integrations/health/health.ts): reads VS Code's chat settings,
 * Workspace Trust, the hook files and the files that can turn them off, the launcher, and the event
 * log's tail, and hands them to the core as plain values.
 */
import * as vscode from 'vscode';
import type { AgentHealth, VsCodeHookSettings } from '../../core/integrations/health/health';
import { readHealthFromDisk, type HealthCache } from '../../core/integrations/health/readHealth';
import type { Harness } from '../../core/harness/harness';

export { activityOf, lastActivity, type Activity, type HealthCache } from '../../core/integrations/health/readHealth';

/** The settings whose change can change the health (Copilot's OTel ones: whether its spend is measured). */
export const HEALTH_SETTINGS = ['chat.useHooks', 'chat.useClaudeHooks', 'chat.hookFilesLocations', 'chat.hooks.allowManagedOnly', 'github.copilot.chat.otel', 'alfred.usage'];

/** VS Code's chat settings as the core wants them; `chat.hookFilesLocations` merged over every scope the user sets. */
export function readHookSettings(): VsCodeHookSettings {
  const chat = vscode.workspace.getConfiguration('chat');
  const locations = chat.inspect<Record<string, unknown>>('hookFilesLocations');
  const scopes = [locations?.globalValue, locations?.workspaceValue, locations?.workspaceFolderValue].filter((v) => v && typeof v === 'object');
  return {
    useHooks: chat.get('useHooks'),
    useClaudeHooks: chat.get('useClaudeHooks'),
    allowManagedOnly: chat.get('hooks.allowManagedOnly'),
    hookFilesLocations: scopes.length ? Object.assign({}, ...scopes) : undefined,
  };
}

export function readGovernanceHealth(harness: Harness, cache: HealthCache = {}): AgentHealth[] {
  return readHealthFromDisk(harness, { settings: readHookSettings(), trusted: vscode.workspace.isTrusted, cache });
}
