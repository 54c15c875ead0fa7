/**
 * Governance health read from disk: the hook files, the files that can turn them off, the launcher
 * and the log's newest hook run and agent activity, handed to governanceHealth with the editor's
 * settings as the caller knows them (the editor passes VS Code's; the command line has none and
 * passes `{}`: VS Code's defaults).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AlfredEvent } from '../../base/events/types';
import { readIfExists } from '../../base/fs/readIfExists';
import { lastEvent } from '../../base/events/tail';
import type { Harness } from '../../harness/harness';
import { launcherFile } from '../hooks/launcherPath';
import { lastHookRun, type HookRun } from '../hooks/lastRun';
import { readLedger } from '../../ledger/ledgerFormat';
import { governedAgent, HOOK_FILES } from '../../protect/agents';
import { HEALTH_HOME_FILES, HEALTH_WORKSPACE_FILES, governanceHealth, type AgentHealth, type VsCodeHookSettings } from './health';
import { agentsInForce, inForceContext } from './inForceAll';

/** A call of Alfred's own tools by an agent, or a command run in a terminal. */
export interface Activity {
  kind: 'tool' | 'terminal';
  ts: string;
  session: string;
}

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

/** What the dashboard already knows from the live event stream, so the log is not read again. */
export interface HealthCache {
  lastHook?: HookRun | null;
  activity?: Activity | null;
}

function mtime(file: string): string | undefined {
  try {
    return fs.statSync(file).mtime.toISOString();
  } catch {
    return undefined;
  }
}

export function readHealthFromDisk(harness: Harness, opts: { settings: VsCodeHookSettings; trusted: boolean; home?: string; cache?: HealthCache; env?: NodeJS.ProcessEnv }): AgentHealth[] {
  const ws = harness.workspaceFolder;
  const home = opts.home ?? os.homedir();
  const cache = opts.cache ?? {};
  const read = (root: string, rel: string) => readIfExists(path.join(root, ...rel.split('/')));
  const launcher = launcherFile(home);
  const session = readLedger(harness.stateDir)?.session;
  const activity = cache.activity === undefined ? lastActivity(harness.stateDir) : cache.activity ?? undefined;
  return governanceHealth({
    workspaceFiles: Object.fromEntries(HEALTH_WORKSPACE_FILES.map((f) => [f, read(ws, f)])),
    homeFiles: Object.fromEntries(HEALTH_HOME_FILES.map((f) => [f, read(home, f)])),
    changed: Object.fromEntries(HOOK_FILES.map((f) => [f, mtime(path.join(ws, ...f.split('/')))])),
    inForce: agentsInForce(inForceContext(ws, home, opts.env ?? process.env), (id) => read(ws, governedAgent(id).hookFile)),
    settings: opts.settings,
    trusted: opts.trusted,
    launcher: { path: launcher, text: readIfExists(launcher), exists: (f) => fs.existsSync(f) },
    lastHookRun: cache.lastHook === undefined ? lastHookRun(harness.stateDir) : cache.lastHook,
    activity: activity && activity.session === session ? activity : null,
  });
}
