/**
 * VS Code's own agent sandbox (its setting `chat.agent.sandbox.enabled`, Linux and macOS): where it is
 * on, Copilot's terminal commands already run in a sandbox of VS Code's, and Alfred configures that one
 * rather than nesting its own inside: its protected paths into the file-system setting's `denyWrite`
 * (the user's own entries kept), the role's `allow_write` into `allowWrite`, and the role's network
 * names into VS Code's domain lists. Pure: the adapter writes the result through the write pipeline.
 *
 * The setting names and meanings are VS Code 1.139's (src/vs/platform/sandbox/common/settings.ts,
 * networkFilter/common/settings.ts and domainMatcher.ts; the same names are registered by the
 * code-server 4.139.1 the tests run). What they mean there:
 * - `enabled`: `"off"` (default) or `"on"`; `true`/`false` read as on/off.
 * - `fileSystem.linux` / `.mac`: `{ allowRead, denyRead, allowWrite, denyWrite }`, literal paths (no
 *   globs). Without allowWrite a command writes only the workspace folders, the workspace storage and
 *   a sandbox temp folder; denyWrite wins over allowWrite.
 * - `allowNetwork` (default true!): every domain reachable, the lists ignored.
 * - `allowUnsandboxedCommands` (default true): the agent may ask (`requestUnsandboxedExecution`) to run
 *   a command outside the sandbox after the user's yes; `retryWithAllowNetworkRequests` (default true)
 *   likewise with the network open.
 * - `allowedNetworkDomains` / `deniedNetworkDomains`: both empty blocks every name; denied wins; an
 *   empty allowed list with denied names allows every other name.
 */
import path from 'node:path';
import type { NetworkRules } from '../rules/roles/types';

export const VSCODE_SANDBOX = {
  enabled: 'chat.agent.sandbox.enabled',
  fileSystemLinux: 'chat.agent.sandbox.fileSystem.linux',
  fileSystemMac: 'chat.agent.sandbox.fileSystem.mac',
  allowNetwork: 'chat.agent.sandbox.allowNetwork',
  allowUnsandboxed: 'chat.agent.sandbox.allowUnsandboxedCommands',
  retryWithNetwork: 'chat.agent.sandbox.retryWithAllowNetworkRequests',
  allowedDomains: 'chat.agent.allowedNetworkDomains',
  deniedDomains: 'chat.agent.deniedNetworkDomains',
} as const;

/** Whether the setting's value turns VS Code's sandbox on: `true`, `"on"`, or an older build's mode name (anything but `"off"`). */
export function vscodeSandboxOn(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value !== '' && value !== 'off');
}

export interface VscodeSandboxInput {
  /** Alfred's protected paths (absolute): those where VS Code's sandbox may write are the ones it needs (neededDenyWrite). */
  denyWrite: readonly string[];
  /** The role's allow_write paths, as the role writes them (`~/…` kept: VS Code expands it). */
  allowWrite: readonly string[];
  network?: NetworkRules;
  /** The workspace folder (VS Code's sandbox writes it) and the home (for `~/` in allowWrite). */
  workspaceFolder: string;
  home: string;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const merged = (mine: readonly string[], theirs: readonly string[]): string[] => [...new Set([...theirs, ...mine])];
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The file-system setting VS Code reads on this platform. */
export function fileSystemKey(platform: NodeJS.Platform): string {
  return platform === 'darwin' ? VSCODE_SANDBOX.fileSystemMac : VSCODE_SANDBOX.fileSystemLinux;
}

/** Whether the role limits the network (Alfred's proxy would filter it): VS Code's lists must then hold its names. */
function limitsNetwork(network: NetworkRules | undefined): network is NetworkRules {
  return network !== undefined && !(network.allow.includes('*') && network.deny.length === 0);
}

/** A path of allowWrite as VS Code resolves it: `~/` under the home, a relative one under the workspace. */
function resolved(p: string, input: Pick<VscodeSandboxInput, 'workspaceFolder' | 'home'>): string {
  if (p === '~' || p.startsWith('~/')) return path.join(input.home, p.slice(1));
  return path.resolve(input.workspaceFolder, p);
}

const within = (p: string, root: string): boolean => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/**
 * The protected paths VS Code's sandbox could write and so must deny: those in the workspace or under
 * an allowWrite path (the role's and the user's `userAllowWrite`). The rest of the home it writes not.
 */
export function neededDenyWrite(input: VscodeSandboxInput, userAllowWrite: readonly string[] = []): string[] {
  const roots = [input.workspaceFolder, ...[...input.allowWrite, ...userAllowWrite].map((p) => resolved(p, input))].map((r) => path.resolve(r));
  return input.denyWrite.filter((p) => roots.some((r) => within(path.resolve(p), r)));
}

/**
 * The values to write, from the user's `current` settings: each file-system setting keeps the user's
 * keys and entries and gains the protected paths it needs; unsandboxed runs on request are turned off
 * (they would leave both sandboxes); where the role limits the network, VS Code's filter is turned on
 * (`allowNetwork` false, no retry with the network open) and its lists made the role's. Only the keys
 * whose value changes are returned.
 */
export function vscodeSandboxSettings(current: Readonly<Record<string, unknown>>, input: VscodeSandboxInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of [VSCODE_SANDBOX.fileSystemLinux, VSCODE_SANDBOX.fileSystemMac]) {
    const fsNow = isRecord(current[key]) ? current[key] as Record<string, unknown> : {};
    const allowWrite = input.allowWrite.length || fsNow.allowWrite !== undefined ? merged(input.allowWrite, strings(fsNow.allowWrite)) : undefined;
    out[key] = { ...fsNow, denyWrite: merged(neededDenyWrite(input, allowWrite ?? []), strings(fsNow.denyWrite)), ...(allowWrite ? { allowWrite } : {}) };
  }
  out[VSCODE_SANDBOX.allowUnsandboxed] = false;
  const rules = input.network;
  if (limitsNetwork(rules)) {
    out[VSCODE_SANDBOX.allowNetwork] = false;
    out[VSCODE_SANDBOX.retryWithNetwork] = false;
    if (rules.allow.length === 0) {
      // No name: both lists empty (VS Code blocks every name); a denied name alone would open every other.
      out[VSCODE_SANDBOX.allowedDomains] = [];
      out[VSCODE_SANDBOX.deniedDomains] = [];
    } else {
      if (!rules.allow.includes('*')) out[VSCODE_SANDBOX.allowedDomains] = [...rules.allow];
      out[VSCODE_SANDBOX.deniedDomains] = merged(rules.deny, strings(current[VSCODE_SANDBOX.deniedDomains]));
    }
  }
  for (const [key, value] of Object.entries(out)) if (JSON.stringify(value) === JSON.stringify(current[key])) delete out[key];
  return out;
}

export type VscodeSandboxVerdict = { holds: true } | { holds: false; off: boolean; missing: string[] };

/**
 * Whether VS Code's sandbox, as the effective `settings` of one editor configure it, holds what Alfred's
 * would: on; no command outside it on request; every protected path it could write in its denyWrite;
 * where the role limits the network, its filter on and reaching no name the role does not allow.
 * `missing` says, for a person, what falls short.
 */
export function vscodeSandboxHolds(settings: Readonly<Record<string, unknown>>, input: VscodeSandboxInput, platform: NodeJS.Platform): VscodeSandboxVerdict {
  if (!vscodeSandboxOn(settings[VSCODE_SANDBOX.enabled])) return { holds: false, off: true, missing: [`${VSCODE_SANDBOX.enabled} is off`] };
  const missing: string[] = [];
  if (settings[VSCODE_SANDBOX.allowUnsandboxed] !== false) missing.push(`${VSCODE_SANDBOX.allowUnsandboxed} is not false`);
  const key = fileSystemKey(platform);
  const fsNow = isRecord(settings[key]) ? settings[key] as Record<string, unknown> : {};
  const denied = new Set(strings(fsNow.denyWrite).map((p) => resolved(p, input)));
  const lacking = neededDenyWrite(input, strings(fsNow.allowWrite)).filter((p) => !denied.has(path.resolve(p)));
  if (lacking.length) missing.push(`${key} denyWrite lacks ${lacking.length === 1 ? lacking[0] : `${lacking.length} protected paths (${lacking.slice(0, 3).join(', ')}${lacking.length > 3 ? ', …' : ''})`}`);
  const rules = input.network;
  if (limitsNetwork(rules)) {
    if (settings[VSCODE_SANDBOX.allowNetwork] !== false) missing.push(`${VSCODE_SANDBOX.allowNetwork} is not false`);
    if (settings[VSCODE_SANDBOX.retryWithNetwork] !== false) missing.push(`${VSCODE_SANDBOX.retryWithNetwork} is not false`);
    const allowed = strings(settings[VSCODE_SANDBOX.allowedDomains]);
    const deniedNames = strings(settings[VSCODE_SANDBOX.deniedDomains]);
    if (allowed.length === 0 && deniedNames.length > 0) missing.push(`${VSCODE_SANDBOX.allowedDomains} is empty, so every name but the denied ones is reachable`);
    const extra = rules.allow.includes('*') ? [] : allowed.filter((d) => !rules.allow.includes(d));
    if (extra.length) missing.push(`${VSCODE_SANDBOX.allowedDomains} allows what the role does not (${extra.join(', ')})`);
    const deny = allowed.length === 0 && deniedNames.length === 0 ? [] : rules.deny.filter((d) => !deniedNames.includes(d));
    if (deny.length) missing.push(`${VSCODE_SANDBOX.deniedDomains} lacks ${deny.join(', ')}`);
  }
  return missing.length ? { holds: false, off: false, missing } : { holds: true };
}

/**
 * The settings an editor applies: the user's (or a profile's) overlaid with the workspace's, as VS Code
 * merges them (objects key by key, any other value replaced).
 */
export function effectiveSettings(user: Readonly<Record<string, unknown>>, workspace: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...user };
  for (const [key, value] of Object.entries(workspace)) out[key] = isRecord(value) && isRecord(out[key]) ? effectiveSettings(out[key] as Record<string, unknown>, value) : value;
  return out;
}

/** Which sandbox holds an agent's terminal commands, for the dashboard and the doctors. */
export function commandSandbox(verdict: VscodeSandboxVerdict, agent: 'copilot-vscode' | 'other'): 'vscode' | 'alfred' {
  return agent === 'copilot-vscode' && verdict.holds ? 'vscode' : 'alfred';
}

/** VS Code's terminal tool, the one its sandbox runs (a task, a notebook cell, a line typed into a terminal are not). */
const TERMINAL_TOOLS = new Set(['run_in_terminal', 'runinterminal']);

/**
 * Whether a hook's shell call is one VS Code's own sandbox runs: Copilot's terminal tool in VS Code
 * (not Claude Code, Codex, Gemini or the Copilot CLI, whose commands VS Code does not run), with a
 * command, not asking to run outside the sandbox. Only then may its sandbox stand in for Alfred's.
 */
export function runsInVscodeSandbox(hook: { format: string; agent?: string }, base: string, toolInput: unknown): boolean {
  if (hook.format !== 'vscode' || hook.agent !== undefined || !TERMINAL_TOOLS.has(base.toLowerCase())) return false;
  if (!isRecord(toolInput) || typeof toolInput.command !== 'string') return false;
  return !toolInput.requestUnsandboxedExecution;
}

/** The command that writes Alfred's rules into VS Code's sandbox settings (the doctors name it). */
export const VSCODE_SANDBOX_COMMAND = 'alfred.configureVscodeSandbox';
