/**
 * A role's `[tools] ask` list: calls that run only with the user's yes. Each entry is a tool-name
 * pattern as in `allowed`/`denied` (a name, a glob such as `mcp_*_delete_*`, `@category`,
 * `@mcp:SERVER`), or `@exec:<command glob>` for a shell call whose command line matches (`*` any
 * text, `?` one character; spaces folded, leading and trailing ones dropped): `@exec:git push*`.
 * The yes is each agent's own confirmation where its hook can ask, the chat's in `@alfred`, and a
 * refusal with the reason where neither exists (integrations/hooks/output.ts, askAnswer). A command pattern reads
 * the line as written: it makes the user confirm what the agent says it runs, it does not stop a
 * command that hides its words (`sh -c "gi""t push"`); the sandbox and the deny rules do that.
 */
import { EXEC_PREFIX, foldCommand as fold } from '../roles/askEntries';
import { compilePatterns, type MatchContext, type ToolSubject } from '../vocabulary/patterns';

function execMatcher(glob: string): RegExp {
  const body = fold(glob).split('').map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`, 's');
}

/** The first `ask` entry the call matches, or undefined. */
export function askMatch(ask: readonly string[] | undefined, subject: ToolSubject & { command?: string }, context?: MatchContext): string | undefined {
  if (!ask?.length) return undefined;
  const execs = ask.filter((p) => p.startsWith(EXEC_PREFIX));
  const names = ask.filter((p) => !p.startsWith(EXEC_PREFIX));
  if (subject.category === 'shell' && typeof subject.command === 'string') {
    const line = fold(subject.command);
    const hit = execs.find((p) => execMatcher(p.slice(EXEC_PREFIX.length)).test(line));
    if (hit) return hit;
  }
  return names.length ? compilePatterns(names, 'deny').match(subject, context) : undefined;
}
