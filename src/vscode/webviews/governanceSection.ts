import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AlfredEvent } from '../../core/events/types';
import type { Harness } from '../../core/harness';
import { hasClaudeHooks, isCopilotHookFileGoverning } from '../../core/hooks/install';
import { hookRunOf, lastHookRun, type HookRun } from '../../core/hooks/lastRun';
import type { GovernanceView, GovernedAgent } from '../../protocol/dashboard';
import { hookFilePaths, readIfExists } from '../hooks/hookFiles';

/** The commands the section's buttons run. */
export const GOVERNANCE_COMMANDS: Record<GovernedAgent, { govern: string; stop: string }> = {
  copilot: { govern: 'alfred.governCopilot', stop: 'alfred.stopGoverningCopilot' },
  claude: { govern: 'alfred.governClaudeCode', stop: 'alfred.stopGoverningClaudeCode' },
};

/**
 * The governance section: whether the hook files are Alfred's (two small files, read each time) and
 * when a hook last ran (read from the log's tail at each snapshot, then kept current event by event).
 */
export class GovernanceTracker {
  private lastHook: HookRun | undefined;
  private dir: string | undefined;

  view(harness: Harness | undefined): GovernanceView | null {
    if (!harness) return null;
    if (this.dir !== harness.stateDir) this.reload(harness);
    const files = hookFilePaths(harness.workspaceFolder);
    return {
      copilot: isCopilotHookFileGoverning(readIfExists(files.copilot)),
      claude: hasClaudeHooks(readIfExists(files.claude)),
      lastHook: this.lastHook ?? null,
    };
  }

  reload(harness: Harness): void {
    this.dir = harness.stateDir;
    this.lastHook = lastHookRun(harness.stateDir);
  }

  /** Adds a live event; true when it is a newer hook run. */
  add(e: AlfredEvent): boolean {
    const run = hookRunOf(e);
    if (!run || (this.lastHook && run.ts < this.lastHook.ts)) return false;
    this.lastHook = run;
    return true;
  }
}

/** Fires when a hook file is created, changed or deleted, by Alfred or anyone else. */
export function watchHookFiles(workspaceFolder: string, onChange: () => void): vscode.Disposable {
  const files = hookFilePaths(workspaceFolder);
  const rel = (f: string) => path.relative(workspaceFolder, f).split(path.sep).join('/');
  const watcher = vscode.workspace.createFileSystemWatcher(
    new vscode.RelativePattern(vscode.Uri.file(workspaceFolder), `{${rel(files.copilot)},${rel(files.claude)}}`));
  watcher.onDidCreate(onChange);
  watcher.onDidChange(onChange);
  watcher.onDidDelete(onChange);
  return watcher;
}
