/**
 * Authority only goes up with the user (ARCHITECTURE.md, Authority only rises with the user). An agent's tool call that runs
 * Alfred's own mutating commands — `alfred role NAME`, `alfred reset`, `alfred serve` (a hook server
 * answering with the caller's role), `alfred hook` (a call decided and charged as another caller's)
 * — that sets or unsets Alfred's own variables for what it starts (`ALFRED_ROLE=admin claude -p …`:
 * a nested agent's hooks would decide under that role, and a hook under another role opens a new
 * budget session), or that runs Alfred's VS Code commands is refused, under any spelling the
 * command line shows: the launcher `"$HOME/.alfred/bin/alfred"`, `node …/alfred.cjs`, `npx alfred`,
 * inside `bash -c '…'`, `eval`, or an interpreter's string (`python3 -c "os.system('alfred reset')"`).
 * A word split by quotes or backslashes is read as the shell joins it (`al''fred reset`,
 * `ALF""RED_ROLE=admin`); the builtins that assign the variable they are named are assignments too
 * (`printf -v`, `read`, `for … in`, `getopts`, a nameref `declare -n`); and a variable whose name the
 * line computes (`env "$V=admin"`, `printf -v "$V"`, `export "$V"`, `eval "$V=…"`) may be one of
 * Alfred's. Other spellings the line does not show (a name read from a file, encoded strings) are
 * held elsewhere: the kernel sandbox
 * makes Alfred's home read-only, and a switch to more authority made outside the editor waits for the
 * user's confirmation (rules/policy/authority.ts). For Alfred's variables, such a spelling gets through this
 * rule; inside the kernel sandbox a nested agent's hook is decided with the hook server's environment
 * anyway (sandbox/wrap.ts, WrapInput.hookRun).
 */

/** `alfred`, `alfred.cjs`, `alfred-main.cjs`, `alfred.cmd`, then separators a shell or a list literal puts between words. */
const MUTATING_CLI = /(?:^|[^\w.-])alfred(?:[\w.-]*)?(?:["'`)\]\s,]|\\\s)+(?:(role)(?:["'`\s,]|\\\s)+[A-Za-z0-9_-]|(reset|serve|hook)(?![\w-]))/i;
/**
 * One of Alfred's variables (`ALFRED_…`, `LEAN_CTX_ROLE`) given a value — a shell's assignment, `env`'s
 * argument, an interpreter's `environ['…'] = …` — or unset (`unset`, `env -u`), not read (`$ALFRED_ROLE`).
 */
const OWN = String.raw`((?:ALFRED|LEAN_CTX)_[A-Z0-9_]+)\b`;
const OWN_VARIABLE_SET = new RegExp(String.raw`(?:^|[^\w$])${OWN}["'\`\]]*\s*=(?!=)`);
/** Up to the end of a simple command: its words, not what a pipe, a list or a redirection brings in. */
const WORDS = String.raw`[^;&|\n<>]*?`;
/** Where a command's name stands: first in the line, a list, a group or a string, after a keyword or an assignment (`IFS= read`). */
const AT_COMMAND = String.raw`(?:^|[;&|({}!\n"'\`]|\b(?:do|then|else|while|until|if|time)\s|\b\w+=\S*\s)\s*(?:builtin\s+|command\s+)?`;
/**
 * The builtins that assign the variable they are named: `printf -v NAME`, `read … NAME`, `for NAME
 * in`, `select NAME in`, `getopts OPTS NAME`, and a nameref (`declare -n r=NAME`, after which
 * `r=admin` sets NAME). (`mapfile` makes an array, which bash does not export.)
 */
const OWN_VARIABLE_ASSIGNED = [
  new RegExp(String.raw`${AT_COMMAND}printf\s+(?:-[^\sv]\S*\s+)*-v\s*["']?${OWN}`),
  new RegExp(String.raw`${AT_COMMAND}read\s${WORDS}(?<=\s)["']?${OWN}`),
  new RegExp(String.raw`${AT_COMMAND}(?:for|select)\s+["']?${OWN}["']?\s+in\b`),
  new RegExp(String.raw`${AT_COMMAND}getopts\s+\S+\s+["']?${OWN}`),
  new RegExp(String.raw`${AT_COMMAND}(?:declare|typeset|local)\s+(?:-\w+\s+)*-\w*n\w*\s${WORDS}=["']?${OWN}`),
];
const OWN_VARIABLE_UNSET = new RegExp(String.raw`(?:\bunset(?:\s+-v)?|\s-u|\s--unset(?:=|\s+))\s*["']?${OWN}`);
/** A word that starts by expanding a variable (`$V`, `"${V}"`, `$1`), not a command's output (`$(…)`). */
const EXPANSION = String.raw`["']?\$\{?[\w!]`;
/**
 * A variable named by an expansion and given a value or exported: `env` given `"$V=admin"` or
 * `"${V}"=…`; `export`, `declare`… given any `"$V…"`; `printf -v "$V"`, `read "$V"`, a nameref to `"$V"`,
 * `eval "$V=…"`. (`export $(grep … .env | xargs)` exports what a file names: a command's output, let through.)
 */
const COMPUTED_VARIABLE_SET: readonly RegExp[] = [
  /(?:^|[\s;&|(`/"'])(env)(?:\s+-[-\w]+)*\s+["']?\$[^\s=]*=/,
  new RegExp(String.raw`(?:^|[\s;&|(\`"'])(export|declare|typeset|readonly|local)(?:\s+-[-\w]+)*\s+${EXPANSION}`),
  new RegExp(String.raw`${AT_COMMAND}(printf)\s+(?:-[^\sv]\S*\s+)*-v\s*${EXPANSION}`),
  new RegExp(String.raw`${AT_COMMAND}(read)\s${WORDS}(?<=\s)${EXPANSION}`),
  new RegExp(String.raw`${AT_COMMAND}(declare|typeset|local)\s+(?:-\w+\s+)*-\w*n\w*\s${WORDS}=${EXPANSION}`),
  new RegExp(String.raw`${AT_COMMAND}(eval)\s${WORDS}\$\{?\w+\}?["']?=`),
];
/** VS Code commands an agent may run through `run_vscode_command`: Alfred's read-only ones. */
const READ_ONLY_VSCODE_COMMANDS = new Set(['alfred.showBudget', 'alfred.showRoles', 'alfred.openDashboard', 'alfred.openEventLog']);
const VSCODE_COMMAND_TOOLS = new Set(['run_vscode_command', 'runVscodeCommand', 'copilot_runVscodeCommand']);

/**
 * What each family of patterns cannot match without, tested first: V8 compiles a regular expression
 * on its first uses, some 2 ms for those above in a hook call without a server, and almost no command
 * names Alfred or expands a variable. Each is exactly what its patterns spell literally (the same
 * case rule), so it only skips patterns that could not match.
 */
const NAMES_ALFRED = /alfred/i;
const namesOwnVariable = (line: string): boolean => line.includes('ALFRED_') || line.includes('LEAN_CTX_');

/** What the command would change, when a shell command runs Alfred's mutating command line. */
export function alfredMutationIn(command: string): string | undefined {
  const joined = joinedWords(command);
  for (const line of joined === command ? [command] : [command, joined]) {
    const m = NAMES_ALFRED.test(line) ? MUTATING_CLI.exec(line) : null;
    if (m) return m[1] ? 'alfred role NAME (a role switch)' : `alfred ${(m[2] as string).toLowerCase()}`;
    if (!namesOwnVariable(line)) continue;
    const set = OWN_VARIABLE_SET.exec(line) ?? firstMatch(OWN_VARIABLE_ASSIGNED, line);
    if (set) return `a command that sets ${set[1]}, one of Alfred's own variables, for what it starts`;
    const unset = OWN_VARIABLE_UNSET.exec(line);
    if (unset) return `a command that unsets ${unset[1]}, one of Alfred's own variables, for what it starts`;
  }
  const computed = command.includes('$') ? firstMatch(COMPUTED_VARIABLE_SET, command) : undefined;
  return computed ? `${computed[1] === 'printf' ? 'printf -v' : computed[1]} with a variable whose name the command computes (it may be one of Alfred's own)` : undefined;
}

/** The match that starts first in the line, so the reason names what the line does first. */
function firstMatch(patterns: readonly RegExp[], line: string): RegExpExecArray | undefined {
  let first: RegExpExecArray | undefined;
  for (const pattern of patterns) {
    const m = pattern.exec(line);
    if (m && (!first || m.index < first.index)) first = m;
  }
  return first;
}

/**
 * The line with the quotes and backslashes that only join a word taken out (`al''fred` → `alfred`,
 * `ALF\RED_ROLE` → `ALFRED_ROLE`, `"al"fred` → `alfred`, bash's `$'read'` → `read`): a quote touching a
 * word character on either side (with the `$` of `$'…'` or `$"…"` before it), an empty pair, a
 * backslash before a word character.
 */
function joinedWords(command: string): string {
  return command.replace(/\$?''|\$?""|\\(?=\w)|(?<=\w)["']|\$?["'](?=\w)/g, '');
}

/** An Alfred VS Code command (other than the read-only ones) that a tool call would run. */
export function alfredVscodeCommandIn(tool: string, input: unknown): string | undefined {
  if (!VSCODE_COMMAND_TOOLS.has(tool) || input === null || typeof input !== 'object') return undefined;
  const id = (input as Record<string, unknown>).commandId ?? (input as Record<string, unknown>).command;
  if (typeof id !== 'string') return undefined;
  return id.trim().toLowerCase().startsWith('alfred.') && !READ_ONLY_VSCODE_COMMANDS.has(id.trim()) ? id.trim() : undefined;
}
