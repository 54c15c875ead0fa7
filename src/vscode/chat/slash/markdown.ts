/** Markdown that stays literal whatever the text holds: fences and spans longer than any backtick run inside. */
function longestRun(text: string): number {
  return Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
}

export function codeSpan(text: string): string {
  const ticks = '`'.repeat(longestRun(text) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

export function codeBlock(text: string, lang = ''): string {
  const fence = '`'.repeat(Math.max(3, longestRun(text) + 1));
  return `${fence}${lang}\n${text.replace(/\n$/, '')}\n${fence}`;
}
