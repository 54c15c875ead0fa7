/**
 * A hook call that found no hook server starts one, so that an agent in a terminal, with no editor
 * open, pays for a Node start on its first call only: `alfred serve --on-demand`, detached, with this
 * process's runtime and command line (the same build), which takes the socket by the server's own
 * rules (src/core/integrations/hooks/server.ts: one per alfred home, a live one is left alone) and leaves after an
 * idle time (src/cli/commands/serve.ts). This call is still answered in this process. Nothing here
 * may fail or slow the hook: any failure only means no server this time.
 *
 * The server answers every session of the user, not only this one, so it does not take this
 * process's environment: each call's own variables decide that call (FORWARDED_ENV, sent per call),
 * and a call from inside the sandbox is decided with the server's, which must not be one session's
 * ALFRED_ROLE or ALFRED_SANDBOX. It gets the few variables a process needs to run, and its home.
 */
import { closeSync, mkdirSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const load = createRequire(__filename);

/** `<alfred home>/run/hook.starting`: a start under way; calls meanwhile start no other server. */
export const STARTING_FILE = 'hook.starting';
/** A start not done by then failed (the server removes the file once it listens, or gives up). */
const START_GRACE_MS = 10_000;
/** What a server started on demand keeps of the caller's environment: what a process needs to run. */
const KEPT_ENV = ['HOME', 'USERPROFILE', 'PATH', 'Path', 'SystemRoot', 'SYSTEMROOT', 'TMPDIR', 'TMP', 'TEMP', 'LANG', 'LC_ALL', 'LC_CTYPE'];

/** The environment of a server started on demand from a caller with `env`, for alfred home `home`. */
export function onDemandServerEnv(env: NodeJS.ProcessEnv, home: string, electron: boolean): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const key of KEPT_ENV) if (env[key] !== undefined) out[key] = env[key];
  out.ALFRED_HOME = home;
  // The launcher runs the editor's runtime as Node the same way.
  if (electron) out.ELECTRON_RUN_AS_NODE = '1';
  return out;
}

/** Creates the start marker; false when a start is already under way (a recent marker). */
function claim(file: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
      let age: number;
      try {
        age = Date.now() - statSync(file).mtimeMs;
      } catch {
        continue; // removed meanwhile: try again
      }
      if (age < START_GRACE_MS) return false;
      rmSync(file, { force: true });
    }
  }
  return false;
}

/**
 * Starts `alfred serve --on-demand` for `home` in the background, unless a start is under way.
 * ALFRED_HOOK_SERVER_IDLE (seconds) sets its idle time.
 */
export function startServerOnDemand(home: string): void {
  if (process.env.ALFRED_HOOK_SERVER === 'existing' || !process.argv[1]) return;
  const run = join(home, 'run');
  const marker = join(run, STARTING_FILE);
  try {
    mkdirSync(run, { recursive: true, mode: 0o700 });
    if (!claim(marker)) return;
  } catch {
    return; // a read-only home (inside the kernel sandbox, for one): no server from here
  }
  try {
    const idle = process.env.ALFRED_HOOK_SERVER_IDLE;
    const args = [process.argv[1], 'serve', '--on-demand', ...(idle && /^\d{1,7}$/.test(idle) ? ['--idle-exit', idle] : [])];
    const { spawn } = load('node:child_process') as typeof import('node:child_process');
    const child = spawn(process.execPath, args, {
      // The runtime as the launcher named it: the server's build is the caller's (serverBuild.ts).
      argv0: process.argv0,
      detached: true, stdio: 'ignore', windowsHide: true,
      // Not the agent's folder: the server would keep it busy, and a relative path means nothing there.
      cwd: home,
      env: onDemandServerEnv(process.env, home, Boolean(process.versions.electron)),
    });
    child.once('error', () => rmSync(marker, { force: true }));
    child.unref();
  } catch {
    rmSync(marker, { force: true });
  }
}
