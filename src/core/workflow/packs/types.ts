/** Packs: units of working context injected into `@alfred`'s prompt (docs/alfred-chat.md, Packs and the radar). */

/** Where a pack came from: the extension's `packs/` or the workspace's `.alfred/packs/`. */
export type PackSource = 'builtin' | 'workspace';

/** `domain.json`, as written. */
export interface PackManifest {
  name: string;
  description: string;
  /** Trigger words per language (`en`, `es`, …); a trailing `*` makes a stem. */
  triggers: Record<string, string[]>;
  /** Repository hints: `Dockerfile`, `docs/`, `db/*.sql` (one `*`, in the last segment only). */
  hints?: string[];
  /** A role that suits this kind of work; shown, never switched to silently. */
  recommendedRole?: string;
}

export interface PackSkill {
  name: string;
  description: string;
  /** The SKILL.md file. */
  path: string;
}

export interface PackPrompt {
  name: string;
  path: string;
}

/** A loaded, valid pack. */
export interface Pack {
  name: string;
  description: string;
  /** Every language's triggers, in manifest order, without duplicates. */
  triggers: readonly string[];
  triggersByLanguage: Readonly<Record<string, readonly string[]>>;
  hints: readonly string[];
  recommendedRole?: string;
  /** `context.md`, the only file injected into the prompt. */
  context: string;
  skills: readonly PackSkill[];
  prompts: readonly PackPrompt[];
  dir: string;
  source: PackSource;
}

/** A problem found while loading packs; never fatal to the other packs. */
export interface PackProblem {
  path: string;
  /** JSON key path (`triggers.es`, `hints[1]`), or a file name; empty when the whole file is at fault. */
  key: string;
  message: string;
  pack?: string;
  /** `error`: the pack was not loaded. `warning`: it was loaded, as the message says. */
  severity: 'error' | 'warning';
}

export interface LoadedPacks {
  /** By name; sorted by name. */
  packs: ReadonlyMap<string, Pack>;
  problems: readonly PackProblem[];
}

export const PACK_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
