/**
 * VS Code's own agent sandbox (its setting `chat.agent.sandbox.enabled`, Linux and macOS): where it is
 * on, its terminal commands already run in a sandbox of VS Code's, and Alfred configures that one
 * rather than nesting its own inside: its governance paths into the file-system setting's `denyWrite`
 * (the user's own entries kept), the role's `allow_write` into `allowWrite`, and the role's network
 * names into VS Code's domain lists. The setting names are VS Code's own (its
 * src/vs/platform/sandbox/common/settings.ts and networkFilter/common/settings.ts, and the
 * code-server the tests run). Pure: the adapter writes the result through the configuration pipeline.
 */
import type { NetworkRules } from '../roles/types';

export const VSCODE_SANDBOX = {
  enabled: 'chat.agent.sandbox.enabled',
  fileSystemLinux: 'chat.agent.sandbox.fileSystem.linux',
  fileSystemMac: 'chat.agent.sandbox.fileSystem.mac',
  allowedDomains: 'chat.agent.allowedNetworkDomains',
  deniedDomains: 'chat.agent.deniedNetworkDomains',
} as const;

/** Whether the setting's value turns VS Code's sandbox on: `true`, `"on"`, or an older build's mode name (anything but `"off"`). */
export function vscodeSandboxOn(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value !== '' && value !== 'off');
}

export interface VscodeSandboxInput {
  /** Alfred's governance paths and protected paths (absolute). */
  denyWrite: readonly string[];
  /** The role's allow_write paths, as the role writes them (`~/…` kept: VS Code expands it). */
  allowWrite: readonly string[];
  network?: NetworkRules;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const merged = (mine: readonly string[], theirs: readonly string[]): string[] => [...new Set([...theirs, ...mine])];

/**
 * The values to write, from the user's `current` settings: each file-system setting keeps the user's
 * keys and entries and gains Alfred's; the allowed domains are the role's (VS Code's list is the whole
 * of what its sandbox reaches: empty is no network), the denied ones the user's and the role's.
 * A role that allows every name leaves the allowed list as the user has it.
 */
export function vscodeSandboxSettings(current: Readonly<Record<string, unknown>>, input: VscodeSandboxInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of [VSCODE_SANDBOX.fileSystemLinux, VSCODE_SANDBOX.fileSystemMac]) {
    const now = current[key];
    const fsNow = typeof now === 'object' && now !== null && !Array.isArray(now) ? now as Record<string, unknown> : {};
    out[key] = {
      ...fsNow,
      denyWrite: merged(input.denyWrite, strings(fsNow.denyWrite)),
      ...(input.allowWrite.length || fsNow.allowWrite !== undefined ? { allowWrite: merged(input.allowWrite, strings(fsNow.allowWrite)) } : {}),
    };
  }
  if (input.network) {
    if (!input.network.allow.includes('*')) out[VSCODE_SANDBOX.allowedDomains] = [...input.network.allow];
    out[VSCODE_SANDBOX.deniedDomains] = merged(input.network.deny, strings(current[VSCODE_SANDBOX.deniedDomains]));
  }
  return out;
}

/** Which sandbox holds an agent's terminal commands, for the dashboard and the doctors. */
export function commandSandbox(vscodeSetting: unknown, agent: 'copilot-vscode' | 'other'): 'vscode' | 'alfred' {
  return agent === 'copilot-vscode' && vscodeSandboxOn(vscodeSetting) ? 'vscode' : 'alfred';
}
