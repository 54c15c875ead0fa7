import { formatCount, formatUsd } from '../../src/protocol/dashboardFormat';

/** VS Code's display language: the host writes it as the page's `lang` (src/vscode/webviews/html.ts). */
// Read through globalThis so the unit tests can load the formatters in Node (where there is no page).
const locale = (): string => (globalThis as { document?: { documentElement?: { lang?: string } } }).document?.documentElement?.lang || 'en';

/** A whole number with the display language's separators. */
export const count = (n: number): string => formatCount(n, locale());

/** Dollars as every surface writes them (src/core/base/money.ts), with the display language's separators. */
export const dollars = (n: number, estimated = false): string => formatUsd(n, locale(), estimated);

/** The display language, for formatters that take it. */
export const pageLocale = locale;
