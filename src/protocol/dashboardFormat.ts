/**
 * Numbers as the user reads them, shared by the host (status bar tooltip) and the dashboard page:
 * the display language's digit grouping, and a limit of 0 said as "not allowed" rather than `0/0 (0%)`.
 * Pure: the caller passes the locale (VS Code's display language) and the translated words.
 */
import { formatCharge as coreFormatCharge, formatUsd as coreFormatUsd, localeNumberFormat, type Charge } from '../core/base/money';

/** Whole numbers with the locale's separators (en: 24,000; es: 24.000). An unknown locale falls back to English. */
export function formatCount(n: number, locale: string): string {
  return localeNumberFormat(locale, 0, 0).format(Math.round(n));
}

/** Dollars as every surface writes them (src/core/base/money.ts), with the locale's separators. */
export function formatUsd(n: number, locale: string, estimated = false): string {
  return coreFormatUsd(n, { locale, estimated });
}

/** A charge, naming the fallback price when it was used. */
export function formatCharge(charge: Charge, locale: string, fallbackNote?: string): string {
  return coreFormatCharge(charge, locale, fallbackNote);
}

export interface DimensionNumbers {
  used: number;
  limit: number;
  percent: number;
}

/** The words a dimension's text needs, already translated: `{0}` is the amount used. */
export interface DimensionWords {
  /** e.g. "not allowed" */
  notAllowed: string;
  /** e.g. "not allowed · {0} used" */
  notAllowedUsed: string;
}

/** `24,000 / 200,000 (12%)` (`limitFmt`: a cost limit is never marked estimated), or "not allowed" for a limit of 0 (with what was used anyway, e.g. a terminal). */
export function dimensionText(d: DimensionNumbers, fmt: (n: number) => string, words: DimensionWords, limitFmt: (n: number) => string = fmt): string {
  if (d.limit === 0) return d.used > 0 ? words.notAllowedUsed.replace('{0}', fmt(d.used)) : words.notAllowed;
  return `${fmt(d.used)} / ${limitFmt(d.limit)} (${d.percent}%)`;
}
