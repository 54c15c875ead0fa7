/**
 * The `compress` shell policy: long output costs context tokens, so keep what a model reads first
 * and last (commands print errors and summaries at the ends), fold repeats, and say what was cut.
 */

export interface CompressOptions {
  /** Lines kept from the start (default 40). */
  headLines?: number;
  /** Lines kept from the end (default 40). */
  tailLines?: number;
  /** Longer lines are shortened in the middle (default 500 characters). */
  maxLineChars?: number;
}

interface Line {
  text: string;
  /** How many identical consecutive lines this one stands for. */
  count: number;
}

const encoder = new TextEncoder();

function bytes(text: string): number {
  return encoder.encode(text).length;
}

export function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

function exitLine(exitCode: number | null | undefined): string {
  return `exit code: ${typeof exitCode === 'number' ? exitCode : 'unknown'}`;
}

function fold(lines: readonly string[]): Line[] {
  const out: Line[] = [];
  for (const text of lines) {
    const last = out[out.length - 1];
    if (last && last.text === text) last.count++;
    else out.push({ text, count: 1 });
  }
  return out;
}

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.floor(max / 2);
  return `${text.slice(0, keep)} … ${text.length - 2 * keep} chars cut … ${text.slice(text.length - keep)}`;
}

function render(line: Line, maxChars: number): string {
  const text = shorten(line.text, maxChars);
  return line.count > 1 ? `${text} (repeated ${line.count} times)` : text;
}

/**
 * Shortened output with a final `exit code: N` line. Output that fits in head + tail lines (and
 * has no overlong line) comes back unchanged.
 */
export function compressShellOutput(text: string, exitCode: number | null | undefined, opts: CompressOptions = {}): string {
  const head = Math.max(0, opts.headLines ?? 40);
  const tail = Math.max(0, opts.tailLines ?? 40);
  const maxChars = Math.max(20, opts.maxLineChars ?? 500);
  const body = text.replace(/\r\n/g, '\n').replace(/\n$/, '');
  const lines = body === '' ? [] : body.split('\n');

  if (lines.length <= head + tail && lines.every((l) => l.length <= maxChars)) {
    return body === '' ? exitLine(exitCode) : `${body}\n${exitLine(exitCode)}`;
  }

  const folded = fold(lines);
  const out: string[] = [];
  if (folded.length <= head + tail) {
    for (const line of folded) out.push(render(line, maxChars));
  } else {
    const cut = folded.slice(head, folded.length - tail);
    const cutLines = cut.reduce((n, l) => n + l.count, 0);
    const cutBytes = cut.reduce((n, l) => n + l.count * (bytes(l.text) + 1), 0);
    for (const line of folded.slice(0, head)) out.push(render(line, maxChars));
    out.push(`… ${cutLines} lines (${formatSize(cutBytes)}) cut …`);
    for (const line of folded.slice(folded.length - tail)) out.push(render(line, maxChars));
  }
  out.push(exitLine(exitCode));
  return out.join('\n');
}
