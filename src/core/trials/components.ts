/**
 * What a condition's components mean to the headless loop: the ones it applies (model, endpoint,
 * role, handoff, pack, persona) and the ones it cannot (labels: what Alfred cannot see, it cannot
 * set either), refused before any trial runs, by name.
 */
import type { TrialCondition } from './suite';

export interface AppliedComponents {
  /** `provider/model` or a model id; undefined: the first configured model. */
  model?: string;
  /** The provider the model must belong to: its name, or its URL as the fingerprint's endpoint spells it. */
  endpoint?: string;
  role: string;
  handoff: boolean;
  /** Packs whose context goes into the prompt (`pack = "a+b"`, as @alfred's fingerprint joins them); empty: off. */
  packs: string[];
  /** Alfred's persona opens the conversation. */
  persona: boolean;
}

const ON_OFF: Record<string, boolean> = { on: true, off: false, true: true, false: false };
const PERSONA: Record<string, boolean> = { ...ON_OFF, alfred: true, none: false };

/**
 * The components applied, and those refused by name. `applied` is computed even when some are
 * refused, so the runner still checks the others (role, packs, model, key) and names every refusal.
 */
export function applyComponents(condition: TrialCondition): { applied: AppliedComponents; refused: string[] } {
  const refused: string[] = [];
  const c = condition.components;
  for (const [name, value] of Object.entries(c)) {
    if (name === 'model' || name === 'endpoint' || name === 'role' || name === 'pack') continue;
    if (name === 'handoff' && value in ON_OFF) continue;
    if (name === 'persona' && value in PERSONA) continue;
    refused.push(`${name} = "${value}"`);
  }
  const packs = !c.pack || c.pack === 'off' ? [] : c.pack.split('+').map((p) => p.trim()).filter((p) => p);
  return {
    applied: {
      ...(c.model ? { model: c.model } : {}), ...(c.endpoint ? { endpoint: c.endpoint } : {}),
      role: c.role || 'coder', handoff: c.handoff !== undefined && ON_OFF[c.handoff] === true,
      packs, persona: c.persona !== undefined && PERSONA[c.persona] === true,
    },
    refused,
  };
}

/** Why the runner cannot apply some of these conditions' components; empty when it can apply all. */
export function refusedComponents(conditions: readonly TrialCondition[]): string[] {
  return conditions.flatMap((c) => applyComponents(c).refused.map((r) => `condition ${c.name}: ${r}`));
}
