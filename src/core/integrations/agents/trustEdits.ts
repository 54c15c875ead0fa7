/**
 * The trust entries an agent needs before it runs a project's hooks, added to the agent's own user
 * file (the user confirms the diff: these files are the user's). Each returns the new text, or
 * undefined when the file cannot be edited safely (the user then follows the step by hand).
 */
import { applyEdits, modify, parse as parseJsonc, type FormattingOptions } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';

const FORMAT: FormattingOptions = { insertSpaces: true, tabSize: 2, eol: '\n' };

const tomlString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

function codexTrustOf(text: string, project: string): unknown {
  try {
    const projects = (parseToml(text) as { projects?: Record<string, { trust_level?: unknown }> }).projects;
    return projects?.[project]?.trust_level;
  } catch {
    return undefined;
  }
}

/** `$CODEX_HOME/config.toml` with `[projects."<project>"] trust_level = "trusted"`. */
export function withCodexProjectTrust(text: string | undefined, project: string): string | undefined {
  const current = text ?? '';
  if (codexTrustOf(current, project) === 'trusted') return current;
  const header = `[projects.${tomlString(project)}]`;
  const lines = current.split('\n');
  const at = lines.findIndex((l) => l.trim() === header);
  let next: string;
  if (at < 0) {
    next = `${current}${current === '' || current.endsWith('\n') ? '' : '\n'}${current === '' ? '' : '\n'}${header}\ntrust_level = "trusted"\n`;
  } else {
    const end = lines.findIndex((l, i) => i > at && l.trim().startsWith('['));
    const table = lines.slice(at + 1, end < 0 ? lines.length : end);
    const level = table.findIndex((l) => /^\s*trust_level\s*=/.test(l));
    if (level >= 0) table[level] = 'trust_level = "trusted"';
    else table.unshift('trust_level = "trusted"');
    next = [...lines.slice(0, at + 1), ...table, ...(end < 0 ? [] : lines.slice(end))].join('\n');
  }
  return codexTrustOf(next, project) === 'trusted' ? next : undefined;
}

function jsonObject(text: string | undefined): Record<string, unknown> | undefined {
  const errors: unknown[] = [];
  const data = parseJsonc(text && text.trim() ? text : '{}', errors as never[], { allowTrailingComma: true }) as unknown;
  return errors.length === 0 && data !== null && typeof data === 'object' && !Array.isArray(data) ? data as Record<string, unknown> : undefined;
}

/** The Copilot CLI's `config.json` with `folder` in `trusted_folders`. */
export function withCopilotCliTrust(text: string | undefined, folder: string): string | undefined {
  const data = jsonObject(text);
  if (!data) return undefined;
  const list = data.trusted_folders === undefined ? [] : data.trusted_folders;
  if (!Array.isArray(list)) return undefined;
  if (list.includes(folder)) return text;
  const base = text && text.trim() ? text : '{}\n';
  const out = applyEdits(base, modify(base, ['trusted_folders'], [...list, folder], { formattingOptions: FORMAT }));
  return out.endsWith('\n') ? out : `${out}\n`;
}

/** Gemini CLI's `trustedFolders.json` with `folder` as TRUST_FOLDER. */
export function withGeminiTrust(text: string | undefined, folder: string): string | undefined {
  const data = jsonObject(text);
  if (!data) return undefined;
  if (data[folder] === 'TRUST_FOLDER') return text;
  const base = text && text.trim() ? text : '{}\n';
  const out = applyEdits(base, modify(base, [folder], 'TRUST_FOLDER', { formattingOptions: FORMAT }));
  return out.endsWith('\n') ? out : `${out}\n`;
}
