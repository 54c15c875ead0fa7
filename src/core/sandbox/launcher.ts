/**
 * A short terminal line for a sandboxed command. The full bubblewrap command names every read-only
 * mount (a kilobyte or two), and the user reads the line in the agent's confirmation card and in the
 * terminal; so the mounts go into a plan file in Alfred's home (read-only inside the sandbox, outside
 * every workspace), and the line is `~/.alfred/bin/alfred-sandbox <workspace id> '<command>'`, a
 * small POSIX script that runs the command under that plan.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { atomicWrite } from '../fs/atomicWrite';

export const SANDBOX_SCRIPT = `#!/bin/sh
# Written by Alfred: runs one command in the kernel sandbox Alfred planned for a workspace
# (~/.alfred/run/sandbox/<id>.args: the sandbox program and its arguments, one a line).
set -f
case "$1" in *[!0-9a-f]*|'') echo "alfred-sandbox: bad workspace id '$1'" >&2; exit 126 ;; esac
plan="$(dirname "$0")/../run/sandbox/$1.args"
[ -r "$plan" ] || { echo "alfred-sandbox: no sandbox plan at $plan" >&2; exit 126; }
command=$2
IFS='
'
exec $(cat "$plan") -- "\${SHELL:-/bin/sh}" -c "$command"
`;

/** Writes `path` only when its content differs (atomically), so concurrent hooks never see half a file. */
function writeIfChanged(file: string, text: string, mode: number): void {
  try {
    if (fs.readFileSync(file, 'utf8') === text) return;
  } catch {
    // missing: written below
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  atomicWrite(file, text, { mode });
}

/**
 * Saves the plan (`argv` up to, not including, `--`) and makes sure the script exists; returns the
 * script's path, or undefined when an argument cannot be written one a line (it holds a newline).
 */
export function savePlan(alfredDir: string, workspaceId: string, argv: readonly string[]): string | undefined {
  if (argv.some((a) => a.includes('\n'))) return undefined;
  const script = path.join(alfredDir, 'bin', 'alfred-sandbox');
  writeIfChanged(script, SANDBOX_SCRIPT, 0o755);
  writeIfChanged(path.join(alfredDir, 'run', 'sandbox', `${workspaceId}.args`), `${argv.join('\n')}\n`, 0o644);
  return script;
}
