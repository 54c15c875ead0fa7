/**
 * The lines Alfred writes to the event log, read without JSON.parse. `complete()` (ledger/ledgerStore.ts)
 * and `appendEvents` write every event through JSON.stringify as `{"id","ts","type","session","role",
 * "prev",...payload}` (`prev`: the hash chain, base/events/chain.ts; absent in lines written before it), and
 * every event that charges has its `charge` last. One regular expression checks
 * that a run of such lines is valid JSON, one object a line, each of that shape, all of one session
 * and none of the types that open a session or set a signal — V8 compiles it to machine code, which
 * does this several times faster than building the objects — and each line's final `charge` is then
 * read at its known place. A line of any other shape (another key order, escapes or non-ASCII or a
 * brace in a header value, whitespace, a key written with escapes, a `charge` that is not a flat
 * object at the end, a header key repeated, nesting deeper than MAX_DEPTH, a `\r` line break) ends
 * the run and is parsed in full by the caller: falling outside a run is always safe, and a line
 * inside one gives exactly the fields JSON.parse would.
 */

/** Brackets nest this deep at most, the event's own braces included (deeper lines are parsed in full). */
export const MAX_DEPTH = 4;

const CHAR = String.raw`[^"\\\x00-\x1f]`;
const STRING = String.raw`"${CHAR}*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})${CHAR}*)*"`;
const NUMBER = String.raw`-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?`;
const LITERAL = 'true|false|null';
/** A member or element is followed by `,` and another one, or by the closing bracket. */
const object = (value: string): string => String.raw`\{(?:${STRING}:(?:${value})(?:,(?=")|(?=\})))*\}`;
const array = (value: string): string => String.raw`\[(?:(?:${value})(?:,(?!\])|(?=\])))*\]`;

let VALUE = `${STRING}|${NUMBER}|${LITERAL}`;
for (let depth = 1; depth < MAX_DEPTH; depth++) VALUE = `${STRING}|${NUMBER}|${LITERAL}|${object(VALUE)}|${array(VALUE)}`;

/** A header value: printable ASCII without `"`, `\` or braces, so its text is its bytes. */
const HEADER = String.raw`[\x20\x21\x23-\x5b\x5d-\x7a\x7c\x7e\x7f]`;
/** Types that open a session or set a signal: their lines end a run. */
const TYPE = String.raw`(?!(?:BudgetReset|RoleChanged|BudgetWarning|BudgetExhausted)")${HEADER}+`;
/** A string in the charge: no escapes and no braces, so the charge's braces are its own. */
const FLAT = String.raw`"[^"\\\x00-\x1f{}]*"`;
const CHARGE = String.raw`\{(?:${FLAT}:(?:${NUMBER}|${LITERAL}|${FLAT})(?:,(?=")|(?=\})))*\}`;
/**
 * A line from its session value on. Payload keys have no escapes and are none of the header keys
 * nor `charge`, so the header and the final charge are the only ones (JSON.parse keeps the last).
 */
const REST = String.raw`","role":"${HEADER}*"(?:,"prev":"[0-9a-f]{64}")?(?:,(?!"(?:id|ts|type|session|role|prev|charge)")"${CHAR}*":(?:${VALUE}))*(?:,"charge":${CHARGE})?\}\n`;
const HEAD = String.raw`\{"id":"${HEADER}+","ts":"${HEADER}+","type":"${TYPE}","session":"`;
/** Lines in one run at most: the regular expression engine's stack grows with a run's length. */
export const MAX_RUN = 1000;
/** The first line captures its session; the next ones must repeat it (`\1`). */
const EVENT_RUN = new RegExp(String.raw`${HEAD}(${HEADER}*)${REST}(?:${HEAD}\1${REST}){0,${MAX_RUN - 1}}`, 'y');

/** A matched run: where it ends and its session (reused from run to run). */
export class EventRun {
  /** Just after the last line's `\n`. */
  end = 0;
  session = '';
}

/**
 * Matches the longest run of lines (MAX_RUN at most) from `start` (a line's start) in `text` — the
 * bytes as latin1, one character a byte — and fills `out`. False when the line at `start` is not
 * one of a run. Throws a RangeError when the lines are too large for the engine's stack (a line of
 * many megabytes): parse them in full then.
 */
export function matchRun(text: string, start: number, out: EventRun): boolean {
  EVENT_RUN.lastIndex = start;
  const m = EVENT_RUN.exec(text);
  if (m === null) return false;
  out.end = EVENT_RUN.lastIndex;
  out.session = m[1]!;
  return true;
}

/** A header value of the line at `start` in a run: `key` is `ts` or `role`. */
export function headerValue(text: string, start: number, key: 'ts' | 'role'): [number, number] {
  const from = text.indexOf(`"${key}":"`, start) + key.length + 4;
  return [from, text.indexOf('"', from)];
}

const QUOTE = 0x22;
const CLOSE = 0x7d;

/**
 * The charge of the line `text[start…end)` of a run (`end` at its `\n`): the `{` of its final
 * `charge` object, or -1. That object holds no other brace, so it has the line's last `{` and closes
 * just before the line does.
 */
export function chargeOf(text: string, start: number, end: number): number {
  if (text.charCodeAt(end - 2) !== CLOSE) return -1;
  const open = text.lastIndexOf('{', end - 2);
  return open > start && text.indexOf('}', open) === end - 2 && text.startsWith(',"charge":', open - 10) ? open : -1;
}

/** A charge's counts as JSON.parse would give them; undefined where a key is absent or not a number. */
export class ChargeCounts {
  tokens: number | undefined = undefined;
  shell: number | undefined = undefined;
  costUsd: number | undefined = undefined;
  estimated = false;
}

/** Exact powers of ten (10^22 is the last a double holds exactly). */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));
const MAX_EXACT = 2 ** 53;

/**
 * The JSON number `text[from…to)` as JSON.parse gives it. When its digits fit in 53 bits and its
 * scale in an exact power of ten, one correctly rounded operation (no string made); else `Number`,
 * which rounds a JSON number literal exactly as JSON.parse does.
 */
export function numberAt(text: string, from: number, to: number): number {
  let i = from;
  const negative = text.charCodeAt(i) === 0x2d;
  if (negative) i++;
  let mantissa = 0;
  let scale = 0; // the value is mantissa × 10^-scale
  let fraction = false;
  for (; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e) {
      fraction = true;
      continue;
    }
    if (c < 0x30 || c > 0x39) break;
    mantissa = mantissa * 10 + (c - 0x30);
    if (mantissa >= MAX_EXACT) return Number(text.slice(from, to)); // no longer surely exact
    if (fraction) scale++;
  }
  if (i < to) { // an exponent: e or E, a sign, digits
    i++;
    const negativeExp = text.charCodeAt(i) === 0x2d;
    if (negativeExp || text.charCodeAt(i) === 0x2b) i++;
    let exp = 0;
    for (; i < to && exp <= 1000; i++) exp = exp * 10 + (text.charCodeAt(i) - 0x30);
    scale += negativeExp ? exp : -exp;
  }
  let value: number;
  if (mantissa === 0) value = 0;
  else if (scale >= 0 && scale <= 22) value = mantissa / POW10[scale]!;
  else if (scale < 0 && scale >= -22) value = mantissa * POW10[-scale]!;
  else return Number(text.slice(from, to));
  return negative ? -value : value;
}

const keyIs = (text: string, from: number, to: number, key: string): boolean => to - from === key.length && text.startsWith(key, from);

/**
 * Reads the flat charge object `text[from…to)` of a matched line (its keys and strings hold no
 * escapes, its values are numbers, literals or strings) into `out`; a repeated key counts last.
 */
export function readCharge(text: string, from: number, to: number, out: ChargeCounts): void {
  out.tokens = out.shell = out.costUsd = undefined;
  out.estimated = false;
  let i = from + 1;
  while (i < to - 1) {
    const keyEnd = text.indexOf('"', i + 1);
    const valueStart = keyEnd + 2;
    const first = text.charCodeAt(valueStart);
    let valueEnd: number;
    if (first === QUOTE) valueEnd = text.indexOf('"', valueStart + 1) + 1;
    else {
      valueEnd = valueStart;
      while (valueEnd < to - 1 && text.charCodeAt(valueEnd) !== 0x2c) valueEnd++;
    }
    const isNumber = first === 0x2d || (first >= 0x30 && first <= 0x39);
    const value = isNumber ? numberAt(text, valueStart, valueEnd) : undefined;
    if (keyIs(text, i + 1, keyEnd, 'tokens')) out.tokens = value;
    else if (keyIs(text, i + 1, keyEnd, 'shell')) out.shell = value;
    else if (keyIs(text, i + 1, keyEnd, 'costUsd')) out.costUsd = value;
    else if (keyIs(text, i + 1, keyEnd, 'estimated')) out.estimated = keyIs(text, valueStart, valueEnd, 'true');
    i = valueEnd + 1; // past the comma
  }
}
