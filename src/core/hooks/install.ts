/**
 * The hook files Alfred installs so an agent calls `alfred hook` on every event. They name a stable
 * per-user launcher (`~/.alfred/bin/alfred`, written by the extension), never a machine's absolute path,
 * so the file can be committed and shared: a teammate without Alfred gets a failing hook command, which
 * agents treat as a warning (the call goes ahead).
 */
import { applyEdits, modify, parse as parseJsonc, type FormattingOptions } from 'jsonc-parser';

/** Copilot CLI event names; VS Code reads this format too (agentStop → Stop, userPromptSubmitted → UserPromptSubmit). */
export const COPILOT_HOOK_EVENTS = ['sessionStart', 'userPromptSubmitted', 'preToolUse', 'postToolUse', 'agentStop'] as const;
export const CLAUDE_HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] as const;

/** Seconds an agent waits for a hook; Stop runs the acceptance checks, so it gets longer. */
const TIMEOUT_SEC = 30;
const STOP_TIMEOUT_SEC = 600;

export const LAUNCHER_POSIX = '"$HOME/.alfred/bin/alfred"';
/** `cmd /d /c` expands %USERPROFILE% whether the agent runs the line in cmd.exe or PowerShell. */
export const LAUNCHER_WINDOWS = 'cmd /d /c "%USERPROFILE%\\.alfred\\bin\\alfred.cmd"';

const MARK = '.alfred/bin/alfred';

/** Whether a hook command is one of Alfred's. */
export function isAlfredCommand(command: unknown): boolean {
  return typeof command === 'string' && (command.includes(MARK) || command.includes('.alfred\\bin\\alfred'));
}

/**
 * `.github/hooks/alfred.json` in the Copilot CLI format (`version: 1`), which both the Copilot CLI
 * and VS Code read: one file, so no agent runs Alfred twice for one event.
 */
export function copilotHookFile(): string {
  const hooks = Object.fromEntries(COPILOT_HOOK_EVENTS.map((event) => [event, [{
    type: 'command',
    bash: `${LAUNCHER_POSIX} hook ${event}`,
    powershell: `${LAUNCHER_WINDOWS} hook ${event}`,
    timeoutSec: event === 'agentStop' ? STOP_TIMEOUT_SEC : TIMEOUT_SEC,
  }]]));
  return `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`;
}

/** Whether a `.github/hooks/*.json` text is Alfred's governing file. */
export function isCopilotHookFileGoverning(text: string | undefined): boolean {
  if (!text) return false;
  try {
    const data = JSON.parse(text) as { hooks?: Record<string, Array<{ bash?: string; command?: string }>> };
    return Object.values(data.hooks ?? {}).some((entries) => entries.some((e) => isAlfredCommand(e.bash ?? e.command)));
  } catch {
    return false;
  }
}

const FORMAT: FormattingOptions = { insertSpaces: true, tabSize: 2, eol: '\n' };

type ClaudeHooks = Record<string, Array<{ matcher?: string; hooks?: Array<{ type?: string; command?: string }> }>>;

function claudeHooksOf(text: string): ClaudeHooks {
  const data = (parseJsonc(text || '{}') ?? {}) as { hooks?: ClaudeHooks };
  return data.hooks && typeof data.hooks === 'object' ? data.hooks : {};
}

/**
 * `.claude/settings.json` with Alfred's hooks added (and any older Alfred entries replaced); the
 * user's own settings, hooks and comments are kept.
 */
export function withClaudeHooks(settingsText: string | undefined): string {
  let text = withoutClaudeHooks(settingsText ?? '') || '{}\n';
  const hooks = claudeHooksOf(text);
  for (const event of CLAUDE_HOOK_EVENTS) {
    const entry = { hooks: [{ type: 'command', command: `${LAUNCHER_POSIX} hook ${event}`, timeout: event === 'Stop' ? STOP_TIMEOUT_SEC : TIMEOUT_SEC }] };
    text = applyEdits(text, modify(text, ['hooks', event], [...(hooks[event] ?? []), entry], { formattingOptions: FORMAT }));
  }
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** `.claude/settings.json` without Alfred's hooks; '' when nothing else is left in the file. */
export function withoutClaudeHooks(settingsText: string): string {
  let text = settingsText;
  const hooks = claudeHooksOf(text);
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const kept = groups
      .map((g) => ({ ...g, hooks: (g.hooks ?? []).filter((h) => !isAlfredCommand(h.command)) }))
      .filter((g) => g.hooks.length > 0);
    if (kept.length === groups.length && kept.every((g, i) => g.hooks.length === (groups[i]?.hooks ?? []).length)) continue;
    text = applyEdits(text, modify(text, ['hooks', event], kept.length ? kept : undefined, { formattingOptions: FORMAT }));
  }
  const rest = parseJsonc(text || '{}') as Record<string, unknown> | undefined;
  if (rest && typeof rest.hooks === 'object' && rest.hooks && Object.keys(rest.hooks).length === 0) {
    text = applyEdits(text, modify(text, ['hooks'], undefined, { formattingOptions: FORMAT }));
  }
  const left = parseJsonc(text || '{}') as Record<string, unknown> | undefined;
  return left && Object.keys(left).length === 0 ? '' : text;
}

/** Whether `.claude/settings.json` has Alfred's hooks. */
export function hasClaudeHooks(settingsText: string | undefined): boolean {
  if (!settingsText) return false;
  return Object.values(claudeHooksOf(settingsText)).some((groups) => Array.isArray(groups)
    && groups.some((g) => (g.hooks ?? []).some((h) => isAlfredCommand(h.command))));
}

/** The launcher scripts `~/.alfred/bin/alfred` (POSIX) and `alfred.cmd` (Windows). */
export function launcherScripts(runtime: string, cliPath: string): { posix: string; windows: string } {
  return {
    posix: `#!/bin/sh\n# Written by the Alfred extension each time it starts: runs its bundled command line.\n`
      + `ELECTRON_RUN_AS_NODE=1 exec "${runtime}" "${cliPath}" "$@"\n`,
    windows: `@echo off\r\nrem Written by the Alfred extension each time it starts: runs its bundled command line.\r\n`
      + `set ELECTRON_RUN_AS_NODE=1\r\n"${runtime}" "${cliPath}" %*\r\n`,
  };
}
