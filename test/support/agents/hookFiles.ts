/**
 * The files Alfred installs so a real agent client calls `alfred hook`: the per-user launcher and
 * each client's hook file, written by Alfred's own installer functions, so a test runs what users get.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { codexHookFile, copilotHookFile, launcherScripts, withClaudeHooks } from '../../../src/core/integrations/hooks/install';
import { launcherFile } from '../../../src/core/integrations/hooks/launcherPath';
import { LAUNCHER_POSIX } from '../../../src/core/integrations/hooks/launcherPath';

export type ClientId = 'claude' | 'codex' | 'copilot-cli' | 'gemini';

const ROOT = path.resolve(__dirname, '../../..');
export const BUILT_CLI = path.join(ROOT, 'dist', 'cli', 'alfred.cjs');

/** `~/.alfred/bin/alfred`, as the extension writes it: the bash launcher that runs the built CLI with this Node. */
export function installLauncher(home: string): void {
  const file = launcherFile(home, 'linux');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, launcherScripts(process.execPath, BUILT_CLI, { bash: true }).posix, { mode: 0o755 });
}

/**
 * Gemini CLI's hooks in `.gemini/settings.json`. Alfred has no installer for Gemini CLI yet: this is
 * the one place the file is written by hand, in the format Gemini CLI 0.61 reads (BeforeTool and
 * AfterTool with an empty matcher, the launcher's command, a timeout in milliseconds).
 */
function geminiSettings(): string {
  const entry = (event: string) => [{ matcher: '', hooks: [{ type: 'command', command: `${LAUNCHER_POSIX} hook ${event}`, timeout: 30_000 }] }];
  return `${JSON.stringify({ hooks: { BeforeTool: entry('BeforeTool'), AfterTool: entry('AfterTool') } }, null, 2)}\n`;
}

/** The workspace-relative hook file of each client and its text, from Alfred's installer. */
export function hookFileOf(client: ClientId): { rel: string; text: string } {
  switch (client) {
    case 'claude': return { rel: '.claude/settings.json', text: withClaudeHooks(undefined) };
    case 'codex': return { rel: '.codex/hooks.json', text: codexHookFile() };
    case 'copilot-cli': return { rel: '.github/hooks/alfred.json', text: copilotHookFile() };
    case 'gemini': return { rel: '.gemini/settings.json', text: geminiSettings() };
  }
}

export function installHookFile(client: ClientId, workspace: string): void {
  const { rel, text } = hookFileOf(client);
  fs.mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
  fs.writeFileSync(path.join(workspace, rel), text);
}
