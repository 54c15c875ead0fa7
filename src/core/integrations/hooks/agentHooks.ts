/**
 * What each governed agent's hook file needs from Alfred: writing Alfred's hooks into it (the user's
 * own kept), taking them out, telling whether they are there, and the trust the agent itself asks
 * before it runs them (integrations/health/inForce.ts). One entry per agent of protect/agentTable.ts.
 */
import type { AgentId } from '../../protect/agentTable';
import {
  copilotHookFile, codexHookFile, hasClaudeHooks, hasCodexHooks, isCopilotHookFileGoverning, withClaudeHooks, withGeminiHooks, withoutClaudeHooks,
  withoutCodexHooks, withoutGeminiHooks,
} from './install';

export interface AgentHookFile {
  /** The hook file's text with Alfred's hooks, from its current text (undefined: no file yet). */
  install(current: string | undefined): string;
  /** The text without Alfred's hooks; null when the file should go (nothing of the user's is left). */
  remove(current: string): string | null;
  /** Whether the text has Alfred's hooks. */
  installed(text: string | undefined): boolean;
}

/** `.github/hooks/alfred.json` is Alfred's own file: written whole, removed whole. */
const copilot: AgentHookFile = {
  install: () => copilotHookFile(),
  remove: () => null,
  installed: isCopilotHookFileGoverning,
};

const orNull = (text: string) => (text === '' ? null : text);

export const AGENT_HOOK_FILES: Readonly<Record<AgentId, AgentHookFile>> = {
  copilot,
  'copilot-cli': copilot,
  'claude-code': { install: withClaudeHooks, remove: (t) => orNull(withoutClaudeHooks(t)), installed: hasClaudeHooks },
  codex: { install: codexHookFile, remove: (t) => orNull(withoutCodexHooks(t)), installed: hasCodexHooks },
  // The same matcher-group shape as Claude Code's, in the same kind of settings file.
  gemini: { install: withGeminiHooks, remove: (t) => orNull(withoutGeminiHooks(t)), installed: hasClaudeHooks },
};
