/** Hook event names as each agent spells them, read into one canonical name. */

export type HookEvent = 'SessionStart' | 'UserPromptSubmit' | 'PreToolUse' | 'PostToolUse' | 'Stop' | 'PermissionRequest'
  | 'SubagentStart' | 'SubagentStop' | 'PreCompact';

const NAMES: Readonly<Record<string, HookEvent>> = {
  // VS Code and Claude Code
  SessionStart: 'SessionStart', UserPromptSubmit: 'UserPromptSubmit', PreToolUse: 'PreToolUse',
  PostToolUse: 'PostToolUse', Stop: 'Stop', PermissionRequest: 'PermissionRequest',
  SubagentStart: 'SubagentStart', SubagentStop: 'SubagentStop', PreCompact: 'PreCompact',
  // Copilot CLI
  sessionStart: 'SessionStart', userPromptSubmitted: 'UserPromptSubmit', preToolUse: 'PreToolUse',
  postToolUse: 'PostToolUse', agentStop: 'Stop', permissionRequest: 'PermissionRequest',
  subagentStart: 'SubagentStart', subagentStop: 'SubagentStop', preCompact: 'PreCompact',
  // Gemini CLI (SessionStart as above)
  BeforeAgent: 'UserPromptSubmit', BeforeTool: 'PreToolUse', AfterTool: 'PostToolUse', AfterAgent: 'Stop',
};

/** Gemini CLI's own event names: an input that names one is Gemini's. */
export const GEMINI_EVENTS: readonly string[] = ['BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent'];

export const SUPPORTED_HOOK_EVENTS: readonly string[] = Object.keys(NAMES);

export function canonicalHookEvent(event: string): HookEvent | undefined {
  return Object.hasOwn(NAMES, event) ? NAMES[event] : undefined;
}
