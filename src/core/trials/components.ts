/**
 * What a condition's components mean to the headless loop: the ones it can apply (model, endpoint,
 * role, handoff; pack and persona only as "off", since the headless loop injects neither) and the
 * ones it cannot, refused before any trial runs, by name.
 */
import type { TrialCondition } from './suite';

export interface AppliedComponents {
  /** `provider/model` or a model id; undefined: the first configured model. */
  model?: string;
  /** A provider name the model must belong to. */
  endpoint?: string;
  role: string;
  handoff: boolean;
}

const ON_OFF: Record<string, boolean> = { on: true, off: false, true: true, false: false };

export function applyComponents(condition: TrialCondition): { applied?: AppliedComponents; refused: string[] } {
  const refused: string[] = [];
  const c = condition.components;
  for (const [name, value] of Object.entries(c)) {
    if (name === 'model' || name === 'endpoint' || name === 'role') continue;
    if (name === 'handoff' && value in ON_OFF) continue;
    if ((name === 'pack' || name === 'persona') && value === 'off') continue;
    refused.push(`${name} = "${value}"`);
  }
  if (refused.length > 0) return { refused };
  return {
    applied: {
      ...(c.model ? { model: c.model } : {}), ...(c.endpoint ? { endpoint: c.endpoint } : {}),
      role: c.role || 'coder', handoff: c.handoff !== undefined && ON_OFF[c.handoff] === true,
    },
    refused,
  };
}

/** Why the runner cannot apply some of these conditions' components; empty when it can apply all. */
export function refusedComponents(conditions: readonly TrialCondition[]): string[] {
  return conditions.flatMap((c) => applyComponents(c).refused.map((r) => `condition ${c.name}: ${r}`));
}
