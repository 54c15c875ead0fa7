/**
 * Tool-name patterns of a role's `allowed` / `denied` lists: exact names, globs (`*`, `?`, `[...]`,
 * `{a,b}`) and `@category`. Compiled once per list (the gate runs on every tool call).
 */
import picomatch from 'picomatch';
import { baseToolName, categoryOf } from './categories';
import { TOOL_CATEGORIES, type ToolCategory } from './types';

/** A tool as the matcher sees it; build it once per call with `toolSubject`. */
export interface ToolSubject {
  name: string;
  /** The name after the last `/`, equal to `name` when it is not qualified. */
  base: string;
  category: ToolCategory;
}

export interface PatternMatcher {
  /** The first pattern (in list order) that matches the tool, or undefined. */
  match(tool: ToolSubject | string): string | undefined;
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
  if (pattern.startsWith('@') && !isCategoryPattern(pattern)) {
    return `unknown category ${pattern}; use one of ${TOOL_CATEGORIES.map((c) => '@' + c).join(', ')}`;
  }
  return undefined;
}

interface Entry {
  pattern: string;
  test(subject: ToolSubject, slashed: string, baseSlashed: string): boolean;
}

/** A category or glob pattern; plain names go to the exact-name map instead. */
function compileEntry(pattern: string): Entry {
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

  constructor(patterns: readonly string[]) {
    patterns.forEach((pattern, index) => {
      if (this.order.has(pattern)) return;
      this.order.set(pattern, index);
      if (patternProblem(pattern)) return;
      // A plain name also matches the qualified form (`runInTerminal` ~ `execute/runInTerminal`).
      if (!isCategoryPattern(pattern) && !GLOB_CHARS.test(pattern)) this.exact.set(pattern, pattern);
      else this.entries.push(compileEntry(pattern));
    });
  }

  match(tool: ToolSubject | string): string | undefined {
    const subject = typeof tool === 'string' ? toolSubject(tool) : tool;
    const best = this.exact.get(subject.name) ?? this.exact.get(subject.base);
    if (this.entries.length === 0) return best;
    const slashed = subject.name.includes('/') ? subject.name.split('/').join(SLASH_STANDIN) : subject.name;
    const bestIndex = best === undefined ? Infinity : (this.order.get(best) ?? Infinity);
    for (const entry of this.entries) {
      if ((this.order.get(entry.pattern) ?? Infinity) > bestIndex) break;
      if (entry.test(subject, slashed, subject.base)) return entry.pattern;
    }
    return best;
  }
}

const cache = new WeakMap<readonly string[], PatternMatcher>();

/** The matcher for a pattern list, compiled on first use and cached for that array. */
export function compilePatterns(patterns: readonly string[]): PatternMatcher {
  let matcher = cache.get(patterns);
  if (!matcher) {
    matcher = new CompiledPatterns(patterns);
    cache.set(patterns, matcher);
  }
  return matcher;
}
