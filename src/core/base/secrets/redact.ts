/**
 * Secret redaction for traces (ARCHITECTURE.md: secrets never go in). The text rules (secret-named keys,
 * bearer tokens, provider token shapes, private keys) are base/config/redact.ts's, shared with the diff
 * view; traces add what they need on top: values under secret-named keys of structured tool input,
 * credentials in URLs, JWTs, and the values of the workspace's `.env` files wherever they appear.
 * Best effort: a redactor cannot know every secret, so traces also keep tool inputs short.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isEnvFile, MASK, redactSecrets } from '../config/redact';

export { MASK };

/** An object key whose value is a secret: `password`, `apiKey`, `GITHUB_TOKEN`, not `maxTokens`. */
const SECRET_KEY = /(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|auth(?:orization)?|credentials?|private[_-]?key|access[_-]?key|cookie|session[_-]?key)$/i;
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+):[^\s@/]+@/gi;
const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
/** Levels of a structured value a trace keeps. */
const MAX_REDACT_DEPTH = 64;
/** `.env` values shorter than this are too common to mask everywhere (`true`, `3000`, `dev`). */
const MIN_ENV_VALUE = 6;

export interface Redactor {
  text(s: string): string;
  /** A deep copy of `v` with secret values masked. */
  value(v: unknown): unknown;
}

export function createRedactor(literalSecrets: readonly string[] = []): Redactor {
  // Longest first, so a value containing another is masked whole.
  const literals = [...new Set(literalSecrets.filter((s) => s.length >= MIN_ENV_VALUE))].sort((a, b) => b.length - a.length);
  const text = (input: string): string => {
    let s = input;
    for (const lit of literals) s = s.split(lit).join(MASK);
    s = redactSecrets(s);
    s = s.replace(URL_CREDENTIALS, (_m, who: string) => `${who}:${MASK}@`);
    return s.replace(JWT, MASK);
  };
  // Bounded: the gate refuses deeper inputs, and a trace never needs more than their first levels.
  const value = (v: unknown, key?: string, depth = 0): unknown => {
    if (key !== undefined && SECRET_KEY.test(key) && (typeof v === 'string' || typeof v === 'number') && v !== '') return MASK;
    if (typeof v === 'string') return text(v);
    if (v !== null && typeof v === 'object' && depth >= MAX_REDACT_DEPTH) return '[nested too deep]';
    if (Array.isArray(v)) return v.map((x) => value(x, undefined, depth + 1));
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, value(x, k, depth + 1)]));
    return v;
  };
  return { text, value: (v) => value(v) };
}

/** Values of `KEY=value` lines in a `.env` file's text (quotes removed, comments skipped). */
export function envFileValues(text: string): string[] {
  const values: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_.-]*\s*[=:]\s*(.*)$/.exec(raw);
    if (!m) continue;
    let v = (m[1] as string).trim();
    if ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'"))) v = v.slice(1, -1);
    else v = v.replace(/\s+#.*$/, '');
    if (v !== '') values.push(v);
  }
  return values;
}

/** The `.env*` files at the workspace's top: their values are secrets wherever they show up. */
export function workspaceEnvSecrets(workspaceFolder: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(workspaceFolder).filter((n) => isEnvFile(n) && !/\.(example|sample|template)$/i.test(n));
  } catch {
    return [];
  }
  const values: string[] = [];
  for (const n of names) {
    try {
      values.push(...envFileValues(fs.readFileSync(path.join(workspaceFolder, n), 'utf8')));
    } catch {
      // a folder named .env, or unreadable: nothing to learn from it
    }
  }
  return values;
}

const PATH_KEYS = ['path', 'filePath', 'file_path'];

/**
 * A tool's arguments, redacted; for a call on a `.env*` file every text argument but the path is
 * masked whole, since any line of it may be a secret.
 */
export function redactToolInput(redactor: Redactor, input: unknown): unknown {
  const value = redactor.value(input);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const args = value as Record<string, unknown>;
  const target = PATH_KEYS.map((k) => args[k]).find((p): p is string => typeof p === 'string');
  if (!target || !isEnvFile(target)) return value;
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, typeof v === 'string' && !PATH_KEYS.includes(k) ? MASK : v]));
}
