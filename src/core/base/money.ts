/**
 * The one way an amount of USD is written, on every surface (the chat footer, the dashboard, the
 * event feed, the status bar, `/budget`, `alfred usage` and `alfred budget`), so the same charge reads
 * as the same string everywhere.
 *
 * - Enough digits to see small spend: cents from $1 up; below $1 up to four decimals (at least two,
 *   trailing zeros dropped: $0.50, $0.0007); below $0.0001 two significant digits ($0.000012).
 *   A charge never reads as $0.00 unless it is zero.
 * - `~` in front only when the amount includes the fallback price (a model Alfred has no price for);
 *   a limit is never estimated, so a limit is written without it.
 * - Without a locale, no digit grouping ($1234.50): the budget line keeps the form agents parse.
 *   With one, the locale's grouping and decimal mark (VS Code's display language).
 *
 * Pure and dependency-free: the webview shares it through src/protocol/dashboardFormat.ts.
 */

export interface MoneyOptions {
  /** Some of the amount was priced with the fallback price: written with a leading `~`. */
  estimated?: boolean;
  /** A BCP 47 locale for grouping and the decimal mark; absent: plain digits, `.` as decimal mark. */
  locale?: string;
}

/** `$0.50`, `$0.0007`, `~$1.25`, `$1,234.50` (locale `en`). */
export function formatUsd(usd: number, options: MoneyOptions = {}): string {
  const n = Number.isFinite(usd) ? usd : 0;
  const sign = n < 0 ? '-' : '';
  const decimals = decimalsFor(Math.abs(n));
  const digits = options.locale === undefined ? plainDigits(Math.abs(n), decimals) : localeNumberFormat(options.locale, 2, decimals).format(Math.abs(n));
  return `${options.estimated ? '~' : ''}${sign}$${digits}`;
}

/** A limit: never estimated, whatever the spend it is compared with. */
export function formatLimitUsd(usd: number, locale?: string): string {
  return formatUsd(usd, { locale });
}

export interface Charge {
  usd: number;
  /** Some of it was priced with the fallback price. */
  fallback: boolean;
}

/**
 * An amount spent, naming the fallback price when it was used: `~$0.0033 (fallback price)`.
 * `fallbackNote` is the translated name ("fallback price" in English).
 */
export function formatCharge(charge: Charge, locale?: string, fallbackNote = 'fallback price'): string {
  const amount = formatUsd(charge.usd, { estimated: charge.fallback, locale });
  return charge.fallback ? `${amount} (${fallbackNote})` : amount;
}

/** The most decimals an amount is written with (the formatter drops trailing zeros down to two). */
function decimalsFor(abs: number): number {
  if (abs === 0 || abs >= 1) return 2;
  if (abs >= 0.0001) return 4;
  // Two significant digits, at most ten decimals: below that the amount is not worth a digit.
  return Math.min(10, Math.ceil(-Math.log10(abs)) + 1);
}

/**
 * Without a locale: what Intl.NumberFormat('en', { useGrouping: false }) writes, without building
 * one (the first costs about 14 ms, on every hook call that writes the budget line). Rounded as it
 * rounds: half away from zero, on the shortest decimal that reads back as the number (1.005 → 1.01,
 * where toFixed gives 1.00).
 */
function plainDigits(abs: number, maxDecimals: number): string {
  const [mantissa = '0', exponent = '0'] = String(abs).split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  // The digits without the point, and where the point falls in them.
  let digits = whole + fraction;
  let point = whole.length + Number(exponent);
  if (point < 0) { digits = '0'.repeat(-point) + digits; point = 0; }
  digits = digits.padEnd(point + maxDecimals + 1, '0');
  const kept = digits.slice(0, point + maxDecimals);
  const rounded = BigInt(kept || '0') + (Number(digits[point + maxDecimals]) >= 5 ? 1n : 0n);
  const text = rounded.toString().padStart(maxDecimals + 1, '0');
  const intPart = text.slice(0, text.length - maxDecimals);
  let decimals = text.slice(text.length - maxDecimals);
  // Trailing zeros dropped down to two decimals.
  while (decimals.length > 2 && decimals.endsWith('0')) decimals = decimals.slice(0, -1);
  return `${intPart}.${decimals}`;
}

const formats = new Map<string, Intl.NumberFormat>();

/**
 * A locale's number format with `minDecimals` to `maxDecimals` decimals and its own grouping rule
 * (Spanish leaves 1234 ungrouped), built once per kind; an unknown locale falls back to English.
 */
export function localeNumberFormat(locale: string, minDecimals: number, maxDecimals: number): Intl.NumberFormat {
  const key = `${locale}|${minDecimals}|${maxDecimals}`;
  let f = formats.get(key);
  if (!f) {
    const opts: Intl.NumberFormatOptions = { minimumFractionDigits: minDecimals, maximumFractionDigits: maxDecimals };
    try {
      f = new Intl.NumberFormat(locale || 'en', opts);
    } catch {
      f = new Intl.NumberFormat('en', opts);
    }
    formats.set(key, f);
  }
  return f;
}
