/**
 * The written form of a role's `[tools] ask` entries that name a command (`@exec:<command glob>`),
 * checked when the role file is read; rules/policy/askPatterns.ts matches them against calls.
 */
export const EXEC_PREFIX = '@exec:';

/** A command line as an ask entry reads it: spaces folded, leading and trailing ones dropped. */
export const foldCommand = (command: string): string => command.replace(/\s+/g, ' ').trim();

/** Why an `ask` entry can never match, or undefined (the tool-name forms are checked as `allowed` ones are). */
export function execPatternProblem(entry: string): string | undefined {
  return entry.startsWith(EXEC_PREFIX) && foldCommand(entry.slice(EXEC_PREFIX.length)) === '' ? `"${entry}" names no command; write @exec:COMMAND, e.g. @exec:git push*` : undefined;
}
