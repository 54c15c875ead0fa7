import { formatCount, formatUsd } from '../../src/protocol/dashboardFormat';

/** VS Code's display language: the host writes it as the page's `lang` (src/vscode/webviews/html.ts). */
const locale = (): string => document.documentElement.lang || 'en';

/** A whole number with the display language's separators. */
export const count = (n: number): string => formatCount(n, locale());

/** Dollars with the display language's separators. */
export const dollars = (n: number): string => formatUsd(n, locale());
