/**
 * Servers outside the sandbox that run what a command asks them to, in a place no mount holds: a
 * tmux session (`tmux run-shell`, `send-keys`), a screen session (`screen -X stuff`). A command
 * reaches them through their sockets, which a read-only mount does not stop (connecting writes
 * nothing), so inside the sandbox each socket is covered by /dev/null: tried, `tmux run-shell 'touch
 * ~/.bashrc'` wrote the protected file from inside. Under `sandbox = "strict"` also the user's
 * runtime folder (`$XDG_RUNTIME_DIR`: the D-Bus session, through which `systemd-run --user` runs a
 * command; podman; the ssh and gpg agents), shown empty, and Docker's socket. Read through
 * fs/keptReads: a session started later adds a socket to its folder, and the plan is made again.
 * And the editor's own: a VS Code window's command-line socket (`$VSCODE_IPC_HOOK_CLI`) installs an
 * extension when asked (`code --install-extension`, run by the editor, outside); those come and go
 * with windows, so they are found when a command runs (editorSockets; the short line's script does
 * the same), not kept in the plan.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { lookup, readdir } from '../fs/keptReads';
import { coveredBy } from './pathSet';
import { RealPaths } from './realPaths';

export interface CommandServerOptions {
  env: NodeJS.ProcessEnv;
  /** The user the command runs as (default: this process's); undefined where there is none (Windows). */
  uid?: number;
  /** The user's name (default: this process's), for screen's folders. */
  user?: string;
  /** Folders that must stay as they are inside: the workspace, the homes, the writable roots. */
  kept: readonly string[];
}

export interface HiddenServers {
  /** Sockets covered by /dev/null (absolute real paths). */
  sockets: string[];
  /** Folders shown empty (absolute real paths). */
  folders: string[];
}

export function commandServers(opts: CommandServerOptions, strict: boolean): HiddenServers {
  const { env } = opts;
  const uid = 'uid' in opts ? opts.uid : process.getuid?.();
  const user = opts.user ?? userName();
  const real = new RealPaths();
  const sessionFolders = [
    ...(uid !== undefined ? [path.join(env.TMUX_TMPDIR || '/tmp', `tmux-${uid}`)] : []),
    ...(env.SCREENDIR ? [env.SCREENDIR] : []),
    ...(user ? [`/run/screen/S-${user}`, `/var/run/screen/S-${user}`] : []),
  ];
  const sockets = sessionFolders.flatMap((folder) => socketsIn(folder));
  const folders: string[] = [];
  if (strict) {
    const runtime = env.XDG_RUNTIME_DIR || (uid !== undefined ? `/run/user/${uid}` : undefined);
    const runtimeReal = runtime && lookup(runtime)?.isDirectory() ? real.of(runtime) : undefined;
    // Never over what the command must see (a workspace kept in the runtime folder, say).
    if (runtimeReal && !opts.kept.some((k) => coveredBy(k, new Set([runtimeReal])))) folders.push(runtimeReal);
    const dockerHost = env.DOCKER_HOST?.startsWith('unix://') ? [env.DOCKER_HOST.slice('unix://'.length)] : [];
    for (const p of ['/var/run/docker.sock', '/run/docker.sock', ...dockerHost]) if (lookup(p)?.isSocket()) sockets.push(p);
  }
  const realSockets = sockets.map((p) => real.of(p)).filter((p): p is string => p !== undefined);
  const hiddenFolders = new Set(folders);
  return { sockets: [...new Set(realSockets)].filter((p) => !coveredBy(p, hiddenFolders)), folders };
}

/** VS Code's command-line sockets where it makes them (`$XDG_RUNTIME_DIR`, else the temporary folder), as they are now. */
export function editorSockets(env: NodeJS.ProcessEnv): string[] {
  const folders = [...new Set([env.XDG_RUNTIME_DIR, env.TMPDIR || '/tmp', '/tmp'].filter((f): f is string => !!f && path.isAbsolute(f)))];
  return folders.flatMap((folder) => {
    try {
      return fs.readdirSync(folder, { withFileTypes: true })
        .filter((e) => e.isSocket() && e.name.startsWith('vscode-ipc-') && e.name.endsWith('.sock')).map((e) => path.join(folder, e.name));
    } catch {
      return [];
    }
  });
}

/** The sockets (and screen's FIFOs, in builds that use them) in `folder`; none when it is missing or unreadable. */
function socketsIn(folder: string): string[] {
  if (!lookup(folder)?.isDirectory()) return [];
  try {
    return readdir(folder).filter((e) => e.isSocket() || e.isFIFO()).map((e) => path.join(folder, e.name));
  } catch {
    return [];
  }
}

function userName(): string | undefined {
  try {
    return os.userInfo().username;
  } catch {
    return undefined;
  }
}
