/**
 * Hides secrets in text that is shown to people (diffs, the diff editor): values of keys that name a
 * secret, bearer tokens, well-known API key shapes, private key blocks, and every value of a
 * `.env`-style file. Works line by line and never adds or removes a line, so a redacted text can be
 * lined up with the original (the diff shows a changed secret as a changed `***` line).
 */

export const MASK = '***';

/** A key that names a secret: the secret word ends the key (`GITHUB_TOKEN`, `apiKey`, not `max_tokens`). */
const SECRET_KEY = String.raw`[A-Za-z0-9_.-]*?(?:api[_-]?key|access[_-]?key|secret(?:[_-]?key)?|token|passw(?:or)?d|passphrase|pwd|credentials?|private[_-]?key|authorization|auth)`;
/** `key = value`, `key: value`, `"key": "value"`, with the key optionally quoted. */
const KEY_VALUE = new RegExp(
  String.raw`(^|[\s{,;(])(["']?)(${SECRET_KEY})\2(\s*[:=]\s*)("(?:[^"\\]|\\.)*"|'[^']*'|[^\s,;#}\]]+)`,
  'gi',
);
const TOKEN_SHAPES: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{16,}/g, // OpenAI, Anthropic (sk-ant-…)
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, // Slack
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key id
  /\bAIza[0-9A-Za-z_-]{30,}/g, // Google API key
];
const BEARER = /\b(Bearer|Basic|Token)(\s+)[A-Za-z0-9._~+/=-]{8,}/gi;
const ENV_LINE = /^(\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_.-]*\s*=\s*)(.+?)(\s*)$/;
const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/;
const PEM_END = /-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----/;

export interface RedactOptions {
  /** Hide every `NAME=value` value (a `.env` file, or a file the caller marked as holding secrets). */
  allValues?: boolean;
}

/** `.env`, `.env.local`, `prod.env`, …: files whose every value is treated as a secret. */
export function isEnvFile(file: string): boolean {
  const base = file.split(/[\\/]/).pop() ?? file;
  return /^\.env(\..+)?$/i.test(base) || /\.env$/i.test(base);
}

/** The lines of `text` with secrets replaced by `***`; same number of lines, in the same order. */
export function redactLines(lines: readonly string[], opts: RedactOptions = {}): string[] {
  let inKey = false;
  return lines.map((line) => {
    if (inKey) {
      if (PEM_END.test(line)) inKey = false;
      else return line.trim() === '' ? line : MASK;
      return line;
    }
    if (PEM_BEGIN.test(line)) {
      inKey = !PEM_END.test(line);
      // A key on one line (JSON's "\n" escapes) keeps only its markers; a block keeps its BEGIN line.
      return inKey ? line : line.replace(/(-----BEGIN [^-]+-----)[\s\S]*?(-----END [^-]+-----)/, (_, b: string, e: string) => `${b}${MASK}${e}`);
    }
    return redactLine(line, opts);
  });
}

/** `text` with secrets replaced by `***` (line structure kept). */
export function redactSecrets(text: string, opts: RedactOptions = {}): string {
  return redactLines(text.split('\n'), opts).join('\n');
}

function redactLine(line: string, opts: RedactOptions): string {
  let out = line;
  if (opts.allValues) {
    const m = ENV_LINE.exec(out);
    if (m && !/^\s*#/.test(out)) out = `${m[1]}${quoteLike(m[2]!)}${m[3]}`;
  }
  out = out.replace(KEY_VALUE, (_all, lead: string, q: string, key: string, sep: string, value: string) =>
    `${lead}${q}${key}${q}${sep}${value === MASK ? value : quoteLike(value)}`);
  out = out.replace(BEARER, (_all, scheme: string, space: string) => `${scheme}${space}${MASK}`);
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, MASK);
  return out;
}

/** `***`, keeping the value's quotes so the line still reads as the same syntax. */
function quoteLike(value: string): string {
  const q = value[0];
  if ((q === '"' || q === "'") && value.length >= 2 && value.endsWith(q)) return `${q}${MASK}${q}`;
  return MASK;
}
