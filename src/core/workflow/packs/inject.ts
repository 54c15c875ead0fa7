/** What a pack adds to the prompt: only its context.md, in the fixed wrapper. */

export interface InjectedPack {
  name: string;
  context: string;
}

/**
 * `<domain-packs>\n\n# {name}\n\n{context}\n\n</domain-packs>`; the context is trimmed so the blank
 * lines of the wrapper stay exact. Several packs (pinned ones) follow one another inside one wrapper.
 */
export function domainPacksBlock(packs: readonly InjectedPack[]): string {
  if (packs.length === 0) return '';
  return `<domain-packs>\n\n${packs.map((p) => `# ${p.name}\n\n${p.context.trim()}`).join('\n\n')}\n\n</domain-packs>`;
}
