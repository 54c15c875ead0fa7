/**
 * A short terminal line for a sandboxed command. The full bubblewrap command names every read-only
 * mount (a kilobyte or two), and the user reads the line in the agent's confirmation card and in the
 * terminal; so the mounts go into a plan file in Alfred's home (read-only inside the sandbox, outside
 * every workspace), and the line is `~/.alfred/bin/alfred-sandbox <workspace id> '<command>'`, a
 * small POSIX script that runs the command under that plan, with the sockets of the editor's windows
 * and of tmux and screen sessions that exist at that moment covered (commandServers.ts: they come and go),
 * and, when the plan asks for it (strict), the seccomp filter beside the script open for bwrap.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { atomicWrite } from '../base/fs/atomicWrite';
import { planFile, PLAN_FILE_KINDS, sandboxCopies } from '../base/state/paths';
import { sandboxFilter } from './seccomp';

/** The seccomp filter's file, beside the script (seccomp.ts; the script opens it by this name on SECCOMP_FD). */
const FILTER_NAME = 'alfred-sandbox.bpf';

declare const ALFRED_SANDBOX_SCRIPT: string | undefined;

/**
 * The script, kept as a file of its own (alfred-sandbox.sh) so that the static stage can check it
 * as shell. A bundle carries its text inlined (build.mjs defines ALFRED_SANDBOX_SCRIPT from the
 * file); run from source, it is read beside this module.
 */
export const SANDBOX_SCRIPT: string = typeof ALFRED_SANDBOX_SCRIPT !== 'undefined'
  ? ALFRED_SANDBOX_SCRIPT
  : fs.readFileSync(path.join(__dirname, 'alfred-sandbox.sh'), 'utf8');

/** What this process last found or wrote in each file, with the file's stat then. */
const known = new Map<string, { text: string | Buffer; stamp: string }>();

const sameContent = (a: string | Buffer, b: string | Buffer): boolean =>
  typeof a === 'string' || typeof b === 'string' ? a === b : a.equals(b);

/** The stamp changes with any write, rename or replacement of the file (ctime cannot be set back). */
function stampOf(file: string): { stamp: string; mtimeMs: number } | undefined {
  try {
    const st = fs.statSync(file);
    return { stamp: `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`, mtimeMs: st.mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * An unchanged file still in use is touched this often, so that dropUnusedPlans never takes it for a
 * workspace no longer used: a plan dropped between a hook's answer and its command's run fails that
 * command (the sandbox script finds no plan).
 */
const TOUCH_AFTER_MS = 24 * 3600_000;

/** Touches `file` when its time is older than TOUCH_AFTER_MS; false when that failed (the file went). */
function keepFresh(file: string, text: string | Buffer, mtimeMs: number): boolean {
  if (Date.now() - mtimeMs <= TOUCH_AFTER_MS) return true;
  try {
    const now = new Date();
    fs.utimesSync(file, now, now);
  } catch {
    known.delete(file);
    return false;
  }
  const after = stampOf(file);
  if (after) known.set(file, { text, stamp: after.stamp });
  return true;
}

/**
 * Writes `path` only when its content differs (atomically), so concurrent hooks never see half a
 * file. A hook server plans every call: a file whose stat has not changed since this process last
 * saw it hold `text` is not read again. True when the file did not exist.
 */
function writeIfChanged(file: string, text: string | Buffer, mode: number): boolean {
  const found = stampOf(file);
  const last = known.get(file);
  if (found && last?.stamp === found.stamp && sameContent(last.text, text) && keepFresh(file, text, found.mtimeMs)) return false;
  let same = false;
  try {
    same = sameContent(typeof text === 'string' ? fs.readFileSync(file, 'utf8') : fs.readFileSync(file), text);
  } catch {
    // missing: written below
  }
  if (same && found) {
    known.set(file, { text, stamp: found.stamp });
    if (keepFresh(file, text, found.mtimeMs)) return false;
  }
  known.delete(file); // recorded by the next call that reads it back, whoever wrote it last
  fs.mkdirSync(path.dirname(file), { recursive: true });
  atomicWrite(file, text, { mode });
  return found === undefined;
}

const isPlanFile = (name: string): boolean => {
  const dot = name.indexOf('.');
  return /^[0-9a-f]{16}$/.test(name.slice(0, dot)) && (PLAN_FILE_KINDS as readonly string[]).includes(name.slice(dot + 1));
};
/** A plan file not written (or touched by a use) for this long belongs to a workspace no longer used; if it is, it is written again. */
export const UNUSED_PLAN_MS = 30 * 24 * 3600_000;

/**
 * Drops the plan files not written or touched for UNUSED_PLAN_MS, which would otherwise pile up, one set per
 * workspace ever used, and the folders of copies (base/state/paths.ts, sandboxCopies) of a workspace left
 * with none. Runs when a workspace's first plan is written (rarely); a failure only keeps them.
 */
function dropUnusedPlans(dir: string, now = Date.now()): void {
  try {
    const dropped = new Set<string>();
    const kept = new Set<string>();
    for (const name of fs.readdirSync(dir)) {
      if (!isPlanFile(name)) continue;
      const file = path.join(dir, name);
      const id = name.slice(0, name.indexOf('.'));
      if (now - fs.statSync(file).mtimeMs > UNUSED_PLAN_MS) {
        fs.rmSync(file, { force: true });
        dropped.add(id);
      } else {
        kept.add(id);
      }
    }
    const alfredDir = path.dirname(path.dirname(dir));
    for (const id of dropped) if (!kept.has(id)) fs.rmSync(sandboxCopies(alfredDir, id), { recursive: true, force: true });
  } catch {
    // kept: dropped another time
  }
}

/**
 * Saves the plan (`argv` up to, not including, `--`) and makes sure the script exists; returns the
 * script's path, or undefined when an argument cannot be written one a line (it holds a newline).
 */
export function savePlan(alfredDir: string, workspaceId: string, argv: readonly string[]): string | undefined {
  if (argv.some((a) => a.includes('\n'))) return undefined;
  const script = path.join(alfredDir, 'bin', 'alfred-sandbox');
  writeIfChanged(script, SANDBOX_SCRIPT, 0o755);
  const args = planFile(alfredDir, workspaceId, 'args');
  if (writeIfChanged(args, `${argv.join('\n')}\n`, 0o644)) dropUnusedPlans(path.dirname(args));
  return script;
}

/**
 * Saves the seccomp filter of `arch` beside the sandbox script, where the script and the long line
 * read it; returns its path and bytes, or undefined where Alfred has no filter for `arch` (seccomp.ts).
 */
export function saveSandboxFilter(alfredDir: string, arch: string = process.arch): { file: string; filter: Buffer } | undefined {
  const filter = sandboxFilter(arch);
  if (!filter) return undefined;
  const file = path.join(alfredDir, 'bin', FILTER_NAME);
  writeIfChanged(file, filter, 0o644);
  return { file, filter };
}
