/**
 * Where the launcher every hook command runs lives: `~/.alfred/bin/alfred` (`alfred.cmd` on
 * Windows), the same on every machine so that hook files can be committed. The one definition the
 * hook files, the extension that writes the launcher and the governance check all read.
 */
import * as os from 'node:os';
import * as path from 'node:path';

/** Home-relative folder of the launcher (and of `alfred-sandbox`). */
const LAUNCHER_FOLDER = ['.alfred', 'bin'] as const;

/** The launcher as a POSIX hook command names it. */
export const LAUNCHER_POSIX = `"$HOME/${LAUNCHER_FOLDER.join('/')}/alfred"`;
/** `cmd /d /c` expands %USERPROFILE% whether the agent runs the line in cmd.exe or PowerShell. */
export const LAUNCHER_WINDOWS = `cmd /d /c "%USERPROFILE%\\${LAUNCHER_FOLDER.join('\\')}\\alfred.cmd"`;
/** What every one of Alfred's hook commands contains, whichever separator. */
export const LAUNCHER_MARKS: readonly string[] = [`${LAUNCHER_FOLDER.join('/')}/alfred`, `${LAUNCHER_FOLDER.join('\\')}\\alfred`];

export function launcherDir(home: string = os.homedir()): string {
  return path.join(home, ...LAUNCHER_FOLDER);
}

/** The launcher file this platform's hook commands run. */
export function launcherFile(home: string = os.homedir(), platform: NodeJS.Platform = process.platform): string {
  return path.join(launcherDir(home), platform === 'win32' ? 'alfred.cmd' : 'alfred');
}
