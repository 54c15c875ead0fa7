/**
 * Whether each terminal agent will run the hooks Alfred wrote, by what the agent itself reads before
 * it runs a project's hooks: Codex's project and hook trust, the Copilot CLI's folder trust, Gemini
 * CLI's workspace trust and hooks switch, Claude Code's managed settings. Each probe names the file
 * it read and the exact step that puts the hooks in force. Pure: the files come through `read`.
 */
import * as path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import type { HealthIssue } from './health';

export interface InForceContext {
  /** The workspace folder, resolved (symlinks followed) as the agents resolve it. */
  workspace: string;
  /** The repository root holding the workspace (git's top level), when there is one. */
  repositoryRoot?: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  /** A file's text by absolute path; undefined when missing or unreadable. */
  read: (file: string) => string | undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function jsonOf(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return parseJsonc(text, [], { allowTrailingComma: true });
  } catch {
    return undefined;
  }
}

function tomlOf(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** `~/…` in messages, so a step reads as the user would type it. */
function shown(file: string, home: string): string {
  const rel = path.relative(home, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? `~/${rel.split(path.sep).join('/')}` : file;
}

/** Whether `inner` is `outer` or inside it. */
function within(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** `$CODEX_HOME/config.toml` (default `~/.codex`). */
export function codexConfigFile(ctx: Pick<InForceContext, 'env' | 'home'>): string {
  const home = ctx.env.CODEX_HOME && path.isAbsolute(ctx.env.CODEX_HOME) ? ctx.env.CODEX_HOME : path.join(ctx.home, '.codex');
  return path.join(home, 'config.toml');
}

/** The folder Codex records trust for: the repository's root when the workspace is in one, else the workspace. */
export function codexTrustTarget(ctx: Pick<InForceContext, 'workspace' | 'repositoryRoot'>): string {
  return ctx.repositoryRoot ?? ctx.workspace;
}

/** Codex's event names in its hook trust keys (`<file>:<event>:<group>:<hook>`). */
const CODEX_STATE_EVENT: Readonly<Record<string, string>> = {
  SessionStart: 'session_start', UserPromptSubmit: 'user_prompt_submit', PreToolUse: 'pre_tool_use', PostToolUse: 'post_tool_use',
  Stop: 'stop', SubagentStart: 'subagent_start', SubagentStop: 'subagent_stop', PreCompact: 'pre_compact',
};

/**
 * Codex reads `.codex/hooks.json` only in a trusted project (`[projects."<path>"] trust_level =
 * "trusted"`, for the workspace or its repository's root) and runs each hook only once the user
 * reviewed it (`[hooks.state."<file>:<event>:<group>:<hook>"] trusted_hash`). Whether a recorded
 * review still matches the hook is Codex's to tell (the hash is its own): a missing one is reported.
 * `alfredEntries`: where Alfred's hooks sit in the file (event, group, hook index).
 */
export function codexInForce(ctx: InForceContext, alfredEntries: ReadonlyArray<{ event: string; group: number; hook: number }>): HealthIssue[] {
  const file = codexConfigFile(ctx);
  const config = tomlOf(ctx.read(file)) ?? {};
  const projects = isRecord(config.projects) ? config.projects : {};
  const target = codexTrustTarget(ctx);
  const levels = [target, ctx.workspace].map((p) => (isRecord(projects[p]) ? projects[p].trust_level : undefined));
  if (!levels.includes('trusted') || levels.includes('untrusted')) {
    return [{ code: 'codex-project-untrusted', file: shown(file, ctx.home), project: target }];
  }
  const hooks = isRecord(config.hooks) && isRecord(config.hooks.state) ? config.hooks.state : {};
  const hookFile = path.join(ctx.workspace, '.codex', 'hooks.json');
  const unreviewed = alfredEntries.filter(({ event, group, hook }) => {
    const state = hooks[`${hookFile}:${CODEX_STATE_EVENT[event] ?? event}:${group}:${hook}`];
    return !(isRecord(state) && typeof state.trusted_hash === 'string' && state.enabled !== false);
  }).map((e) => e.event);
  return unreviewed.length ? [{ code: 'codex-hooks-unreviewed', events: [...new Set(unreviewed)] }] : [];
}

/** `$COPILOT_HOME` (default `~/.copilot`). */
function copilotHome(ctx: Pick<InForceContext, 'env' | 'home'>): string {
  return ctx.env.COPILOT_HOME && path.isAbsolute(ctx.env.COPILOT_HOME) ? ctx.env.COPILOT_HOME : path.join(ctx.home, '.copilot');
}

/** The Copilot CLI's file of trusted folders (measured with 1.0.102: `trusted_folders` there; `trustedFolders` in settings.json is not read). */
export function copilotCliConfigFile(ctx: Pick<InForceContext, 'env' | 'home'>): string {
  return path.join(copilotHome(ctx), 'config.json');
}

/**
 * The Copilot CLI runs a repository's `.github/hooks` only in a folder the user trusted: listed
 * (itself or a folder above it) in `trusted_folders`, or everything allowed (`COPILOT_ALLOW_ALL`);
 * a `-p` run can pass `--trust-folder` instead.
 */
export function copilotCliInForce(ctx: InForceContext): HealthIssue[] {
  if (ctx.env.COPILOT_ALLOW_ALL === 'true') return [];
  const file = copilotCliConfigFile(ctx);
  const data = jsonOf(ctx.read(file));
  const folders = isRecord(data) && Array.isArray(data.trusted_folders) ? data.trusted_folders.filter((f): f is string => typeof f === 'string') : [];
  if (folders.some((f) => path.isAbsolute(f) && within(path.resolve(f), ctx.workspace))) return [];
  return [{ code: 'copilot-cli-folder-untrusted', file: shown(file, ctx.home), folder: ctx.workspace }];
}

/** Gemini CLI's trusted folders: `GEMINI_CLI_TRUSTED_FOLDERS_PATH`, else `~/.gemini/trustedFolders.json`. */
export function geminiTrustFile(ctx: Pick<InForceContext, 'env' | 'home'>): string {
  const moved = ctx.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH;
  return moved && path.isAbsolute(moved) ? moved : path.join(ctx.home, '.gemini', 'trustedFolders.json');
}

/** Gemini CLI's system settings, which override the user's (0.61). */
function geminiSystemSettings(ctx: InForceContext): string {
  if (ctx.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH && path.isAbsolute(ctx.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH)) return ctx.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH;
  if (ctx.platform === 'darwin') return '/Library/Application Support/GeminiCli/settings.json';
  if (ctx.platform === 'win32') return 'C:\\ProgramData\\gemini-cli\\settings.json';
  return '/etc/gemini-cli/settings.json';
}

/** A dotted key of a settings object (`security.folderTrust.enabled`). */
function setting(data: unknown, key: string): unknown {
  let v = data;
  for (const part of key.split('.')) v = isRecord(v) ? v[part] : undefined;
  return v;
}

/**
 * Gemini CLI (0.61) reads a workspace's `.gemini/settings.json`, hooks included, only in a trusted
 * folder: `GEMINI_CLI_TRUST_WORKSPACE=true`, folder trust turned off (`security.folderTrust.enabled`
 * false), or the longest matching rule of its trusted folders being TRUST_FOLDER (or TRUST_PARENT,
 * which trusts the rule's parent folder). `hooksConfig.enabled: false` turns every hook off.
 */
export function geminiInForce(ctx: InForceContext): HealthIssue[] {
  const issues: HealthIssue[] = [];
  const userFile = path.join(ctx.home, '.gemini', 'settings.json');
  const systemFile = geminiSystemSettings(ctx);
  const layers = [systemFile, userFile, path.join(ctx.workspace, '.gemini', 'settings.json')];
  const value = (key: string, files: readonly string[]) => {
    for (const f of files) {
      const v = setting(jsonOf(ctx.read(f)), key);
      if (v !== undefined) return { v, file: f };
    }
    return undefined;
  };
  const trusted = geminiTrusted(ctx, value('security.folderTrust.enabled', [systemFile, userFile])?.v !== false);
  if (!trusted) issues.push({ code: 'gemini-folder-untrusted', file: shown(geminiTrustFile(ctx), ctx.home), folder: ctx.workspace });
  // The workspace's own settings count only where it is trusted.
  const off = value('hooksConfig.enabled', trusted ? layers : layers.slice(0, 2));
  if (off?.v === false) issues.push({ code: 'gemini-hooks-off', file: shown(off.file, ctx.home) });
  return issues;
}

function geminiTrusted(ctx: InForceContext, folderTrustOn: boolean): boolean {
  if (ctx.env.GEMINI_RESTRICTED_MODE === 'true' || ctx.env.GEMINI_CLI_TRUST_WORKSPACE === 'false') return false;
  if (ctx.env.GEMINI_CLI_TRUST_WORKSPACE === 'true' || !folderTrustOn) return true;
  const rules = jsonOf(ctx.read(geminiTrustFile(ctx)));
  let best: { length: number; level: unknown } | undefined;
  for (const [rule, level] of Object.entries(isRecord(rules) ? rules : {})) {
    if (!path.isAbsolute(rule)) continue;
    const folder = level === 'TRUST_PARENT' ? path.dirname(rule) : rule;
    if (within(path.resolve(folder), ctx.workspace) && (!best || rule.length > best.length)) best = { length: rule.length, level };
  }
  return best?.level === 'TRUST_FOLDER' || best?.level === 'TRUST_PARENT';
}

/** Claude Code's managed settings, which no other settings file overrides. */
export function claudeManagedSettingsFile(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\managed-settings.json';
  return '/etc/claude-code/managed-settings.json';
}

/**
 * Claude Code's managed settings can turn every hook off (`disableAllHooks`) or allow only the
 * managed ones (`allowManagedHooksOnly`), which leaves out a project's `.claude/settings.json`.
 * Only whoever administers the machine changes that file.
 */
export function claudeInForce(ctx: InForceContext): HealthIssue[] {
  const file = claudeManagedSettingsFile(ctx.platform);
  const data = jsonOf(ctx.read(file));
  if (!isRecord(data)) return [];
  if (data.disableAllHooks === true) return [{ code: 'managed-settings-block-hooks', file, setting: 'disableAllHooks' }];
  if (data.allowManagedHooksOnly === true) return [{ code: 'managed-settings-block-hooks', file, setting: 'allowManagedHooksOnly' }];
  return [];
}
