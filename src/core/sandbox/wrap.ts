/**
 * A shell command wrapped in the kernel sandbox: as an argv to spawn (Alfred's own ctx_shell) or as
 * one POSIX shell line (an agent's terminal command, rewritten by its hook). The tree is read-only
 * but the `writable` folders and the copies of its own in place of the temporary folders and download
 * caches (`ownCopies`); the read-only paths within them stay so. Without `writable` (a caller that
 * plans no allowlist), everything stays writable but the given paths. Pure: no file-system access.
 */
import * as path from 'node:path';
import type { AvailableSandbox } from './types';
import { byDepth, coveredBy, outermost } from './pathSet';
import { PORT_FILE, SANDBOXED_PORT_FILE } from '../base/state/paths';
import { SECCOMP_FD } from './seccomp';

export interface WrapInput {
  command: string;
  /** Absolute folder the command runs in. For the line form, absent means the terminal's own folder. */
  cwd?: string;
  /** Absolute real paths to make read-only (mounts.ts: readOnlyPaths). */
  readOnly: readonly string[];
  /** `sandbox = "strict"`: the only folders the command may write (mounts.ts: writableRoots). */
  writable?: readonly string[];
  /**
   * `sandbox = "strict"`: the temporary folders and download caches, each shown as a folder of the
   * workspace's own in Alfred's home (mounts.ts, ownCopies), so what a command fetches or plants there
   * never reaches a program outside. sandbox-exec cannot mount: there the folders themselves are writable.
   */
  ownCopies?: readonly OwnCopy[];
  /**
   * Alfred's `run` folder (real path), shown empty inside the sandbox but for the hook server's
   * sandboxed port file, in the launcher's file's place: a hook called from inside (a nested agent's)
   * reaches the server only as the sandbox's, decided with the server's environment (integrations/hooks/nativeListener.ts).
   */
  hookRun?: string;
  /**
   * Servers outside that would run what the command asks (commandServers.ts): their sockets and the
   * files that hold their keys covered by /dev/null, as are the disks its user could write raw
   * (blockDevices.ts); the servers' folders shown empty.
   */
  hiddenFiles?: readonly string[];
  hiddenFolders?: readonly string[];
  /**
   * `sandbox = "strict"` with bubblewrap: the file of the seccomp filter (seccomp.ts) that keeps the
   * command from opening a Unix socket, read by bwrap from SECCOMP_FD, which the line and the argv open on it.
   */
  seccomp?: string;
  /**
   * With `writable`, not strict: the machine's /dev (the disks hidden: hiddenFiles) and System V IPC,
   * as commands had them before writes were allowlisted; strict gives the command its own.
   */
  hostDevices?: boolean;
  /**
   * With `writable`: folders within a writable one (a home in /tmp) read-only again, but for the
   * writable folders within them (the workspace in that home). mounts.ts, closedHomes.
   */
  closed?: readonly string[];
  /**
   * The words that run the network runner before bwrap (netRun.ts: node, its file, `--net`, the
   * config, `--`): it adds the network namespace, the proxy's folder and the bridge.
   */
  netRunner?: readonly string[];
  /** A network namespace with no way out at all (`--unshare-net`): the role restricts names and there is no runner. */
  noNetwork?: boolean;
  /** The shell that runs `command`. Default: /bin/sh for argv, the user's `$SHELL` for the line. */
  shell?: string;
}

/** A folder (`target`, its real path) shown as `source`, writable. */
export interface OwnCopy {
  source: string;
  target: string;
}

/**
 * Every bwrap call gets these, the probe too. Each closes a way out found by trying it:
 * - `--unshare-pid --proc /proc`: without them `/proc/<pid>/root` and `/proc/<pid>/cwd` of any
 *   process outside (the terminal's shell, bwrap's own parent) lead to the same files with no
 *   read-only mount on them. The cost: a command sees only its own processes, and what it leaves
 *   running in the background stops when it ends.
 * - `--cap-drop ALL`: run as root, bwrap keeps its capabilities and `umount` would lift the mounts.
 * - `--new-session`: a command could otherwise push keystrokes into the terminal (TIOCSTI) for the
 *   shell outside the sandbox to run once the command is over.
 * - `--die-with-parent`: stopping the command (timeout, cancel, Ctrl-C) stops what runs inside.
 * - `/proc/sys` and `/sys` read-only: run as root, a command wrote /proc/sys/kernel/core_pattern
 *   (`|<a script of its own>`), crashed a process, and the kernel ran the script outside as root with
 *   every capability. bwrap covers /proc/sys only where it finds it writable before dropping root's
 *   rights; /sys holds more of the same (`uevent_helper`, cgroup v1's `release_agent`). `-try`: a
 *   container without /sys must not stop every command.
 */
export const BWRAP_FLAGS: readonly string[] = [
  '--dev-bind', '/', '/', '--unshare-pid', '--proc', '/proc', '--ro-bind-try', '/proc/sys', '/proc/sys', '--ro-bind-try', '/sys', '/sys',
  '--cap-drop', 'ALL', '--new-session', '--die-with-parent',
];

/**
 * The same for `sandbox = "strict"`: the whole tree read-only; a /dev of the command's own with only
 * what a command needs (null, zero, full, random, urandom, tty, a pty of its own, an empty /dev/shm;
 * tried as root with the machine's /dev, a command opened a loop and a zram device, KVM and the
 * console's screen read-write); and System V's shared memory, queues and semaphores its own
 * (`--unshare-ipc`). The shared memory's folders wherever they are (commandServers.ts).
 */
export const STRICT_BWRAP_FLAGS: readonly string[] = ['--ro-bind', '/', '/', '--dev', '/dev', ...BWRAP_FLAGS.slice(3), '--unshare-ipc'];

/**
 * Writes allowlisted, not strict: the whole tree read-only as strict has it, but the machine's /dev
 * (a command may need a GPU, KVM, a serial port; the disks its user could write raw are hidden
 * apart, blockDevices.ts) and System V IPC shared. `--dev-bind` keeps the devices usable: a plain
 * bind of / marks them nodev.
 */
export const ALLOWLIST_BWRAP_FLAGS: readonly string[] = ['--ro-bind', '/', '/', '--dev-bind', '/dev', '/dev', ...BWRAP_FLAGS.slice(3)];

/** What the line form runs when no shell is named: the user's, as the terminal would (expanded there, not quoted). */
const USER_SHELL = '"${SHELL:-/bin/sh}"';

/** argv for spawn: `argv[0]` is the sandbox program's absolute path. */
export function sandboxArgv(sandbox: AvailableSandbox, input: WrapInput): string[] {
  const shell = input.shell ?? '/bin/sh';
  if (sandbox.kind === 'bwrap') {
    const run = [...(input.netRunner ?? []), sandbox.path, ...bwrapMounts(input), ...netFlags(input), ...(input.cwd ? ['--chdir', input.cwd] : []), '--', shell, '-c', input.command];
    // A tiny sh opens the filter on its descriptor, then becomes bwrap.
    return input.seccomp ? ['/bin/sh', '-c', `exec "$@" ${SECCOMP_FD}< "$0"`, input.seccomp, ...run] : run;
  }
  const run = [sandbox.path, '-p', sandboxExecProfile(input.readOnly, execWritable(input)), shell, '-c', input.command];
  // sandbox-exec has no --chdir; a tiny sh does the cd, then becomes sandbox-exec.
  return input.cwd ? ['/bin/sh', '-c', 'cd -- "$0" && exec "$@"', input.cwd, ...run] : run;
}

/**
 * One POSIX shell line (sh, bash, zsh, dash, ksh; not fish or PowerShell) that runs the same thing,
 * for the terminal. The command is one single-quoted argument of `"${SHELL:-/bin/sh}" -c`, so it runs
 * in the user's shell, byte for byte (quotes, `$VAR`, newlines and all are left to that shell). It runs
 * in a child process: a `cd` or `export` in it does not reach the terminal's later commands.
 */
export function sandboxCommandLine(sandbox: AvailableSandbox, input: WrapInput): string {
  const shell = input.shell === undefined ? USER_SHELL : shellQuote(input.shell);
  const tail = `${shell} -c ${quoteAlways(input.command)}`;
  if (sandbox.kind === 'bwrap') {
    const args = [...(input.netRunner ?? []), sandbox.path, ...bwrapMounts(input), ...netFlags(input), ...(input.cwd ? ['--chdir', input.cwd] : []), '--'];
    return `${args.map(shellQuote).join(' ')} ${tail}${input.seccomp ? ` ${SECCOMP_FD}< ${shellQuote(input.seccomp)}` : ''}`;
  }
  const run = `${shellQuote(sandbox.path)} -p ${quoteAlways(sandboxExecProfile(input.readOnly, execWritable(input)))} ${tail}`;
  // A subshell, so the `cd` stays out of the terminal.
  return input.cwd ? `(cd ${shellQuote(input.cwd)} && exec ${run})` : run;
}

const netFlags = (input: WrapInput): string[] => (input.noNetwork && !input.netRunner ? ['--unshare-net'] : []);

/** bwrap with its mount arguments, everything before `--`: what the short line's plan file holds. */
export function bwrapPrefix(sandbox: AvailableSandbox, mounts: MountInput): string[] {
  return [sandbox.path, ...bwrapMounts(mounts)];
}

/** What a plan mounts: WrapInput without the command and where it runs. */
export type MountInput = Pick<WrapInput, 'readOnly' | 'writable' | 'ownCopies' | 'hookRun' | 'hiddenFiles' | 'hiddenFolders' | 'seccomp' | 'hostDevices' | 'closed'>;

/**
 * bwrap's mount arguments: the fixed flags, the rename guards, then the read-only paths. Strict
 * (`writable`): the whole tree read-only, then the own copies that hold a writable folder (the
 * workspace in /tmp), the writable folders, the guards within them, the other copies, then the
 * read-only paths within all these (elsewhere, everything is read-only already). Last, over
 * all of them, Alfred's run folder emptied (WrapInput.hookRun); `--ro-bind-try`: without a server, no
 * file. Then the servers outside that run commands and the disks, hidden (`--ro-bind-try`: a socket
 * gone meanwhile hides nothing, and must not stop the command). Last, the seccomp filter's descriptor (WrapInput.seccomp).
 */
function bwrapMounts({ readOnly, writable, ownCopies = [], hookRun, hiddenFiles = [], hiddenFolders = [], seccomp, hostDevices, closed = [] }: MountInput): string[] {
  const run = hookRun ? ['--tmpfs', hookRun, '--ro-bind-try', path.join(hookRun, SANDBOXED_PORT_FILE), path.join(hookRun, PORT_FILE)] : [];
  const hidden = [...hiddenFolders.flatMap((p) => ['--tmpfs', p]), ...hiddenFiles.flatMap((p) => ['--ro-bind-try', '/dev/null', p])];
  return [...bwrapTree(readOnly, writable, ownCopies, hostDevices, closed), ...run, ...hidden, ...(seccomp ? ['--seccomp', String(SECCOMP_FD)] : [])];
}

function bwrapTree(readOnly: readonly string[], writable: readonly string[] | undefined, ownCopies: readonly OwnCopy[], hostDevices?: boolean, closed: readonly string[] = []): string[] {
  if (writable) {
    const rw = outermost(writable);
    // A closed home, then what is writable within it, each after what holds it.
    const shut = closed.filter((c) => coveredBy(c, new Set(rw)));
    const reopened = writable.filter((w) => !rw.includes(w) && coveredBy(w, new Set(shut)));
    const writes = new Set([...rw, ...reopened]);
    const shutSet = new Set(shut);
    /**
     * Whether `p` is writable: the deepest of the writable and closed folders that hold it is writable.
     * Found walking up from `p` (comparing every guard with every folder was 2 ms of a cold hook call).
     */
    const writableAt = (p: string): boolean => {
      for (let at = p, up = path.dirname(p); ; at = up, up = path.dirname(up)) {
        if (writes.has(at)) return true;
        if (shutSet.has(at) || up === at) return false;
      }
    };
    // A copy that holds a writable folder (the workspace in /tmp) comes before it; the others after
    // it (a cache in a workspace opened on the home) and after the guards above them (a home in /tmp),
    // or those would cover them.
    const holdsWritable = (c: OwnCopy) => rw.some((r) => coveredBy(r, new Set([c.target])));
    const early = ownCopies.filter(holdsWritable);
    const late = ownCopies.filter((c) => !holdsWritable(c));
    const open = [...rw, ...ownCopies.map((c) => c.target)];
    const ro = within(outermost(readOnly), open);
    // A guard binds the real folder: none in a later copy (what is renamed there never reaches the real one).
    const lateTargets = new Set(late.map((c) => c.target));
    const guards = within(renameGuards(ro), rw).filter((g) => !writes.has(g) && writableAt(g) && !coveredBy(g, lateTargets));
    return [
      ...(hostDevices ? ALLOWLIST_BWRAP_FLAGS : STRICT_BWRAP_FLAGS),
      ...early.flatMap((c) => ['--bind', c.source, c.target]),
      // Each bind shows the real folder, so the deepest applied last decides: shallowest first.
      ...byDepth([...rw, ...shut, ...reopened, ...guards]).flatMap((p) => [writes.has(p) || !shut.includes(p) ? '--bind' : '--ro-bind', p, p]),
      ...late.flatMap((c) => ['--bind', c.source, c.target]),
      ...ro.flatMap((p) => ['--ro-bind', p, p]),
    ];
  }
  const ro = outermost(readOnly);
  return [
    ...BWRAP_FLAGS,
    ...renameGuards(ro).flatMap((p) => ['--bind', p, p]),
    ...ro.flatMap((p) => ['--ro-bind', p, p]),
  ];
}

/** The paths that lie in one of `folders` (or are one), in their order. */
function within(paths: readonly string[], folders: readonly string[]): string[] {
  const set = new Set(folders);
  return paths.filter((p) => coveredBy(p, set));
}

/**
 * The folders above the read-only paths, each bound onto itself, writable as before. A read-only
 * mount stops writes below it but not the renaming of a folder above it (`mv .github gh`, or of the
 * workspace itself), after which the agent could build a new `.github/hooks` that no mount covers; a
 * mount point cannot be renamed (EBUSY), so every folder above becomes one. `/` cannot be renamed.
 */
export function renameGuards(readOnly: readonly string[]): string[] {
  const ro = outermost(readOnly);
  const guards = new Set<string>();
  for (const p of ro) {
    for (let dir = path.dirname(p); dir !== path.dirname(dir); dir = path.dirname(dir)) guards.add(dir);
  }
  const covered = new Set(ro);
  return byDepth([...guards].filter((g) => !coveredBy(g, covered)));
}

/** What sandbox-exec lets a strict command write: it cannot mount, so the folders of the own copies themselves. */
function execWritable(input: WrapInput): readonly string[] | undefined {
  return input.writable && [...input.writable, ...(input.ownCopies ?? []).map((c) => c.target)];
}

/**
 * sandbox-exec's profile (SBPL): everything allowed, then writes under each read-only path denied,
 * and the folders above them kept from being removed or renamed (as renameGuards does for bwrap).
 * Strict (`writable`): writes denied everywhere, then allowed in the devices and the writable
 * folders, before the read-only paths' denials (a later rule wins). Written to the documentation
 * of Apple's sandbox profiles; it cannot be run on the Linux machines where Alfred's tests run, so
 * it is checked for its text only.
 */
export function sandboxExecProfile(readOnly: readonly string[], writable?: readonly string[]): string {
  const rw = writable && outermost(writable);
  const ro = rw ? within(outermost(readOnly), rw) : outermost(readOnly);
  const allow = rw ? ['/dev', ...rw].map((p) => `(subpath ${sbplString(p)})`).join(' ') : '';
  const deny = ro.map((p) => `(subpath ${sbplString(p)})`).join(' ');
  const guards = renameGuards(ro).map((p) => `(literal ${sbplString(p)})`).join(' ');
  const strict = rw ? `(deny file-write* (subpath "/"))(allow file-write* ${allow})` : '';
  return `(version 1)(allow default)${strict}${deny ? `(deny file-write* ${deny})` : ''}${guards ? `(deny file-write-unlink ${guards})` : ''}`;
}

/** An SBPL string literal: backslashes and double quotes escaped. */
function sbplString(s: string): string {
  return `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

// Words a POSIX shell (and zsh) reads as themselves wherever they stand: no quoting needed, which
// keeps the line the user sees short. `=` and `~` are out: zsh expands `=cmd`, every shell `~`.
const PLAIN = /^[A-Za-z0-9_/.,:@%+-]+$/;

/** `s` as one shell word: as it is when that is safe, else single-quoted with `'` written `'\''`. */
export function shellQuote(s: string): string {
  return PLAIN.test(s) ? s : quoteAlways(s);
}

export function quoteAlways(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
