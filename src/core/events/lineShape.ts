/**
 * The lines Alfred writes to the event log, read without JSON.parse. `complete()` (state/ledger.ts)
 * and `appendEvents` write every event through JSON.stringify as `{"id","ts","type","session","role",
 * ...payload}`, and every event that charges has its `charge` last. One regular expression checks
 * that a line is exactly such an object and valid JSON — V8 compiles it to machine code, several
 * times faster than building the object — and the header values and a final `charge` are then read
 * at known places. A line of any other shape (another key order, escapes or non-ASCII in a header
 * value, whitespace, a key written with escapes, a `charge` that is not a flat object at the end, a
 * header key repeated, nesting deeper than MAX_DEPTH) does not match, and the caller parses it in
 * full: not matching is always safe, and a match means `JSON.parse` would give the same fields.
 */

/** Values may nest this deep inside the event object (deeper lines are parsed in full). */
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

/** A header value: printable ASCII without `"` or `\`, so its text is its bytes. */
const HEADER = String.raw`[\x20\x21\x23-\x5b\x5d-\x7f]`;
/** A string in the charge: no escapes and no braces, so the charge's braces are its own. */
const FLAT = String.raw`"[^"\\\x00-\x1f{}]*"`;
const CHARGE = String.raw`\{(?:${FLAT}:(?:${NUMBER}|${LITERAL}|${FLAT})(?:,(?=")|(?=\})))*\}`;

/**
 * The whole line. Payload keys have no escapes and are none of the header keys nor `charge`, so the
 * header and the final charge are the only ones (JSON.parse keeps the last of a repeated key).
 */
const EVENT_LINE = new RegExp(
  String.raw`\{"id":"${HEADER}+","ts":"${HEADER}+","type":"${HEADER}+","session":"${HEADER}*","role":"${HEADER}*"` +
  String.raw`(?:,(?!"(?:id|ts|type|session|role|charge)")"${CHAR}*":(?:${VALUE}))*` +
  String.raw`(?:,"charge":${CHARGE})?\}(?![^\r\n])`,
  'y',
);

/** Where a matched line's fields are (reused from line to line: no allocation per line). */
export class EventLine {
  typeStart = 0;
  typeEnd = 0;
  sessionStart = 0;
  sessionEnd = 0;
  roleStart = 0;
  roleEnd = 0;
  tsStart = 0;
  tsEnd = 0;
  /** The charge object's `{`, or -1 when the event has no charge. */
  chargeStart = -1;
  /** Just after the charge object's `}`. */
  chargeEnd = -1;
}

const QUOTE = 0x22;
const CLOSE = 0x7d;

/**
 * Matches the line `text[start…end)` — `text` holds the bytes as latin1, one character a byte, and
 * `end` is at a line break or the text's end — and fills `out`. False when the line has another shape.
 */
export function matchEventLine(text: string, start: number, end: number, out: EventLine): boolean {
  EVENT_LINE.lastIndex = start;
  if (!EVENT_LINE.test(text) || EVENT_LINE.lastIndex !== end) return false;
  // `","ts":"` is 8 characters, `","type":"` 10, `","session":"` 13, `","role":"` 10.
  out.tsStart = text.indexOf('"', start + 7) + 8;
  out.tsEnd = text.indexOf('"', out.tsStart);
  out.typeStart = out.tsEnd + 10;
  out.typeEnd = text.indexOf('"', out.typeStart);
  out.sessionStart = out.typeEnd + 13;
  out.sessionEnd = text.indexOf('"', out.sessionStart);
  out.roleStart = out.sessionEnd + 10;
  out.roleEnd = text.indexOf('"', out.roleStart);
  // A final charge has the line's last `{` (it holds no other) and closes just before the line does.
  const open = text.charCodeAt(end - 2) === CLOSE ? text.lastIndexOf('{', end - 2) : -1;
  const charged = open > out.roleEnd && text.indexOf('}', open) === end - 2 && text.startsWith(',"charge":', open - 10);
  out.chargeStart = charged ? open : -1;
  out.chargeEnd = charged ? end - 1 : -1;
  return true;
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
