/** Failover profiles (`alfred.profiles`): named, ordered chains of model selectors. */
import { INTENTIONS } from './providers/intentions';
import type { Intention, ModelLink } from './providers/types';

// Declared beside the intentions it names, which match a link against a provider's models.
export type { ModelLink } from './providers/types';

export interface Profile {
  name: string;
  chain: readonly ModelLink[];
}

export interface ProfileProblem {
  /** Where the profile came from, e.g. `settings: alfred.profiles`. */
  path: string;
  /** `[0].chain[1].vendor`. */
  key: string;
  message: string;
}

const LINK_KEYS = ['vendor', 'family', 'id'] as const;
const ALL_LINK_KEYS = [...LINK_KEYS, 'intention'];

/**
 * A stable key for a link (`scripted/*\/scripted-a`), used for failure counts; an intention is
 * appended (`*\/*\/*#local`), so the keys of links without one stay as they were.
 */
export function linkKey(link: ModelLink): string {
  return LINK_KEYS.map((k) => link[k] ?? '*').join('/') + (link.intention ? `#${link.intention}` : '');
}

/** What a person calls the link: its id, else family, else vendor; then its intention (`* (local)`). */
export function linkLabel(link: ModelLink): string {
  const base = link.id ?? link.family ?? (link.vendor ? `${link.vendor}/*` : '*');
  return link.intention ? `${base} (${link.intention})` : base;
}

/**
 * How a resolved model is named in full: `vendor/family/id`, without repeating what the id already
 * says (Alfred's models are `alfred/<provider>/<model>`: their id is the whole name).
 */
export function modelIdentity(model: { vendor: string; family: string; id: string }): string {
  if (model.id.startsWith(`${model.vendor}/`)) return model.id;
  return model.family === model.id ? `${model.vendor}/${model.id}` : `${model.vendor}/${model.family}/${model.id}`;
}

/** Reads the setting's value; bad entries are reported with their key and left out. */
export function parseProfiles(value: unknown, where = 'settings: alfred.profiles'): { profiles: Profile[]; problems: ProfileProblem[] } {
  const problems: ProfileProblem[] = [];
  const report = (key: string, message: string) => problems.push({ path: where, key, message });
  if (value === undefined || value === null) return { profiles: [], problems };
  if (!Array.isArray(value)) {
    report('', 'must be a list of profiles ({ "name", "chain" })');
    return { profiles: [], problems };
  }
  const profiles: Profile[] = [];
  const seen = new Set<string>();
  value.forEach((raw, i) => {
    const at = `[${i}]`;
    const p = raw as { name?: unknown; chain?: unknown } | null;
    if (typeof p !== 'object' || p === null) return report(at, 'must be an object with "name" and "chain"');
    if (typeof p.name !== 'string' || !p.name.trim()) return report(`${at}.name`, 'must be a non-empty string');
    const name = p.name.trim();
    if (seen.has(name)) return report(`${at}.name`, `"${name}" is defined twice; the first one is used`);
    if (!Array.isArray(p.chain) || p.chain.length === 0) return report(`${at}.chain`, 'must be a non-empty list of models ({ "vendor", "family", "id", "intention" })');
    const chain: ModelLink[] = [];
    let ok = true;
    p.chain.forEach((l: unknown, j: number) => {
      const lat = `${at}.chain[${j}]`;
      const link = l as Record<string, unknown> | null;
      if (typeof link !== 'object' || link === null) { ok = false; return report(lat, 'must be an object'); }
      const out: ModelLink = {};
      for (const k of Object.keys(link)) {
        if (!ALL_LINK_KEYS.includes(k)) { ok = false; report(`${lat}.${k}`, `unknown key (expected ${ALL_LINK_KEYS.join(', ')})`); }
      }
      for (const k of LINK_KEYS) {
        const v = link[k];
        if (v === undefined) continue;
        if (typeof v !== 'string' || !v.trim()) { ok = false; report(`${lat}.${k}`, 'must be a non-empty string'); } else out[k] = v.trim();
      }
      const intention = Object.hasOwn(link, 'intention') ? link.intention : undefined;
      if (intention !== undefined) {
        if (INTENTIONS.includes(intention as Intention)) out.intention = intention as Intention;
        else { ok = false; report(`${lat}.intention`, `must be one of ${INTENTIONS.join(', ')}`); }
      }
      if (!out.vendor && !out.family && !out.id && !out.intention) { ok = false; report(lat, 'needs at least one of vendor, family, id, intention'); }
      chain.push(out);
    });
    if (!ok) return;
    seen.add(name);
    profiles.push({ name, chain });
  });
  return { profiles, problems };
}
