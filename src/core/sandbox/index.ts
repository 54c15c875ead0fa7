/**
 * The one decision every shell path asks for (ARCHITECTURE.md, Protected paths hold against any command):
 * how to run a command so that protected paths hold whatever it does. Alfred's ctx_shell spawns
 * `argv(...)`; an agent's hook rewrites a terminal command into `line(...)`.
 */
import type { Role } from '../rules/roles/types';
import { detectSandbox, strictFailure, type DetectOptions } from './detect';
import type { AvailableSandbox, Sandbox } from './types';
import { blockDevices } from './blockDevices';
import { commandServers, liveSockets } from './commandServers';
import { closedHomes, hookRunFolder, netFolder, ownCopies, readOnlyPaths, writableRoots, type MountOptions } from './mounts';
import * as os from 'node:os';
import * as path from 'node:path';
import { alfredHome, planFile, SANDBOXED_PORT_FILE, workspaceId } from '../base/state/paths';
import { savePlan, saveSandboxFilter } from './launcher';
import { KeptValues, notedEnv, runningCode } from '../base/fs/keptReads';
import * as fs from 'node:fs';
import { netRunnerWords, type NetConfig } from './netConfig';
import { unrestricted } from './netRules';
import { bwrapPrefix, quoteAlways, sandboxArgv, sandboxCommandLine, shellQuote, type OwnCopy } from './wrap';

export { detectSandbox, resetSandboxDetection } from './detect';
export type { AvailableSandbox, Sandbox } from './types';
export { readOnlyPaths, writableRoots, type MountOptions } from './mounts';
export { sandboxArgv, sandboxCommandLine, sandboxExecProfile, shellQuote, type WrapInput } from './wrap';

export interface PlanOptions extends MountOptions {
  role: Pick<Role, 'name' | 'sandbox' | 'allowWrite' | 'network'>;
  /** What runs the network runner (netRun.ts): node and its file; injected by tests. Default: `<installation>/dist/cli/alfred-net.cjs` with this Node. */
  netRunner?: readonly string[];
  /** Names the proxy connects elsewhere (tests: servers on loopback). */
  netHosts?: Record<string, string>;
  /** What detectSandbox found; injected by tests. Default: detectSandbox(env). */
  sandbox?: Sandbox;
  /** Which code plans (a plan another build saved is not used); injected by tests. Default: runningCode(). */
  code?: string;
  /** Runs the probe of the seccomp filter (strict with bubblewrap); injected by tests. Default: runs it (detect.ts). */
  probe?: DetectOptions['probe'];
}

export type SandboxPlan =
  | {
      kind: 'sandboxed';
      sandbox: AvailableSandbox;
      /** What the command may not write (absolute real paths). */
      readOnly: string[];
      /** The only folders it may write (absolute real paths): the workspace, temp folders holding the home, the role's allow_write. */
      writable?: string[];
      /** The temporary folders and download caches it writes, each shown as the workspace's own (mounts.ts, ownCopies). */
      ownCopies?: OwnCopy[];
      /** Where its commands' network goes (networkPlan). */
      network: NetworkSummary;
      /** argv to spawn: `/bin/sh -c command` in `cwd`, sandboxed. */
      argv(command: string, cwd: string): string[];
      /** One POSIX shell line running `command` in the user's `$SHELL`, sandboxed; without `cwd`, in the terminal's folder. */
      line(command: string, cwd?: string): string;
    }
  | { kind: 'refused'; reason: string }
  /** `note` says why, for the agent; `role-off` is the user's choice, `unavailable` the machine's. */
  | { kind: 'unsandboxed'; note: string; why: 'role-off' | 'unavailable' };

/** Whether shell commands of the role run in a sandbox here, and which, without their mounts (cheap). */
export type SandboxVerdict = Exclude<SandboxPlan, { kind: 'sandboxed' }> | { kind: 'sandboxed'; sandbox: AvailableSandbox };

export function sandboxVerdict(opts: Pick<PlanOptions, 'role' | 'sandbox' | 'env'>): SandboxVerdict {
  const { role } = opts;
  if (role.sandbox === 'off') {
    return { kind: 'unsandboxed', why: 'role-off', note: `role "${role.name}" has sandbox = "off": protected paths are guarded by best-effort parsing only` };
  }
  const sandbox = opts.sandbox ?? detectSandbox(opts.env);
  if (sandbox.kind === 'none') {
    if (role.sandbox === 'required' || role.sandbox === 'strict') {
      return {
        kind: 'refused',
        reason: `Shell commands are refused: role "${role.name}" requires a kernel sandbox (sandbox = "${role.sandbox}") and there is none here (${sandbox.why}). `
          + 'Install bubblewrap (Linux) or switch to a role with sandbox = "auto".',
      };
    }
    return { kind: 'unsandboxed', why: 'unavailable', note: `no kernel sandbox here (${sandbox.why}): protected paths are guarded by best-effort parsing only` };
  }
  return { kind: 'sandboxed', sandbox };
}

export function planSandbox(opts: PlanOptions): SandboxPlan {
  const verdict = sandboxVerdict(opts);
  if (verdict.kind !== 'sandboxed') return verdict;
  const { sandbox } = verdict;
  const strict = opts.role.sandbox === 'strict';
  let seccomp: string | undefined;
  if (strict && sandbox.kind === 'bwrap') {
    const refused = (why: string): SandboxPlan => ({ kind: 'refused', reason: `Shell commands are refused: role "${opts.role.name}" has sandbox = "strict", and ${why}.` });
    let saved: ReturnType<typeof saveSandboxFilter>;
    try {
      saved = saveSandboxFilter(path.join(opts.home ?? os.homedir(), '.alfred'));
    } catch (err) {
      return refused(`Alfred could not save its seccomp filter (${(err as Error).message})`);
    }
    const failure = saved && strictFailure(sandbox.path, saved.file, saved.filter, opts.env ?? process.env, opts.probe ? { probe: opts.probe } : {});
    if (failure !== undefined) return refused(`bubblewrap cannot set up the strict sandbox here (${failure})`);
    seccomp = saved?.file;
  }
  const planned = plannedMounts({ ...opts, allowWrite: allowedWrites(opts.role.allowWrite ?? [], opts.home ?? os.homedir()) }, sandbox, strict);
  // Copies: the kept lists are not the caller's to change.
  const mounts = {
    readOnly: [...planned.readOnly], ...(planned.writable ? { writable: [...planned.writable] } : {}), ...(planned.closed ? { closed: [...planned.closed] } : {}), ...(planned.hookRun ? { hookRun: planned.hookRun } : {}),
    ...(planned.ownCopies ? { ownCopies: planned.ownCopies.map((c) => ({ ...c })) } : {}),
    ...(planned.hiddenFiles ? { hiddenFiles: [...planned.hiddenFiles] } : {}), ...(planned.hiddenFolders ? { hiddenFolders: [...planned.hiddenFolders] } : {}),
    ...(seccomp ? { seccomp } : {}), ...(planned.hostDevices ? { hostDevices: true } : {}),
  };
  const net = networkPlan(opts, sandbox, planned);
  const netInput = net.runner ? { netRunner: net.runner } : net.isolated ? { noNetwork: true } : {};
  return {
    kind: 'sandboxed',
    sandbox,
    ...mounts,
    network: net.summary,
    argv: (command, cwd) => sandboxArgv(sandbox, { command, cwd, ...withLiveSockets(mounts, opts.env), ...netInput }),
    line: (command, cwd) => shortLine(opts, sandbox, planned, seccomp, net.runner ?? (net.isolated ? undefined : []), command, cwd)
      ?? sandboxCommandLine(sandbox, { command, ...withLiveSockets(mounts, opts.env), ...netInput, ...(cwd !== undefined ? { cwd } : {}) }),
  };
}

/**
 * How the role's commands reach the network (rules/roles/types.ts, NetworkRules): as they are where every
 * name is allowed (or sandbox-exec, which has no network namespace); else in a namespace of their own
 * whose only way out is the proxy the runner starts (netRun.ts); with no runner to start, no way out.
 */
function networkPlan(opts: PlanOptions, sandbox: AvailableSandbox, mounts: Mounts): { summary: NetworkSummary; runner?: string[]; isolated?: true } {
  const rules = opts.role.network;
  if (unrestricted(rules) || !rules) return { summary: { kind: 'open', why: rules ? 'every name allowed' : 'no network rules' } };
  if (sandbox.kind !== 'bwrap') return { summary: { kind: 'open', why: 'sandbox-exec has no network namespace: [sandbox.network] is not enforced here' } };
  const runner = opts.netRunner ?? defaultRunner(opts.installation);
  if (!runner || !mounts.netDir) return { summary: { kind: 'none', why: 'Alfred\'s network runner is missing: no network at all' }, isolated: true };
  const config: NetConfig = {
    allow: [...rules.allow], deny: [...rules.deny], role: opts.role.name, netDir: mounts.netDir,
    ...(opts.stateDir ? { stateDir: opts.stateDir } : {}), ...(opts.netHosts ? { hosts: opts.netHosts } : {}),
    ...(mounts.hookRun ? { hookPortFile: path.join(mounts.hookRun, SANDBOXED_PORT_FILE) } : {}),
  };
  return { summary: { kind: 'filtered', allow: [...config.allow], deny: [...config.deny] }, runner: netRunnerWords(runner, config) };
}

/** Where a command's network goes: as it is, through the proxy with these names, or nowhere. */
export type NetworkSummary = { kind: 'open'; why: string } | { kind: 'filtered'; allow: string[]; deny: string[] } | { kind: 'none'; why: string };

/** This Node (Electron's run as Node) and the runner's bundle in Alfred's installation, when it is there. */
function defaultRunner(installation: string | undefined): string[] | undefined {
  if (!installation) return undefined;
  const file = path.join(installation, 'dist', 'cli', 'alfred-net.cjs');
  if (!fs.existsSync(file)) return undefined;
  return process.versions.electron ? ['/usr/bin/env', 'ELECTRON_RUN_AS_NODE=1', process.execPath, file] : [process.execPath, file];
}

/** A role's `allow_write` paths, absolute: `~` is the home. */
function allowedWrites(paths: readonly string[], home: string): string[] {
  return paths.map((p) => (p === '~' ? home : p.startsWith('~/') ? path.join(home, p.slice(2)) : p));
}

/** The plan's mounts with the sockets of sessions and windows as they are now (commandServers.ts). */
function withLiveSockets<T extends { hiddenFiles?: string[] }>(mounts: T, env: NodeJS.ProcessEnv | undefined): T {
  const now = liveSockets(env ?? process.env);
  return now.length ? { ...mounts, hiddenFiles: [...(mounts.hiddenFiles ?? []), ...now] } : mounts;
}

interface Mounts {
  readOnly: string[];
  writable?: string[];
  /** Under strict, the temporary folders and download caches shown as the workspace's own (mounts.ts, ownCopies). */
  ownCopies?: OwnCopy[];
  /** Alfred's run folder, emptied inside the sandbox (wrap.ts, WrapInput.hookRun). */
  hookRun?: string;
  /** Covered by /dev/null: the sockets and keys of servers outside that run commands (commandServers.ts), the disks its user could write raw (blockDevices.ts). */
  hiddenFiles?: string[];
  hiddenFolders?: string[];
  /** The folder of the network proxies' sockets, shown empty (mounts.ts, netFolder). */
  netDir?: string;
  /** Homes a writable temporary folder holds, read-only again (mounts.ts, closedHomes). */
  closed?: string[];
  /** Not strict: the machine's /dev (its disks hidden) and System V IPC, as a command had them before (wrap.ts, WrapInput.hostDevices). */
  hostDevices?: boolean;
  /** bwrap's arguments for these mounts, once asked for (shortLine). */
  prefix?: string[];
}

/**
 * The mounts of a plan, kept while nothing they were read from changed (fs/keptReads): most of a
 * hook call's time was these two hundred lookups and the walk of the workspace, on every shell call.
 * The hook server keeps them in memory; a hook call without a server, in a file beside the plan's
 * arguments (Alfred's home, read-only inside the sandbox). Everything else they depend on is in the
 * key: the environment whole in memory; in the file, the variables the plan read, with their values
 * (where files are: PATH, XDG_CONFIG_HOME, CARGO_HOME…), so that no secret is written there.
 */
const kept = new KeptValues<Mounts>(8);

const isPaths = (v: unknown): v is string[] => Array.isArray(v) && v.every((p) => typeof p === 'string');
const isOwnCopy = (v: unknown): v is OwnCopy => {
  const c = v as Partial<OwnCopy> | null;
  return typeof c === 'object' && c !== null && Object.keys(c).length === 2 && typeof c.source === 'string' && typeof c.target === 'string';
};
const isMounts = (v: unknown): v is Mounts => {
  if (typeof v !== 'object' || v === null) return false;
  const { readOnly, writable, ownCopies: copies, hookRun, hiddenFiles, hiddenFolders, hostDevices, closed, netDir, ...rest } = v as Partial<Mounts>;
  return Object.keys(rest).length === 0 && (netDir === undefined || typeof netDir === 'string') && (hostDevices === undefined || hostDevices === true) && isPaths(readOnly) && [writable, hiddenFiles, hiddenFolders, closed].every((p) => p === undefined || isPaths(p))
    && (hookRun === undefined || typeof hookRun === 'string') && (copies === undefined || (Array.isArray(copies) && copies.every(isOwnCopy)));
};

function plannedMounts(opts: PlanOptions, sandbox: AvailableSandbox, strict: boolean): Mounts {
  const home = opts.home ?? os.homedir();
  const env = opts.env ?? process.env;
  const key = JSON.stringify([
    opts.code ?? runningCode(), sandbox, strict, opts.workspaceFolder, opts.protectedGlobs, opts.stateDir ?? null, home, opts.installation ?? null,
    opts.tempFolders ?? null, opts.allowWrite ?? [],
  ]);
  return kept.get(`${key}\n${JSON.stringify(env)}`, () => {
    const noted = { ...opts, env: notedEnv(env) };
    const readOnly = readOnlyPaths(noted);
    const hookRun = hookRunFolder(noted);
    // Every mode writes where work happens and nothing else (mounts.ts, writableRoots and ownCopies).
    const writable = writableRoots(noted);
    const copies = ownCopies(noted);
    const closed = closedHomes(noted);
    const netDir = netFolder(noted);
    // Where /dev is the machine's (not strict's own), the disks this user could write raw are covered too (blockDevices.ts).
    const devices = strict || sandbox.kind !== 'bwrap' ? [] : blockDevices();
    const hidden = commandServers({ env: noted.env, home, untouched: [alfredHome(noted.env)], kept: [opts.workspaceFolder, home, alfredHome(noted.env), ...writable, ...copies.map((c) => c.target)] }, true);
    return {
      readOnly, writable, ...(closed.length ? { closed } : {}), ...(strict ? {} : { hostDevices: true }), ...(copies.length ? { ownCopies: copies } : {}), ...(hookRun ? { hookRun } : {}),
      ...(hidden.files.length + devices.length ? { hiddenFiles: [...hidden.files, ...devices] } : {}), ...(hidden.folders.length + (netDir ? 1 : 0) ? { hiddenFolders: [...hidden.folders, ...(netDir ? [netDir] : [])] } : {}),
      ...(netDir ? { netDir } : {}),
    };
  }, () => ({ file: planFile(path.join(home, '.alfred'), workspaceId(opts.workspaceFolder), 'mounts.json'), under: path.join(home, '.alfred'), valid: isMounts, key, env }));
}

/** `~/.alfred/bin/alfred-sandbox <id> '<command>'` (launcher.ts), where the plan can be saved; else undefined. */
function shortLine(opts: PlanOptions, sandbox: AvailableSandbox, mounts: Mounts, seccomp: string | undefined, runner: readonly string[] | undefined, command: string, cwd: string | undefined): string | undefined {
  // No runner words (undefined): a namespace with no network at all, which the full line says.
  if (sandbox.kind !== 'bwrap' || cwd !== undefined || runner === undefined) return undefined;
  try {
    const id = workspaceId(opts.workspaceFolder);
    // The filter's file is the script's neighbour: the plan only asks for its descriptor.
    mounts.prefix ??= bwrapPrefix(sandbox, { ...mounts, ...(seccomp ? { seccomp } : {}) });
    const script = savePlan(path.join(opts.home ?? os.homedir(), '.alfred'), id, [...runner, ...mounts.prefix]);
    return script ? `${shellQuote(script)} ${id} ${quoteAlways(command)}` : undefined;
  } catch {
    return undefined; // Alfred's home not writable: the full line still works
  }
}
