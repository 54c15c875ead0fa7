/**
 * Tool-name patterns of a role's `allowed` / `denied` lists: exact names, globs (`*`, `?`, `[...]`,
 * `{a,b}`), `@category` and `@mcp:<server>`. Compiled once per list (the gate runs on every tool call).
 */
import picomatch from 'picomatch';
import { baseToolName, categoryOf } from './categories';
import { isServerPattern, serverMatches, serverOfPattern, serverReadings } from './mcpServer';
import { TOOL_CATEGORIES, type ToolCategory } from './types';

/** A tool as the matcher sees it; build it once per call with `toolSubject`. */
export interface ToolSubject {
  name: string;
  /** The name after the last `/`, equal to `name` when it is not qualified. */
  base: string;
  category: ToolCategory;
  /** The call's input (rules/policy/toolCall.ts): Claude Code's MCP resource tools name their server there. */
  input?: unknown;
}

/**
 * How `@mcp:<server>` reads a tool name with several possible servers (rules/vocabulary/mcpServer.ts): a
 * `deny` list matches any reading, an `allow` list only a name whose known readings are all that server.
 */
export type ListMode = 'allow' | 'deny';

export interface MatchContext {
  /** The servers the latest MCP audit lists, normalised: they settle ambiguous tool names. */
  knownServers?: ReadonlySet<string>;
}

export interface PatternMatcher {
  /** The first pattern (in list order) that matches the tool, or undefined. */
  match(tool: ToolSubject | string, context?: MatchContext): string | undefined;
}

// Tool names have no path semantics: `*` must cross `/` (`execute/*`), so `/` is swapped for a
// character picomatch treats as ordinary, in both pattern and name.
const SLASH_STANDIN = '\u0001';
const GLOB_CHARS = /[*?[\]{}()!+@]/;
const PICO_OPTIONS: picomatch.PicomatchOptions = { dot: true, windows: false, nonegate: true, nocase: false };

export function toolSubject(name: string): ToolSubject {
  return { name, base: baseToolName(name), category: categoryOf(name) };
}

export function isCategoryPattern(pattern: string): boolean {
  return pattern.startsWith('@') && (TOOL_CATEGORIES as readonly string[]).includes(pattern.slice(1).toLowerCase());
}

/** Why a pattern can never match, or undefined when it is fine (for role loading to report). */
export function patternProblem(pattern: string): string | undefined {
  if (pattern.trim() === '') return 'an empty pattern matches no tool';
  if (pattern.toLowerCase().startsWith('@mcp:') && !isServerPattern(pattern)) {
    return `${JSON.stringify(pattern)} names no MCP server; write @mcp:SERVER, e.g. @mcp:github`;
  }
  if (pattern.startsWith('@') && !isCategoryPattern(pattern) && !isServerPattern(pattern)) {
    return `unknown category ${pattern}; use one of ${TOOL_CATEGORIES.map((c) => '@' + c).join(', ')}, or @mcp:SERVER`;
  }
  return undefined;
}

interface Entry {
  pattern: string;
  test(subject: ToolSubject, slashed: string, baseSlashed: string, context: MatchContext | undefined): boolean;
}

/** A category, server or glob pattern; plain names go to the exact-name map instead. */
function compileEntry(pattern: string, mode: ListMode): Entry {
  const server = serverOfPattern(pattern);
  if (server !== undefined) {
    return {
      pattern,
      test: (s, _slashed, _base, context) => s.category === 'mcp' && serverMatches(server, serverReadings(s.name, s.input), mode, context?.knownServers),
    };
  }
  if (isCategoryPattern(pattern)) {
    const category = pattern.slice(1).toLowerCase();
    return { pattern, test: (s) => s.category === category };
  }
  // Globs are tried on the full name and on the unqualified one, like plain names.
  const re = picomatch.makeRe(pattern.split('/').join(SLASH_STANDIN), PICO_OPTIONS);
  return { pattern, test: (_s, slashed, baseSlashed) => re.test(slashed) || re.test(baseSlashed) };
}

class CompiledPatterns implements PatternMatcher {
  private readonly exact = new Map<string, string>();
  private readonly entries: Entry[] = [];
  /** Position of each pattern, so the first one in list order is reported. */
  private readonly order = new Map<string, number>();

  constructor(patterns: readonly string[], private readonly mode: ListMode) {
    patterns.forEach((pattern, index) => {
      if (this.order.has(pattern)) return;
      this.order.set(pattern, index);
      if (patternProblem(pattern)) return;
      // A plain name also matches the qualified form (`runInTerminal` ~ `execute/runInTerminal`).
      if (!isCategoryPattern(pattern) && !GLOB_CHARS.test(pattern)) this.exact.set(pattern, pattern);
      else this.entries.push(compileEntry(pattern, this.mode));
    });
  }

  match(tool: ToolSubject | string, context?: MatchContext): string | undefined {
    const subject = typeof tool === 'string' ? toolSubject(tool) : tool;
    const best = this.exact.get(subject.name) ?? this.exact.get(subject.base);
    if (this.entries.length === 0) return best;
    const slashed = subject.name.includes('/') ? subject.name.split('/').join(SLASH_STANDIN) : subject.name;
    const bestIndex = best === undefined ? Infinity : (this.order.get(best) ?? Infinity);
    for (const entry of this.entries) {
      if ((this.order.get(entry.pattern) ?? Infinity) > bestIndex) break;
      if (entry.test(subject, slashed, subject.base, context)) return entry.pattern;
    }
    return best;
  }
}

const caches: Record<ListMode, WeakMap<readonly string[], PatternMatcher>> = { allow: new WeakMap(), deny: new WeakMap() };

/**
 * The matcher for a pattern list, compiled on first use and cached for that array. `mode` is the
 * list's use: `allow` for a role's `allowed`, `deny` (any reading of an MCP tool's name) otherwise.
 */
export function compilePatterns(patterns: readonly string[], mode: ListMode = 'deny'): PatternMatcher {
  const cache = caches[mode];
  let matcher = cache.get(patterns);
  if (!matcher) {
    matcher = new CompiledPatterns(patterns, mode);
    cache.set(patterns, matcher);
  }
  return matcher;
}
