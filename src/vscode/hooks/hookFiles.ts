import * as path from 'node:path';
import { governedAgent, type AgentId } from '../../core/protect/agents';

/** The file an agent's hooks live in, for the workspace folder: GOVERNED_AGENTS is the one table of them. */
export function hookFilePath(workspaceFolder: string, agent: AgentId): string {
  return path.join(workspaceFolder, ...governedAgent(agent).hookFile.split('/'));
}

export { readIfExists } from '../../core/base/fs/readIfExists';
