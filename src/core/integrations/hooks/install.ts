/**
 * The hook files Alfred installs so an agent calls `alfred hook` on every event. They name a stable
 * per-user launcher (`~/.alfred/bin/alfred`, written by the extension), never a machine's absolute path,
 * so the file can be committed and shared: a teammate without Alfred gets a failing hook command, which
 * agents treat as a warning (the call goes ahead).
 */
import { applyEdits, modify, parse as parseJsonc, type FormattingOptions } from 'jsonc-parser';
import { LAUNCHER_MARKS, LAUNCHER_POSIX, LAUNCHER_WINDOWS } from './launcherPath';
import { ANSWER_HEAD_BYTES, NATIVE_MAGIC } from './nativeProtocol';
import { FORWARDED_ENV } from './serverProtocol';
import { isObject } from '../../base/isObject';

/**
 * The events of `.github/hooks/alfred.json`, which the Copilot CLI and VS Code both read, so each key
 * must run Alfred once in each. VS Code (1.139, checked in its source) reads from this file the
 * Copilot CLI's camelCase names sessionStart, userPromptSubmitted, preToolUse, postToolUse,
 * agentStop and subagentStop, and its own PascalCase names, but not the CLI's `subagentStart` or
 * `preCompact`. So those two are written as `SubagentStart` and `PreCompact`, which VS Code runs and
 * the CLI reads as its own events with VS Code's input (its docs: PascalCase names select that
 * input), where it has them; writing the camelCase name as well could make the CLI run Alfred twice.
 */
export const COPILOT_HOOK_EVENTS = ['sessionStart', 'userPromptSubmitted', 'preToolUse', 'postToolUse', 'agentStop', 'SubagentStart', 'subagentStop', 'PreCompact'] as const;
export const CLAUDE_HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact'] as const;

/** Seconds an agent waits for a hook; Stop runs the acceptance checks, so it gets longer. */
const TIMEOUT_SEC = 30;
const STOP_TIMEOUT_SEC = 600;

/** Whether a hook command is one of Alfred's. */
export function isAlfredCommand(command: unknown): boolean {
  return typeof command === 'string' && LAUNCHER_MARKS.some((mark) => command.includes(mark));
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

/**
 * Claude Code's and Codex's hook files share one shape: `{"hooks": {"<Event>": [{"matcher"?, "hooks":
 * [{"type": "command", "command", "timeout"}]}]}}`. These helpers add, remove and find Alfred's entries
 * in it, keeping the user's own hooks, other settings and comments.
 */
type MatcherGroups = Record<string, Array<{ matcher?: string; hooks?: Array<{ type?: string; command?: string }> }>>;

function matcherGroupsOf(text: string): MatcherGroups {
  let data: { hooks?: MatcherGroups } | undefined;
  try {
    data = (parseJsonc(text || '{}') ?? {}) as { hooks?: MatcherGroups };
  } catch {
    return {};
  }
  return isObject(data?.hooks) ? data.hooks : {};
}

/** Seconds, as Claude Code and Codex read `timeout`. */
const secondsFor = (event: string) => (event === 'Stop' ? STOP_TIMEOUT_SEC : TIMEOUT_SEC);

function withMatcherGroupHooks(text: string | undefined, events: readonly string[], timeout: (event: string) => number = secondsFor, matcher?: string): string {
  let out = withoutMatcherGroupHooks(text ?? '') || '{}\n';
  const hooks = matcherGroupsOf(out);
  for (const event of events) {
    const entry = { ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command: `${LAUNCHER_POSIX} hook ${event}`, timeout: timeout(event) }] };
    const kept = Array.isArray(hooks[event]) ? hooks[event] : [];
    out = applyEdits(out, modify(out, ['hooks', event], [...kept, entry], { formattingOptions: FORMAT }));
  }
  return out.endsWith('\n') ? out : `${out}\n`;
}

function withoutMatcherGroupHooks(text: string): string {
  let out = text;
  const hooks = matcherGroupsOf(out);
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    // A group Alfred cannot read is the user's: it is kept as it is.
    const ours = (g: (typeof groups)[number]) => Array.isArray(g?.hooks) && g.hooks.some((h) => isAlfredCommand(h?.command));
    if (!groups.some(ours)) continue;
    const kept = groups
      .map((g) => (ours(g) ? { ...g, hooks: g.hooks!.filter((h) => !isAlfredCommand(h?.command)) } : g))
      .filter((g) => !Array.isArray(g?.hooks) || g.hooks.length > 0);
    out = applyEdits(out, modify(out, ['hooks', event], kept.length ? kept : undefined, { formattingOptions: FORMAT }));
  }
  const rest = parseJsonc(out || '{}') as Record<string, unknown> | undefined;
  if (rest && typeof rest.hooks === 'object' && rest.hooks && Object.keys(rest.hooks).length === 0) {
    out = applyEdits(out, modify(out, ['hooks'], undefined, { formattingOptions: FORMAT }));
  }
  const left = parseJsonc(out || '{}') as Record<string, unknown> | undefined;
  return left && Object.keys(left).length === 0 ? '' : out;
}

/** Where Alfred's hooks sit in a matcher-group file: the event, the group's index and the hook's index in it. */
export function alfredHookPositions(text: string | undefined): Array<{ event: string; group: number; hook: number }> {
  if (!text) return [];
  return Object.entries(matcherGroupsOf(text)).flatMap(([event, groups]) => (Array.isArray(groups) ? groups : []).flatMap((g, group) =>
    (Array.isArray(g?.hooks) ? g.hooks : []).flatMap((h, hook) => (isAlfredCommand(h?.command) ? [{ event, group, hook }] : []))));
}

function hasMatcherGroupHooks(text: string | undefined): boolean {
  if (!text) return false;
  return Object.values(matcherGroupsOf(text)).some((groups) => Array.isArray(groups)
    && groups.some((g) => Array.isArray(g?.hooks) && g.hooks.some((h) => isAlfredCommand(h?.command))));
}

/**
 * `.claude/settings.json` with Alfred's hooks added (and any older Alfred entries replaced); the
 * user's own settings, hooks and comments are kept.
 */
export function withClaudeHooks(settingsText: string | undefined): string {
  return withMatcherGroupHooks(settingsText, CLAUDE_HOOK_EVENTS);
}

/** `.claude/settings.json` without Alfred's hooks; '' when nothing else is left in the file. */
export function withoutClaudeHooks(settingsText: string): string {
  return withoutMatcherGroupHooks(settingsText);
}

/** Whether `.claude/settings.json` has Alfred's hooks. */
export function hasClaudeHooks(settingsText: string | undefined): boolean {
  return hasMatcherGroupHooks(settingsText);
}

/**
 * The events Alfred registers in `.codex/hooks.json`. Codex also has PermissionRequest and
 * PostCompact: `alfred hook` does not answer PostCompact, and its PermissionRequest refusal is in the
 * Copilot CLI's shape, which Codex rejects (PreToolUse decides first anyway), so they are left out.
 */
export const CODEX_HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact'] as const;

/**
 * `.codex/hooks.json` (Codex's own hook file, read by the Codex runtime VS Code starts for Codex agent
 * sessions and by the Codex CLI) with Alfred's hooks added, and any hooks the user has there kept.
 * No matcher: every tool goes through Alfred. Pass the file's current text, if any.
 */
export function codexHookFile(currentText?: string): string {
  return withMatcherGroupHooks(currentText, CODEX_HOOK_EVENTS);
}

/** `.codex/hooks.json` without Alfred's hooks; '' when nothing else is left in the file. */
export function withoutCodexHooks(text: string): string {
  return withoutMatcherGroupHooks(text);
}

/** Whether `.codex/hooks.json` has Alfred's hooks. */
export function hasCodexHooks(text: string | undefined): boolean {
  return hasMatcherGroupHooks(text);
}

/**
 * The events Alfred registers in `.gemini/settings.json` (Gemini CLI 0.61): SessionStart, BeforeAgent
 * (a prompt), BeforeTool and AfterTool (every tool: matcher ""), AfterAgent (the turn's end, where
 * the acceptance checks run). Its other events (BeforeModel, AfterModel, BeforeToolSelection,
 * PreCompress, SessionEnd) have no Alfred handler.
 */
export const GEMINI_HOOK_EVENTS = ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent'] as const;

/** Gemini CLI reads `timeout` in milliseconds. */
const millisecondsFor = (event: string) => (event === 'AfterAgent' ? STOP_TIMEOUT_SEC : TIMEOUT_SEC) * 1000;

/** `.gemini/settings.json` with Alfred's hooks added; the user's settings, hooks and comments kept. */
export function withGeminiHooks(settingsText: string | undefined): string {
  return withMatcherGroupHooks(settingsText, GEMINI_HOOK_EVENTS, millisecondsFor, '');
}

/** `.gemini/settings.json` without Alfred's hooks; '' when nothing else is left in the file. */
export function withoutGeminiHooks(settingsText: string): string {
  return withoutMatcherGroupHooks(settingsText);
}

/**
 * The bash launcher's fast path, run before the command line: `hook <Event>` (no other argument, not
 * Stop, whose checks need the agent's environment) is sent to the resident hook server over loopback
 * TCP (src/core/integrations/hooks/nativeProtocol.ts) with builtins only: no fork, no exec, no Node start. The
 * input is read with `read -N` (bash 5 reads in blocks; `$(cat)` would cost a fork and an exec), so
 * whatever stdin is (the socket Node-based agents give, a pipe, a file) nothing is left for the
 * command line to read unless the launcher hands it over. Any failure before an answer: the command
 * line runs, with the input if it was read. `bash -p` keeps BASH_ENV and exported functions (which
 * could stand in for `read` or `printf`) out.
 */
const FAST_PATH = String.raw`alfred_ask() {
  local LC_ALL=C home=\${ALFRED_HOME:-$HOME/.alfred} port token proof req k code pid mark head rest len body
  [[ -n \${ALFRED_HOME:-$HOME} ]] || { alfred_why='no HOME'; return 1; }
  [[ $home == /* ]] || home=$PWD/$home
  { IFS=' ' read -r port token proof < "$home/run/hook.tcp"; } 2>/dev/null || { alfred_why='no hook.tcp'; return 1; }
  # Patterns, not regular expressions: bash compiles a regular expression on every test (a ms here).
  [[ -n $port && \${#port} -le 5 && $port != *[!0-9]* && \${#token} == 64 && $token != *[!0-9a-f]* && \${#proof} == 64 && $proof != *[!0-9a-f]* ]] \
    || { alfred_why='unreadable hook.tcp'; return 1; }
  req="${NATIVE_MAGIC}$token"$'\n'"event $1"$'\n'"cwd $PWD"$'\n'@BUILD@
  [[ -n \${ALFRED_WORKSPACE+x} ]] && req+="workspace $ALFRED_WORKSPACE"$'\n'
  # A newline in a value would be a header line of its own: such a call is the command line's.
  [[ $PWD\${ALFRED_WORKSPACE-} == *$'\n'* ]] && { alfred_why='a newline in a path'; return 1; }
  # The caller's values of what a decision reads (FORWARDED_ENV), so the server answers as this
  # process would: where /proc is, the server reads them there (src/core/integrations/hooks/callerProcess.ts).
  if [[ -r /proc/$$/environ ]]; then req+="pid $$"$'\n'
  else
    for k in ${FORWARDED_ENV.join(' ')}; do
      [[ -n \${!k+x} ]] || continue
      [[ \${!k} == *$'\n'* ]] && { alfred_why="a newline in $k"; return 1; }
      req+="env $k=\${!k}"$'\n'
    done
  fi
  { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || { alfred_why="nothing listens on port $port"; return 1; }
  alfred_input=
  # A terminal or /dev/null: no input, as the command line reads it.
  if [[ -c /dev/stdin ]]; then :
  elif ((BASH_VERSINFO[0] >= 5)); then IFS= read -r -N 999999999 alfred_input
  else alfred_input=$(cat; printf x); alfred_input=\${alfred_input%x}
  fi
  req+="length \${#alfred_input}"$'\n\n'$alfred_input
  { printf '%s' "$req" >&3; } 2>/dev/null || { alfred_why='the request could not be sent'; return 1; }
  # Waits at most 15 s for the answer to start; the server writes it whole: the rest is read in blocks
  # (with -t bash reads byte by byte, two system calls each; bash before 4.1, as macOS has, has no -N),
  # by its lengths where bash 5 reads them so, not waiting for the connection's end (nativeProtocol.ts).
  if IFS= read -r -n 1 -t 15 head <&3; then
    if ((BASH_VERSINFO[0] >= 5)); then
      IFS= read -r -N ${ANSWER_HEAD_BYTES - 1} rest <&3
      len=\${rest:${ANSWER_HEAD_BYTES - 12}:10}
      # A fallback's reason has no length: read to the end.
      if [[ $head$rest == fallback* ]]; then IFS= read -r -d '' body <&3
      elif [[ \${#rest} == ${ANSWER_HEAD_BYTES - 1} && $len != *[!0-9]* ]] && ((10#$len > 0)); then IFS= read -r -N $((10#$len)) body <&3
      fi
      rest+=$body
    else IFS= read -r -d '' rest <&3
    fi
  fi
  exec 3<&-
  rest=$head$rest head=\${rest%%$'\n'*}
  if [[ $head == fallback* ]]; then alfred_why="the server did not run it: \${head#fallback }"; return 1; fi
  rest=\${rest#*$'\n'} code=\${head%% *} head=\${head#* } pid=\${head%% *} head=\${head#* } mark=\${head%% *} len=\${head#* }
  # Only the server knows the proof: an answer without it (or cut short) is no answer.
  [[ \${#code} == 3 && $code != *[!0-9]* && $mark == "$proof" && \${#len} == 10 && $len != *[!0-9]* && \${#rest} == $((10#$len)) && $rest == *$'\036'* ]] \
    || { alfred_why='no complete answer'; return 1; }
  code=$((10#$code)) pid=$((10#$pid))
  [[ -n \${ALFRED_HOOK_DEBUG-} ]] && printf "alfred hook: answered by the hook server (pid %s) on the launcher's fast path\n" "$pid" >&2
  printf '%s' "\${rest%$'\036'*}"
  printf '%s' "\${rest##*$'\036'}" >&2
  exit "$code"
}
if [[ $# == 2 && $1 == hook && -n $2 && $2 != *[!ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz]* && $2 != Stop && $2 != agentStop && $2 != AfterAgent && \${ALFRED_HOOK_SERVER-} != off ]]; then
  alfred_ask "$2"
  [[ -n \${ALFRED_HOOK_DEBUG-} ]] && printf "alfred hook: no answer on the launcher's fast path (%s); running the command line\n" "$alfred_why" >&2
  # The input already read goes to the command line through a pipe.
  [[ -n \${alfred_input+x} ]] && exec 0< <(printf '%s' "$alfred_input")
fi
`.replaceAll('\\${', '${') // `\${` stands for `${`, which a template literal reads as its own
  // Its comments are for whoever reads this file: bash parses every line of the function on every call
  // (comments cost the fast path a tenth of a millisecond of its 5).
  .replace(/^[ \t]*# .*\n/gm, '');

/**
 * The launcher scripts `~/.alfred/bin/alfred` (POSIX) and `alfred.cmd` (Windows). With `bash` (pass
 * whether /bin/bash exists), the POSIX one is a bash script with the hook server's fast path first.
 */
export function launcherScripts(runtime: string, cliPath: string, opts: { bash?: boolean } = {}): { posix: string; windows: string } {
  const run = `ELECTRON_RUN_AS_NODE=1 exec "${runtime}" "${cliPath}" "$@"\n`;
  // The build it runs, so that only a server of that build answers (serverBuild.ts).
  const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  const build = quoted(`runtime ${runtime}\ncli ${cliPath}\n`);
  return {
    posix: opts.bash
      ? `#!/bin/bash -p\n# Written by the Alfred extension each time it starts: answers \`alfred hook\` through the resident\n`
        + `# hook server when one runs, else runs its bundled command line.\n${FAST_PATH.replace('@BUILD@', () => build)}${run}`
      : `#!/bin/sh\n# Written by the Alfred extension each time it starts: runs its bundled command line.\n${run}`,
    windows: `@echo off\r\nrem Written by the Alfred extension each time it starts: runs its bundled command line.\r\n`
      + `set ELECTRON_RUN_AS_NODE=1\r\n"${runtime}" "${cliPath}" %*\r\n`,
  };
}

/**
 * What a launcher written by launcherScripts runs: the runtime and the command line's file. Undefined
 * for a launcher Alfred did not write (or one edited by hand).
 */
export function launcherTarget(text: string | undefined): { runtime: string; cli: string } | undefined {
  if (!text) return undefined;
  const m = /^ELECTRON_RUN_AS_NODE=1 exec "([^"]+)" "([^"]+)" "\$@"\s*$/m.exec(text) ?? /^"([^"]+)" "([^"]+)" %\*\s*$/m.exec(text);
  return m ? { runtime: m[1]!, cli: m[2]! } : undefined;
}
