/**
 * Governance health: for each governed agent (GOVERNED_AGENTS), whether its hook file has Alfred's
 * hooks and, when it has them, whether they are really in force — or why not. Pure: the adapter reads
 * the settings, files, launcher and event log and passes them in; this says what they mean.
 *
 * Who reads which hook file (VS Code 1.139):
 * - Copilot in VS Code (the Local agent harness) reads `.github/hooks/*.json` itself, under
 *   `chat.useHooks`, `chat.hookFilesLocations`, `chat.hooks.allowManagedOnly` and Workspace Trust.
 * - The Copilot CLI and Codex runtimes read their own files (`.github/hooks`, `.codex/hooks.json`);
 *   VS Code's chat settings do not apply to them.
 * - Claude Code reads `.claude/settings*.json` itself. VS Code's own agent reads them too, but only
 *   with `chat.useClaudeHooks` on (off by default).
 */
import * as path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { AGENT_HOOK_FILES } from '../hooks/agentHooks';
import { isCopilotHookFileGoverning, launcherTarget } from '../hooks/install';
import type { HookRun } from '../hooks/lastRun';
import { GOVERNED_AGENTS, HOOK_FILES, type AgentId } from '../../protect/agents';
import { isObject } from '../../base/isObject';

export type HealthState = 'governed' | 'not-governed' | 'not-in-force';

/** A VS Code setting that keeps VS Code's own agent from reading a hook file. */
export type VsCodeHookSetting = 'chat.useHooks' | 'chat.useClaudeHooks' | 'chat.hookFilesLocations' | 'chat.hooks.allowManagedOnly';

export type HealthIssue =
  /** `chat.useHooks` is false: VS Code's own agent runs no hooks. */
  | { code: 'hooks-disabled' }
  /** `chat.hooks.allowManagedOnly`: only hooks from managed plugins run. */
  | { code: 'managed-hooks-only' }
  /** `chat.hookFilesLocations` does not search the hook file. */
  | { code: 'location-not-searched'; file: string }
  /** The file (or one that overrides it) says `"disableAllHooks": true`. */
  | { code: 'file-disables-hooks'; file: string }
  /** A Codex config.toml turns hooks off (`[features] hooks = false`). */
  | { code: 'codex-hooks-off'; file: string }
  /** `~/.alfred/bin/alfred`, which every hook command runs, is not there. */
  | { code: 'launcher-missing'; launcher: string }
  /** The launcher runs a runtime or a command-line file that no longer exists (an old installation). */
  | { code: 'launcher-stale'; launcher: string; missing: string }
  /** Restricted Mode: VS Code runs no hooks in an untrusted workspace. */
  | { code: 'untrusted' }
  /** Note: VS Code's own agent skips `.claude` hooks (because of `setting`); Claude Code itself reads them. */
  | { code: 'vscode-skips-claude-hooks'; setting: VsCodeHookSetting }
  /** Warning: VS Code's own agent reads two of Alfred's hook files, so Alfred runs (and charges) twice per call. */
  | { code: 'runs-twice'; files: string[] }
  /** Codex reads a project's hooks only once the project is trusted in its config.toml (`file`). */
  | { code: 'codex-project-untrusted'; file: string; project: string }
  /** Codex runs a project hook only once the user reviewed it: these events' hooks were not. */
  | { code: 'codex-hooks-unreviewed'; events: string[] }
  /** The Copilot CLI runs a repository's hooks only in a folder listed in `trusted_folders` of `file`. */
  | { code: 'copilot-cli-folder-untrusted'; file: string; folder: string }
  /** Gemini CLI reads a workspace's settings (its hooks) only in a folder trusted in `file`. */
  | { code: 'gemini-folder-untrusted'; file: string; folder: string }
  /** `hooksConfig.enabled` is false in `file`: Gemini CLI runs no hooks. */
  | { code: 'gemini-hooks-off'; file: string }
  /** Claude Code's managed settings (`file`) turn hooks off or allow only managed ones. */
  | { code: 'managed-settings-block-hooks'; file: string; setting: 'disableAllHooks' | 'allowManagedHooksOnly' }
  /** Warning: tool calls were recorded in this session, but no hook has run since the hooks were installed. */
  | { code: 'no-hook-run'; activity: 'tool' | 'terminal'; at: string; since: string | null };

export interface AgentHealth {
  id: AgentId;
  label: string;
  /** Workspace-relative, with `/`. */
  hookFile: string;
  /** The hook file has Alfred's hooks. */
  installed: boolean;
  state: HealthState;
  /** Why an installed agent is not in force (empty otherwise). */
  reasons: HealthIssue[];
  /** True and worth knowing, but the agent is governed. */
  notes: HealthIssue[];
  /** Signs that something is off, not proof. */
  warnings: HealthIssue[];
}

/** VS Code's chat settings, as read (undefined: not set, the default applies). */
export interface VsCodeHookSettings {
  useHooks?: unknown;
  useClaudeHooks?: unknown;
  /** `chat.hookFilesLocations` as the user set it (every scope merged), without VS Code's defaults. */
  hookFilesLocations?: unknown;
  allowManagedOnly?: unknown;
}

export interface HealthInput {
  /** Texts of HEALTH_WORKSPACE_FILES that exist, by workspace-relative path. */
  workspaceFiles: Readonly<Record<string, string | undefined>>;
  /** Texts of HEALTH_HOME_FILES that exist, by home-relative path. */
  homeFiles?: Readonly<Record<string, string | undefined>>;
  /** When each hook file last changed (ISO time), by workspace-relative path. */
  changed?: Readonly<Record<string, string | undefined>>;
  settings: VsCodeHookSettings;
  trusted: boolean;
  launcher: {
    /** Where it is, for messages. */
    path: string;
    text: string | undefined;
    /** Whether a file exists (the runtime and command line the launcher names). */
    exists: (file: string) => boolean;
  };
  /** What each agent itself says about running the hooks (integrations/health/inForce.ts), by agent. */
  inForce?: Partial<Readonly<Record<AgentId, readonly HealthIssue[]>>>;
  /** The newest hook run in the log. */
  lastHookRun?: HookRun | null;
  /** The newest call of Alfred's own tools (`tool`) or terminal command (`terminal`) of this harness session. */
  activity?: { kind: 'tool' | 'terminal'; ts: string } | null;
}

/** Workspace files the health looks at: every hook file, plus the files that can turn them off. */
export const HEALTH_WORKSPACE_FILES: readonly string[] = [
  ...new Set([...HOOK_FILES, '.claude/settings.local.json', '.codex/config.toml']),
];
/** Home files that can turn an agent's hooks off. */
export const HEALTH_HOME_FILES: readonly string[] = ['.claude/settings.json', '.codex/config.toml'];

/** VS Code 1.139's default `chat.hookFilesLocations`: always searched unless the setting maps them to false. */
export const VSCODE_HOOK_LOCATIONS: Readonly<Record<string, boolean>> = {
  '.github/hooks': true, '.claude/settings.local.json': true, '.claude/settings.json': true,
  '~/.copilot/hooks': true, '~/.claude/settings.json': true,
};

/** How VS Code's own agent (the Local harness) relates to an agent's hook file. */
type VsCodeReads = 'always' | 'with-claude-hooks' | 'never';

interface Reader {
  vscode: VsCodeReads;
  /**
   * Files in which the agent honors `"disableAllHooks": true`, highest precedence first (`hookFile`:
   * the agent's own hook file).
   */
  disableAllHooksIn?: ReadonlyArray<{ file: string | 'hookFile'; home?: boolean }>;
}

const READERS: Readonly<Record<AgentId, Reader>> = {
  copilot: { vscode: 'always', disableAllHooksIn: [{ file: 'hookFile' }] },
  'copilot-cli': { vscode: 'never' },
  'claude-code': {
    vscode: 'with-claude-hooks',
    disableAllHooksIn: [{ file: '.claude/settings.local.json' }, { file: 'hookFile' }, { file: '.claude/settings.json', home: true }],
  },
  codex: { vscode: 'never' },
  gemini: { vscode: 'never' },
};

const normalizeKey = (k: string) => k.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');

/**
 * Whether VS Code's own agent searches a workspace-relative file: the file's own key wins, then its
 * folder's (a folder means the `*.json` files in it); VS Code's defaults apply unless set to false.
 */
export function searchedByVsCode(file: string, configured: unknown): boolean {
  const locations = new Map<string, boolean>(Object.entries(VSCODE_HOOK_LOCATIONS));
  if (isObject(configured)) {
    for (const [k, v] of Object.entries(configured)) locations.set(normalizeKey(k), v === true);
  }
  const dir = path.posix.dirname(file);
  for (const key of [file, ...(file.endsWith('.json') ? [dir] : [])]) {
    const v = locations.get(key);
    if (v !== undefined) return v;
  }
  return false;
}

function jsonFlag(text: string | undefined, key: string): unknown {
  if (!text) return undefined;
  try {
    const data = JSON.parse(text) as unknown;
    return data && typeof data === 'object' ? (data as Record<string, unknown>)[key] : undefined;
  } catch {
    // Comments are allowed in Claude's settings: a plain search is enough for one flag.
    const m = new RegExp(`"${key}"\\s*:\\s*(true|false)`).exec(text);
    return m ? m[1] === 'true' : undefined;
  }
}

/** `[features] hooks` (or the older `codex_hooks`) of a Codex config.toml; undefined when not set or unreadable. */
export function codexHooksFeature(text: string | undefined): boolean | undefined {
  if (!text) return undefined;
  try {
    const features = (parseToml(text) as { features?: Record<string, unknown> }).features;
    const v = features?.hooks ?? features?.codex_hooks;
    return typeof v === 'boolean' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Why VS Code's own agent would not run the hooks of `file` (the first reason), or undefined when it would. */
function vscodeSkips(file: string, s: VsCodeHookSettings, claude: boolean): VsCodeHookSetting | undefined {
  if (s.useHooks === false) return 'chat.useHooks';
  if (s.allowManagedOnly === true) return 'chat.hooks.allowManagedOnly';
  if (claude && s.useClaudeHooks !== true) return 'chat.useClaudeHooks';
  if (!searchedByVsCode(file, s.hookFilesLocations)) return 'chat.hookFilesLocations';
  return undefined;
}

function launcherIssue(l: HealthInput['launcher']): HealthIssue | undefined {
  if (l.text === undefined) return { code: 'launcher-missing', launcher: l.path };
  const target = launcherTarget(l.text);
  // A launcher someone wrote by hand: Alfred cannot tell what it runs, so it says nothing.
  if (!target) return undefined;
  for (const file of [target.cli, target.runtime]) {
    if (!l.exists(file)) return { code: 'launcher-stale', launcher: l.path, missing: file };
  }
  return undefined;
}

/** Health rows, one per governed agent, in GOVERNED_AGENTS' order. */
export function governanceHealth(input: HealthInput): AgentHealth[] {
  const ws = (f: string) => input.workspaceFiles[f];
  const home = (f: string) => input.homeFiles?.[f];
  const launcher = launcherIssue(input.launcher);
  const s = input.settings;
  const copilotFile = GOVERNED_AGENTS.find((a) => a.id === 'copilot')?.hookFile;

  return GOVERNED_AGENTS.map((agent): AgentHealth => {
    const reader = READERS[agent.id];
    const text = ws(agent.hookFile);
    const installed = AGENT_HOOK_FILES[agent.id].installed(text);
    const row: AgentHealth = { id: agent.id, label: agent.label, hookFile: agent.hookFile, installed, state: 'not-governed', reasons: [], notes: [], warnings: [] };
    if (!installed) return row;

    if (!input.trusted) row.reasons.push({ code: 'untrusted' });
    if (launcher) row.reasons.push(launcher);
    for (const where of reader.disableAllHooksIn ?? []) {
      const file = where.file === 'hookFile' ? agent.hookFile : where.file;
      const inHome = where.home === true;
      const flag = jsonFlag(inHome ? home(file) : ws(file), 'disableAllHooks');
      if (flag === undefined) continue;
      if (flag === true) row.reasons.push({ code: 'file-disables-hooks', file: inHome ? `~/${file}` : file });
      break;
    }
    row.reasons.push(...(input.inForce?.[agent.id] ?? []));
    if (agent.id === 'codex') {
      // The project's config.toml overrides the user's.
      const project = codexHooksFeature(ws('.codex/config.toml'));
      const user = codexHooksFeature(home('.codex/config.toml'));
      if (project === false) row.reasons.push({ code: 'codex-hooks-off', file: '.codex/config.toml' });
      else if (project === undefined && user === false) row.reasons.push({ code: 'codex-hooks-off', file: '~/.codex/config.toml' });
    }

    // VS Code's own agent: its settings decide for Copilot's file; for .claude files they only say whether VS Code reads them too.
    let vscodeRuns = false;
    if (reader.vscode === 'always') {
      const skip = vscodeSkips(agent.hookFile, s, false);
      if (skip === 'chat.useHooks') row.reasons.push({ code: 'hooks-disabled' });
      else if (skip === 'chat.hooks.allowManagedOnly') row.reasons.push({ code: 'managed-hooks-only' });
      else if (skip === 'chat.hookFilesLocations') row.reasons.push({ code: 'location-not-searched', file: agent.hookFile });
      vscodeRuns = !skip;
    } else if (reader.vscode === 'with-claude-hooks') {
      const skip = vscodeSkips(agent.hookFile, s, true);
      if (skip) row.notes.push({ code: 'vscode-skips-claude-hooks', setting: skip });
      vscodeRuns = !skip;
      if (vscodeRuns && copilotFile && isCopilotHookFileGoverning(ws(copilotFile)) && !vscodeSkips(copilotFile, s, false)) {
        row.warnings.push({ code: 'runs-twice', files: [copilotFile, agent.hookFile] });
      }
    }

    row.state = row.reasons.length ? 'not-in-force' : 'governed';
    // Alfred's own tools and the terminal are what VS Code's own agent uses: a hook should have run.
    if (row.state === 'governed' && vscodeRuns && input.activity) {
      const since = input.changed?.[agent.hookFile] ?? null;
      const last = input.lastHookRun ?? undefined;
      const activityAfter = !since || input.activity.ts >= since;
      const hookAfter = last !== undefined && (!since || last.ts >= since);
      if (activityAfter && !hookAfter) row.warnings.push({ code: 'no-hook-run', activity: input.activity.kind, at: input.activity.ts, since });
    }
    return row;
  });
}
