import * as path from 'node:path';
import { GOVERNED_AGENTS, type AgentId } from '../../core/governance/agents';

/** The file an agent's hooks live in, for the workspace folder: GOVERNED_AGENTS is the one table of them. */
export function hookFilePath(workspaceFolder: string, agent: AgentId): string {
  const row = GOVERNED_AGENTS.find((a) => a.id === agent);
  if (!row) throw new Error(`unknown agent ${agent}`);
  return path.join(workspaceFolder, ...row.hookFile.split('/'));
}

export { readIfExists } from '../../core/fs/readIfExists';
