/**
 * Servers outside the sandbox that run what a command asks them to, in a place no mount holds: a
 * tmux session (`tmux run-shell`, `send-keys`), a screen session (`screen -X stuff`), a VS Code
 * window's command-line socket (`$VSCODE_IPC_HOOK_CLI`: `code --install-extension`, run by the
 * editor, outside). A command reaches them through their sockets, which a read-only mount does not
 * stop (connecting writes nothing), so inside the sandbox each socket is covered by /dev/null: tried,
 * `tmux run-shell 'touch ~/.bashrc'` wrote the protected file from inside. Sessions and windows come
 * and go, so their sockets are found when a command runs (liveSockets; the short line's script does
 * the same), not kept in the plan: one started after the plan is covered, and one gone is not mounted
 * over (bwrap would make an empty file in its place, or fail where the folder is read-only). Under
 * `sandbox = "strict"` the plan also hides the user's runtime folder (`$XDG_RUNTIME_DIR`: the D-Bus
 * session, through which `systemd-run --user` runs a command; podman; the ssh and gpg agents), shown
 * empty, Docker's socket, and the folders and files where local servers keep the keys that make
 * them run code (serverKeys, serverKeyFiles); and, as the command's own and empty, the folders where
 * processes share memory and message queues by name (SHARED_MEMORY).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KeptValues, lookup, readdir, stat } from '../base/fs/keptReads';
import { coveredBy } from './pathSet';
import { RealPaths } from './realPaths';

export interface CommandServerOptions {
  env: NodeJS.ProcessEnv;
  /** The user the command runs as (default: this process's); undefined where there is none (Windows). */
  uid?: number;
  /** Folders that must stay as they are inside: the workspace, the homes, the writable roots. */
  kept: readonly string[];
  /**
   * Folders nothing is hidden in (Alfred's home: its run folder shows a nested agent's hook the
   * server, whose answer holds its role; a variable naming a folder there must not hide that).
   */
  untouched?: readonly string[];
  /** Where processes share memory by name (default SHARED_MEMORY); injected by tests. */
  sharedMemory?: readonly string[];
  /** The user's home (default: env.HOME), where local servers keep their keys (serverKeys). */
  home?: string;
}

export interface HiddenServers {
  /** Sockets and key files covered by /dev/null (absolute real paths). */
  files: string[];
  /** Folders shown empty (absolute real paths). */
  folders: string[];
}

/**
 * POSIX shared memory (`shm_open`: files in /dev/shm) and message queues (/dev/mqueue). Tried under
 * strict: a command read a file a program outside kept in /dev/shm and left one there, written
 * outside the workspace. Under strict each is an empty folder of the command's own, and bwrap's
 * `--unshare-ipc` (wrap.ts) does the same for System V's segments, queues and semaphores, which have
 * no folder.
 */
export const SHARED_MEMORY: readonly string[] = ['/dev/shm', '/dev/mqueue'];

/**
 * The folders where local servers that run code for whoever shows their key keep it. Their ports on
 * localhost stay reachable under strict (the network is shared); their keys do not. Jupyter's
 * runtime folder: a server's token (`jpserver-*.json`) and each running kernel's key and ports
 * (`kernel-*.json`, VS Code's notebooks' kernels among them; a command read one from inside), which
 * lets its holder run code in the kernel, outside the sandbox; code-server's configuration (its
 * password, which opens a terminal).
 */
function serverKeys(env: NodeJS.ProcessEnv, home: string | undefined): string[] {
  const absolute = (p: string | undefined) => (p && path.isAbsolute(p) ? p : undefined);
  const data = absolute(env.XDG_DATA_HOME) ?? (home ? path.join(home, '.local', 'share') : undefined);
  const config = absolute(env.XDG_CONFIG_HOME) ?? (home ? path.join(home, '.config') : undefined);
  const jupyterData = absolute(env.JUPYTER_DATA_DIR);
  return [
    absolute(env.JUPYTER_RUNTIME_DIR), jupyterData && path.join(jupyterData, 'runtime'), data && path.join(data, 'jupyter', 'runtime'),
    config && path.join(config, 'code-server'),
  ].filter((p): p is string => p !== undefined);
}

/**
 * The files where VS Code's servers on a localhost port keep their connection token, with which a
 * command could open the editor's terminal outside the sandbox: a remote window's server
 * (`~/.vscode-server/.<commit>.token`, or in the folder `$VSCODE_AGENT_FOLDER` names) and `code
 * serve-web`'s (`~/.vscode/cli/serve-web-token`, or in `$VSCODE_CLI_DATA_DIR`). Those that exist.
 */
function serverKeyFiles(env: NodeJS.ProcessEnv, home: string | undefined): string[] {
  const absolute = (p: string | undefined) => (p && path.isAbsolute(p) ? p : undefined);
  const agentFolders = [absolute(env.VSCODE_AGENT_FOLDER), ...(home ? ['.vscode-server', '.vscode-server-insiders'].map((f) => path.join(home, f)) : [])];
  const tokens = agentFolders.flatMap((folder) => {
    if (!folder || !stat(folder)?.isDirectory()) return [];
    try {
      return readdir(folder).filter((e) => e.isFile() && e.name.startsWith('.') && e.name.endsWith('.token')).map((e) => path.join(folder, e.name));
    } catch {
      return [];
    }
  });
  const cliData = absolute(env.VSCODE_CLI_DATA_DIR) ?? (home ? path.join(home, '.vscode', 'cli') : undefined);
  const serveWeb = cliData ? [path.join(cliData, 'serve-web-token')] : [];
  return [...tokens, ...serveWeb.filter((p) => lookup(p)?.isFile())];
}

/** What the plan hides under `strict` (nothing otherwise): the user's runtime folder, Docker's socket, the shared memory and the local servers' keys. */
export function commandServers(opts: CommandServerOptions, strict: boolean): HiddenServers {
  if (!strict) return { files: [], folders: [] };
  const { env } = opts;
  const uid = 'uid' in opts ? opts.uid : process.getuid?.();
  const real = new RealPaths();
  const folders: string[] = [];
  const untouched = (opts.untouched ?? []).map((p) => real.of(p) ?? path.resolve(p));
  /**
   * A folder that exists, shown empty by its real path; never over what the command must see (a
   * workspace kept in the runtime folder, say), nor within a folder already hidden.
   */
  const hide = (folder: string) => {
    const folderReal = real.of(folder);
    if (!folderReal || !lookup(folderReal)?.isDirectory() || coveredBy(folderReal, new Set([...folders, ...untouched]))) return;
    if (!opts.kept.some((k) => coveredBy(k, new Set([folderReal])))) folders.push(folderReal);
  };
  const runtime = env.XDG_RUNTIME_DIR || (uid !== undefined ? `/run/user/${uid}` : undefined);
  if (runtime) hide(runtime);
  for (const shared of opts.sharedMemory ?? SHARED_MEMORY) hide(shared);
  for (const keys of serverKeys(env, opts.home ?? env.HOME)) hide(keys);
  const dockerHost = env.DOCKER_HOST?.startsWith('unix://') ? [env.DOCKER_HOST.slice('unix://'.length)] : [];
  const sockets = ['/var/run/docker.sock', '/run/docker.sock', ...dockerHost].filter((p) => lookup(p)?.isSocket());
  const realSockets = sockets.map((p) => real.of(p)).filter((p): p is string => p !== undefined);
  const keyFiles = serverKeyFiles(env, opts.home ?? env.HOME).map((p) => real.of(p)).filter((p): p is string => p !== undefined && !coveredBy(p, new Set(untouched)));
  const hiddenFolders = new Set(folders);
  return { files: [...new Set([...realSockets, ...keyFiles])].filter((p) => !coveredBy(p, hiddenFolders)), folders };
}

/**
 * The sockets of sessions and windows as they are now, where the short line's script looks
 * (alfred-sandbox.sh): VS Code's `vscode-ipc-*.sock` in `$XDG_RUNTIME_DIR`, the
 * temporary folder and `/tmp`; tmux's in `${TMUX_TMPDIR:-/tmp}/tmux-*`; screen's (sockets, or FIFOs
 * in builds that use them) in `$SCREENDIR`, `/run/screen/S-*` and `/var/run/screen/S-*`.
 */
export function liveSockets(env: NodeJS.ProcessEnv): string[] {
  const key = JSON.stringify([env.XDG_RUNTIME_DIR, env.TMPDIR, env.TMUX_TMPDIR, env.SCREENDIR]);
  return [...keptSockets.get(key, () => socketsNow(env))];
}

/**
 * Asked on every shell call: kept while the folders listed are unchanged (fs/keptReads), each then
 * checked by one stat instead of a listing (a busy /tmp holds thousands of entries). A socket made or
 * removed changes its folder.
 */
const keptSockets = new KeptValues<readonly string[]>(4);

function socketsNow(env: NodeJS.ProcessEnv): string[] {
  // Each folder listed once: /tmp, where most of these are, may hold thousands of entries.
  const listed = new Map<string, fs.Dirent[]>();
  const entries = (folder: string): fs.Dirent[] => {
    let found = listed.get(folder);
    if (!found) listed.set(folder, (found = entriesOf(folder)));
    return found;
  };
  const named = (folder: string, test: (e: fs.Dirent) => boolean) => entries(folder).filter(test).map((e) => path.join(folder, e.name));
  const subfolders = (parent: string, prefix: string) => named(parent, (e) => e.isDirectory() && e.name.startsWith(prefix));
  const editorFolders = [env.XDG_RUNTIME_DIR, env.TMPDIR || '/tmp', '/tmp'].filter((f): f is string => !!f && path.isAbsolute(f));
  const editor = [...new Set(editorFolders)].flatMap((folder) => named(folder, (e) => e.isSocket() && e.name.startsWith('vscode-ipc-') && e.name.endsWith('.sock')));
  const sessionFolders = [
    ...subfolders(env.TMUX_TMPDIR || '/tmp', 'tmux-'),
    ...(env.SCREENDIR && path.isAbsolute(env.SCREENDIR) ? [env.SCREENDIR] : []),
    ...subfolders('/run/screen', 'S-'), ...subfolders('/var/run/screen', 'S-'),
  ];
  const sessions = sessionFolders.flatMap((folder) => named(folder, (e) => e.isSocket() || e.isFIFO()));
  return [...editor, ...sessions];
}

/** A folder's entries; none when it is missing or unreadable (another user's session folder). */
function entriesOf(folder: string): fs.Dirent[] {
  try {
    return readdir(folder);
  } catch {
    return [];
  }
}
