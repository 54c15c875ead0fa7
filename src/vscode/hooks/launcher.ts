import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { atomicWrite } from '../../core/base/fs/atomicWrite';
import { launcherDir } from '../../core/integrations/hooks/launcherPath';
import { launcherScripts } from '../../core/integrations/hooks/install';


/**
 * Writes `~/.alfred/bin/alfred` (and `alfred.cmd`) to run this installation's command line with the
 * editor's own runtime (no Node.js install needed: Electron runs as Node with ELECTRON_RUN_AS_NODE).
 * Rewritten only when it changed, e.g. after an update moved the extension.
 */
export function ensureLauncher(extensionUri: vscode.Uri): string {
  // The CommonJS entry: alfred.mjs would start the ES module loader on every hook call.
  const cli = vscode.Uri.joinPath(extensionUri, 'dist', 'cli', 'alfred.cjs').fsPath;
  // With bash, hook calls skip the Node start while a hook server runs (the launcher's fast path).
  const scripts = launcherScripts(process.execPath, cli, { bash: process.platform !== 'win32' && fs.existsSync('/bin/bash') });
  const dir = launcherDir();
  fs.mkdirSync(dir, { recursive: true });
  const write = (name: string, text: string, mode: number) => {
    const file = path.join(dir, name);
    let current: string | undefined;
    try { current = fs.readFileSync(file, 'utf8'); } catch { /* first time */ }
    if (current === text) return;
    atomicWrite(file, text, { mode });
  };
  write('alfred', scripts.posix, 0o755);
  write('alfred.cmd', scripts.windows, 0o644);
  return path.join(dir, process.platform === 'win32' ? 'alfred.cmd' : 'alfred');
}

