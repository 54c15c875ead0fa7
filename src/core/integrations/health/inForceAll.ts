/** Every agent's in-force probe (inForce.ts) at once, for the health rows. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readIfExists } from '../../base/fs/readIfExists';
import { alfredHookPositions } from '../hooks/install';
import type { AgentId } from '../../protect/agents';
import type { HealthIssue } from './health';
import {
  claudeInForce, codexConfigFile, codexInForce, codexTrustTarget, copilotCliConfigFile, copilotCliInForce, geminiInForce, geminiTrustFile, type InForceContext,
} from './inForce';
import { withCodexProjectTrust, withCopilotCliTrust, withGeminiTrust } from '../agents/trustEdits';

/** The folder holding `.git` (a folder, or a worktree's file) at or above `folder`, if any. */
export function repositoryRootOf(folder: string, exists: (file: string) => boolean): string | undefined {
  for (let dir = folder; ; dir = path.dirname(dir)) {
    if (exists(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Each agent's probe; `hookText`: its hook file's text (where Alfred's entries sit in it). Copilot in VS Code's are VS Code's settings (health.ts). */
const PROBES: Readonly<Record<AgentId, (ctx: InForceContext, hookText: string | undefined) => HealthIssue[]>> = {
  copilot: () => [],
  'copilot-cli': (ctx) => copilotCliInForce(ctx),
  'claude-code': (ctx) => claudeInForce(ctx),
  codex: (ctx, text) => codexInForce(ctx, alfredHookPositions(text)),
  gemini: (ctx) => geminiInForce(ctx),
};

export function agentsInForce(ctx: InForceContext, hookText: (agent: AgentId) => string | undefined): Partial<Record<AgentId, HealthIssue[]>> {
  return Object.fromEntries(Object.entries(PROBES).map(([id, probe]) => [id, probe(ctx, hookText(id as AgentId))]));
}

/** The probes' context for a workspace, as this process sees the home, the environment and the files. */
export function inForceContext(workspaceFolder: string, home: string, env: NodeJS.ProcessEnv): InForceContext {
  let workspace: string;
  try {
    workspace = fs.realpathSync.native(workspaceFolder);
  } catch {
    workspace = path.resolve(workspaceFolder);
  }
  return { workspace, repositoryRoot: repositoryRootOf(workspace, fs.existsSync), home, env, platform: process.platform, read: readIfExists };
}

/**
 * The trust entry an agent still needs before it runs the workspace's hooks, as a change to the
 * agent's own user file (for the write pipeline), or undefined when it has it (or the file cannot be
 * edited safely: the health row then says the step).
 */
export function trustChange(agent: AgentId, ctx: InForceContext): { file: string; newText: string } | undefined {
  const change = (file: string, edit: (text: string | undefined) => string | undefined) => {
    const text = ctx.read(file);
    const newText = edit(text);
    return newText === undefined || newText === text ? undefined : { file, newText };
  };
  if (agent === 'codex' && codexInForce(ctx, []).length > 0) return change(codexConfigFile(ctx), (t) => withCodexProjectTrust(t, codexTrustTarget(ctx)));
  if (agent === 'copilot-cli' && copilotCliInForce(ctx).length > 0) return change(copilotCliConfigFile(ctx), (t) => withCopilotCliTrust(t, ctx.workspace));
  if (agent === 'gemini' && geminiInForce(ctx).some((i) => i.code === 'gemini-folder-untrusted')) return change(geminiTrustFile(ctx), (t) => withGeminiTrust(t, ctx.workspace));
  return undefined;
}
