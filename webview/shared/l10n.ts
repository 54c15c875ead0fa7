/** Strings for the webview, translated by the host (vscode.l10n) and passed in the page. */
let bundle: Record<string, string> = {};

export function setStrings(strings: Record<string, string>): void {
  bundle = strings;
}

/** Looks a string up by its English text; `{0}` placeholders are filled in order. */
export function t(message: string, ...args: Array<string | number>): string {
  const text = bundle[message] ?? message;
  return text.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)] ?? ''));
}
