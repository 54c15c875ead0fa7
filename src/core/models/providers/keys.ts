/**
 * Provider keys by reference only: `$VAR` / `${VAR}` (the environment, read when the request is made)
 * or `secret:NAME` (VS Code's SecretStorage). A settings file may be written by a careless hand or an
 * agent, so anything else is refused, and no message ever repeats the value it refused or resolved.
 */
import { MASK } from '../../base/config/redact';
import type { KeyReference, ProviderConfig } from './types';

/** The palette command that keeps a key in VS Code's secret storage (its title, as people see it). */
export const SET_KEY_COMMAND = 'Alfred: Set Provider Key';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const SECRET_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
/** What an HTTP header may carry: visible ASCII, no spaces (a CR/LF would inject a header). */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/** How to store a key instead of writing it; no part of the refused value is ever in it. */
export const HOW_TO_STORE_KEY =
  `store the key in an environment variable and write "$NAME" (or "\${NAME}"), or run "${SET_KEY_COMMAND}" to keep it in VS Code's secret storage and write "secret:NAME"`;

export type ParsedKey = { ok: true; ref: KeyReference } | { ok: false; reason: string };

/** Reads a `key` field: absent is no key; `$VAR`, `${VAR}`, `secret:NAME`; anything else is refused. */
export function parseKeyReference(text: unknown): ParsedKey {
  if (text === undefined || text === null) return { ok: true, ref: { kind: 'none' } };
  if (typeof text !== 'string') return { ok: false, reason: `must be a key reference (a string), not a literal key: ${HOW_TO_STORE_KEY}` };
  const t = text.trim();
  if (t === '') return { ok: false, reason: `is empty: leave "key" out for an endpoint that needs none, or ${HOW_TO_STORE_KEY}` };
  if (t.startsWith('!')) return { ok: false, reason: `starts with "!": Alfred never runs a command to get a key; ${HOW_TO_STORE_KEY}` };
  if (t.startsWith('$')) {
    const name = t.startsWith('${') && t.endsWith('}') ? t.slice(2, -1) : t.slice(1);
    if (ENV_NAME.test(name)) return { ok: true, ref: { kind: 'env', variable: name } };
    // `$(cmd)`, `${VAR:-default}`: no shell expansion, ever.
    return { ok: false, reason: 'is not a key reference: write "$NAME" or "${NAME}", NAME made of letters, digits and _ (no commands, no defaults)' };
  }
  if (t.startsWith('secret:')) {
    const name = t.slice('secret:'.length).trim();
    if (SECRET_NAME.test(name)) return { ok: true, ref: { kind: 'secret', name } };
    return { ok: false, reason: `"secret:" needs a name of 1 to 64 letters, digits, _, . or -, the name given to "${SET_KEY_COMMAND}"` };
  }
  return { ok: false, reason: `looks like a literal key, which a settings file must not hold: ${HOW_TO_STORE_KEY}` };
}

/** Where keys come from, passed in so the core never reads process.env or VS Code itself. */
export interface KeySources {
  /** The environment at request time (`process.env`). */
  env: Readonly<Record<string, string | undefined>>;
  /** A key from VS Code's SecretStorage, by name. */
  secret: (name: string) => Promise<string | undefined>;
}

export type ResolvedKey = { ok: true; key: string } | { ok: false; reason: string };

/**
 * The key itself, for one request; `none` resolves to `''` (send no key). Any variable resolves,
 * whatever its name (`${HOME}` gives HOME's value): which variable holds a key is the user's call,
 * and a settings change that points a key at another variable goes through the write pipeline.
 */
export async function resolveKey(ref: KeyReference, sources: KeySources): Promise<ResolvedKey> {
  if (ref.kind === 'none') return { ok: true, key: '' };
  const where = ref.kind === 'env' ? `the environment variable ${ref.variable}` : `the secret "${ref.name}" in VS Code's secret storage`;
  let value: string | undefined;
  if (ref.kind === 'env') {
    value = Object.hasOwn(sources.env, ref.variable) ? sources.env[ref.variable] : undefined;
    if (value === undefined) return { ok: false, reason: `${where} is not set` };
  } else {
    try {
      value = await sources.secret(ref.name);
    } catch {
      return { ok: false, reason: `${where} could not be read` };
    }
    if (value === undefined) return { ok: false, reason: `${where} is not set: run "${SET_KEY_COMMAND}"` };
  }
  const key = value.trim(); // a key pasted or read from a file often ends with a newline
  if (key === '') return { ok: false, reason: `${where} is empty` };
  if (!HEADER_SAFE.test(key)) return { ok: false, reason: `${where} is not usable as a key: it holds spaces, control or non-ASCII characters` };
  return { ok: true, key };
}

/**
 * The resolved keys of these providers, to scrub from anything Alfred writes. Read with the same
 * sources as the requests, so a rotated key is scrubbed too when this is called again.
 */
export async function secretsOf(providers: readonly Pick<ProviderConfig, 'key'>[], sources: KeySources): Promise<string[]> {
  const resolved = await Promise.all(providers.map((p) => resolveKey(p.key, sources)));
  return [...new Set(resolved.flatMap((r) => (r.ok && r.key ? [r.key] : [])))];
}

/** Shorter values are placeholders (Ollama's "ollama"); masking them would mangle ordinary words. */
export const MIN_SECRET_LENGTH = 8;

/** `text` with every occurrence of each secret replaced by `***`: as is, JSON-escaped, URL-encoded and in base64. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  const usable = [...new Set(secrets.filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH))];
  const forms = new Set<string>();
  for (const s of usable) {
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
    for (const b of base64Cores(s)) forms.add(b);
  }
  // Longest first, so a secret holding another is masked whole.
  let out = text;
  for (const f of [...forms].sort((a, b) => b.length - a.length)) out = out.split(f).join(MASK);
  for (const s of usable) for (const re of percentEncodedForms(s)) out = out.replace(re, MASK);
  return out;
}

/** `s` as encodeURIComponent and as a form (`+` for a space) write it, hex digits in either case. */
function percentEncodedForms(s: string): RegExp[] {
  const encodings = new Set<string>([new URLSearchParams({ k: s }).toString().slice(2)]);
  try {
    encodings.add(encodeURIComponent(s));
  } catch {
    // a lone surrogate: URLSearchParams's form above still stands
  }
  encodings.delete(s);
  return [...encodings].map((e) => new RegExp(e.split(/(%[0-9A-F]{2})/).map((part) =>
    /^%[0-9A-F]{2}$/.test(part) ? `%(?:${part.slice(1)}|${part.slice(1).toLowerCase()})` : escapeRegExp(part)).join(''), 'g'));
}

/**
 * The base64 text of `secret` at each of the three byte alignments it can have inside a longer
 * base64'd text (a Basic auth header, a data URL), without the edge characters that also depend on
 * the neighbouring bytes; standard and URL-safe alphabets.
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const b64 = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const core = b64.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (core.length < MIN_SECRET_LENGTH) continue;
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
