import * as fs from 'node:fs';
import * as path from 'node:path';

/** The files Alfred's hooks live in, for the workspace folder. */
export function hookFilePaths(workspaceFolder: string): { copilot: string; claude: string } {
  return {
    copilot: path.join(workspaceFolder, '.github', 'hooks', 'alfred.json'),
    claude: path.join(workspaceFolder, '.claude', 'settings.json'),
  };
}

export function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
