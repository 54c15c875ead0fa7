/**
 * Which tools `@alfred` offers the model: every offered tool's name and schema is sent with each
 * request, so a long list costs input tokens on every request of a priced model (73 tools made a
 * "hello" cost thousands). Alfred's own tools are offered by default (the role permitting); another
 * tool only when the user chose it: the `alfred.chatTools` setting and `/tools add`, as names, globs
 * (`mcp_github_*`) or categories (`@web`); `*` offers every tool the role permits.
 */
import { compilePatterns, toolSubject } from '../rules/vocabulary/patterns';

/** Whether a tool the role permits is offered: Alfred's always, another when a chosen pattern names it. */
export function offersTool(name: string, isAlfredTool: boolean, chosen: readonly string[]): boolean {
  if (isAlfredTool) return true;
  if (chosen.length === 0) return false;
  return compilePatterns(chosen, 'allow').match(toolSubject(name)) !== undefined;
}

/** The setting's patterns and the chat's own (`/tools add`), each once, blanks dropped. */
export function chosenToolPatterns(setting: readonly unknown[] | undefined, chat: readonly string[] | undefined): string[] {
  const all = [...(setting ?? []), ...(chat ?? [])].filter((p): p is string => typeof p === 'string' && p.trim() !== '').map((p) => p.trim());
  return [...new Set(all)];
}
