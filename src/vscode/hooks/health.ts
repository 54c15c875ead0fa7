/**
 * The adapter of governance health (src/core/governance/health.ts): reads VS Code's chat settings,
 * Workspace Trust, the hook files and the files that can turn them off, the launcher, and the event
 * log's tail, and hands them to the core as plain values.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { lastEvent } from '../../core/events/tail';
import type { AlfredEvent } from '../../core/events/types';
import { HEALTH_HOME_FILES, HEALTH_WORKSPACE_FILES, governanceHealth, type AgentHealth, type VsCodeHookSettings } from '../../core/governance/health';
import type { Harness } from '../../core/harness';
import { lastHookRun, type HookRun } from '../../core/hooks/lastRun';
import { readLedger } from '../../core/state/ledger';
import { hookFilesRelative, readIfExists } from './hookFiles';
import { launcherDir } from './launcher';

/** A call of Alfred's own tools by an agent, or a command run in a terminal. */
export interface Activity {
  kind: 'tool' | 'terminal';
  ts: string;
  session: string;
}

/** The settings whose change can change the health. */
export const HEALTH_SETTINGS = ['chat.useHooks', 'chat.useClaudeHooks', 'chat.hookFilesLocations', 'chat.hooks.allowManagedOnly'];

/** `source: "tool"` is a call through `vscode.lm.invokeTool` (an agent's); `@alfred`'s own loop says `chat`. */
export function activityOf(e: AlfredEvent): Activity | undefined {
  if (e.type === 'ToolCall' && e.source === 'tool') return { kind: 'tool', ts: e.ts, session: e.session };
  if (e.type === 'ShellExecution' && typeof e.source === 'string' && e.source.startsWith('terminal:')) return { kind: 'terminal', ts: e.ts, session: e.session };
  return undefined;
}

export function lastActivity(stateDir: string): Activity | undefined {
  const e = lastEvent(stateDir, (ev) => activityOf(ev) !== undefined, { mustContain: ['"source":"tool"', '"source":"terminal:'] });
  return e && activityOf(e);
}

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

function mtime(file: string): string | undefined {
  try {
    return fs.statSync(file).mtime.toISOString();
  } catch {
    return undefined;
  }
}

/** What the dashboard already knows from the live event stream, so the log is not read again. */
export interface HealthCache {
  lastHook?: HookRun | null;
  activity?: Activity | null;
}

export function readGovernanceHealth(harness: Harness, cache: HealthCache = {}): AgentHealth[] {
  const ws = harness.workspaceFolder;
  const home = os.homedir();
  const read = (root: string, rel: string) => readIfExists(path.join(root, ...rel.split('/')));
  const launcher = path.join(launcherDir(), process.platform === 'win32' ? 'alfred.cmd' : 'alfred');
  const session = readLedger(harness.stateDir)?.session;
  const activity = cache.activity === undefined ? lastActivity(harness.stateDir) : cache.activity ?? undefined;
  return governanceHealth({
    workspaceFiles: Object.fromEntries(HEALTH_WORKSPACE_FILES.map((f) => [f, read(ws, f)])),
    homeFiles: Object.fromEntries(HEALTH_HOME_FILES.map((f) => [f, read(home, f)])),
    changed: Object.fromEntries(hookFilesRelative().map((f) => [f, mtime(path.join(ws, ...f.split('/')))])),
    settings: readHookSettings(),
    trusted: vscode.workspace.isTrusted,
    launcher: { path: launcher, text: readIfExists(launcher), exists: (f) => fs.existsSync(f) },
    lastHookRun: cache.lastHook === undefined ? lastHookRun(harness.stateDir) : cache.lastHook,
    activity: activity && activity.session === session ? activity : null,
  });
}
