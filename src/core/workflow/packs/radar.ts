/**
 * The radar: picks one pack per prompt (docs/alfred-chat.md, Packs and the radar).
 * 1. Trigger words, on word boundaries where letters include á é í ó ú ñ ü; each matched trigger
 *    weighs `min(3, ceil(length / 6))`; a pack's score is the sum; the highest wins; a tie goes to the
 *    pack whose name sorts first. A trigger ending in `*` is a stem (`deploy*` matches "deployment").
 * 2. If no trigger matched: repository hints (`Dockerfile`, `docs/`, `db/*.sql`); the pack with the
 *    most matching hints wins, ties by name.
 * 3. Else the last pack chosen (sticky), if it still exists.
 */

/** What the radar needs of a pack. */
export interface RadarPack {
  name: string;
  triggers: readonly string[];
  hints: readonly string[];
}

export type RadarReason = 'trigger' | 'hint' | 'sticky' | 'none';

export interface RadarResult {
  pack?: string;
  reason: RadarReason;
  /** The winner's score (trigger weight sum, or number of matching hints). */
  score: number;
  /** The winner's matched triggers or hints. */
  matched: string[];
}

export interface RadarInput {
  prompt: string;
  packs: readonly RadarPack[];
  /** Whether a hint matches the repository (see hints.ts); no hints are tried without it. */
  hintMatches?: (hint: string) => boolean;
  /** The pack chosen last time, for stickiness. */
  last?: string;
}

const WORD_CHAR = '0-9A-Za-z_áéíóúñüÁÉÍÓÚÑÜ';

export function triggerWeight(trigger: string): number {
  const length = [...stemOf(trigger)].length;
  return Math.min(3, Math.ceil(length / 6));
}

function stemOf(trigger: string): string {
  return trigger.endsWith('*') ? trigger.slice(0, -1) : trigger;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const compiled = new Map<string, RegExp>();

/** The trigger as a case-insensitive pattern with word boundaries (none at the end of a stem). */
export function triggerPattern(trigger: string): RegExp {
  let re = compiled.get(trigger);
  if (!re) {
    const stem = trigger.endsWith('*');
    const body = stemOf(trigger).trim().split(/\s+/).map(escape).join('\\s+');
    re = new RegExp(`(?<![${WORD_CHAR}])${body}${stem ? '' : `(?![${WORD_CHAR}])`}`, 'iu');
    compiled.set(trigger, re);
  }
  return re;
}

export function triggerMatches(trigger: string, prompt: string): boolean {
  return stemOf(trigger).trim() !== '' && triggerPattern(trigger).test(prompt);
}

/** Score of every pack for a prompt: the sum of its matched triggers' weights. */
export function scorePacks(prompt: string, packs: readonly RadarPack[]): Array<{ name: string; score: number; matched: string[] }> {
  return packs.map((p) => {
    const matched = [...new Set(p.triggers)].filter((t) => triggerMatches(t, prompt));
    return { name: p.name, score: matched.reduce((s, t) => s + triggerWeight(t), 0), matched };
  });
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function best<T extends { name: string; score: number }>(items: T[]): T | undefined {
  return items.filter((i) => i.score > 0).sort((a, b) => b.score - a.score || byName(a.name, b.name))[0];
}

export function detectPack(input: RadarInput): RadarResult {
  const byTrigger = best(scorePacks(input.prompt, input.packs));
  if (byTrigger) return { pack: byTrigger.name, reason: 'trigger', score: byTrigger.score, matched: byTrigger.matched };

  if (input.hintMatches) {
    const cache = new Map<string, boolean>();
    const matches = (h: string): boolean => {
      if (!cache.has(h)) cache.set(h, input.hintMatches!(h));
      return cache.get(h)!;
    };
    const byHint = best(input.packs.map((p) => {
      const matched = p.hints.filter(matches);
      return { name: p.name, score: matched.length, matched };
    }));
    if (byHint) return { pack: byHint.name, reason: 'hint', score: byHint.score, matched: byHint.matched };
  }

  if (input.last && input.packs.some((p) => p.name === input.last)) return { pack: input.last, reason: 'sticky', score: 0, matched: [] };
  return { reason: 'none', score: 0, matched: [] };
}
