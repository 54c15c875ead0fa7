/**
 * The settings edit that adds a provider to `alfred.providers` (comments and other settings kept),
 * for the write pipeline's diff and confirmation. Only references are written: a provider without a
 * key gets none, never a literal.
 */
import { applyEdits, modify, parse as parseJsonc, type FormattingOptions } from 'jsonc-parser';
import type { ProviderConfig } from './types';

const SETTING = 'alfred.providers';
const FORMAT: FormattingOptions = { tabSize: 4, insertSpaces: true, eol: '\n' };

/** The entry as a person would write it in settings.json. */
export function providerEntry(p: ProviderConfig): Record<string, unknown> {
  const key = p.key.kind === 'env' ? `$${p.key.variable}` : p.key.kind === 'secret' ? `secret:${p.key.name}` : undefined;
  return { name: p.name, protocol: p.protocol, baseUrl: p.baseUrl, ...(key ? { key } : {}), models: p.models === 'list' ? 'list' : p.models };
}

export function withProviderAdded(text: string | undefined, provider: ProviderConfig): string {
  const base = text && text.trim() ? text : '{}\n';
  const current = (parseJsonc(base) as Record<string, unknown> | undefined)?.[SETTING];
  const entry = providerEntry(provider);
  const edits = Array.isArray(current)
    ? modify(base, [SETTING, current.length], entry, { formattingOptions: FORMAT, isArrayInsertion: true })
    : modify(base, [SETTING], [entry], { formattingOptions: FORMAT });
  return applyEdits(base, edits);
}
