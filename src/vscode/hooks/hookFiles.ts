import * as fs from 'node:fs';
import * as path from 'node:path';
import { GOVERNED_AGENTS, type AgentId } from '../../core/governance/agents';

/** The file an agent's hooks live in, for the workspace folder: GOVERNED_AGENTS is the one table of them. */
export function hookFilePath(workspaceFolder: string, agent: AgentId): string {
  const row = GOVERNED_AGENTS.find((a) => a.id === agent);
  if (!row) throw new Error(`unknown agent ${agent}`);
  return path.join(workspaceFolder, ...row.hookFile.split('/'));
}

/** Every hook file, once (agents may share one: Copilot in VS Code and the Copilot CLI do), workspace-relative with `/`. */
export function hookFilesRelative(): string[] {
  return [...new Set(GOVERNED_AGENTS.map((a) => a.hookFile))];
}

export function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
