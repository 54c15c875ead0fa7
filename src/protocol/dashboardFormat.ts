/**
 * Numbers as the user reads them, shared by the host (status bar tooltip) and the dashboard page:
 * the display language's digit grouping, and a limit of 0 said as "not allowed" rather than `0/0 (0%)`.
 * Pure: the caller passes the locale (VS Code's display language) and the translated words.
 */

/** Whole numbers with the locale's separators (en: 24,000; es: 24.000). An unknown locale falls back to English. */
export function formatCount(n: number, locale: string): string {
  return numberFormat(locale, 0).format(Math.round(n));
}

/** Dollars with two decimals, as the budget line writes them. */
export function formatUsd(n: number, locale: string): string {
  return `$${numberFormat(locale, 2).format(n)}`;
}

const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, decimals: number): Intl.NumberFormat {
  const key = `${locale}|${decimals}`;
  let f = formats.get(key);
  if (!f) {
    const opts = { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
    try {
      f = new Intl.NumberFormat(locale || 'en', opts);
    } catch {
      f = new Intl.NumberFormat('en', opts);
    }
    formats.set(key, f);
  }
  return f;
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

/** `24,000 / 200,000 (12%)`, or "not allowed" for a limit of 0 (with what was used anyway, e.g. a terminal). */
export function dimensionText(d: DimensionNumbers, fmt: (n: number) => string, words: DimensionWords): string {
  if (d.limit === 0) return d.used > 0 ? words.notAllowedUsed.replace('{0}', fmt(d.used)) : words.notAllowed;
  return `${fmt(d.used)} / ${fmt(d.limit)} (${d.percent}%)`;
}
