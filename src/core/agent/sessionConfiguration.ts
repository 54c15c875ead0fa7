/**
 * The configuration an `@alfred` chat session ran under, for the completion record `/done` writes:
 * the same inputs its turns' model charges carry in their fingerprint (charge.ts), read back from
 * what each turn recorded of itself. Pure: the editor hands over the turns and the endpoint lookup.
 */
import type { SessionConfiguration } from '../models/fingerprint/fingerprint';
import type { AgentConfiguration } from './charge';

/** A model as a turn recorded it. */
export interface RecordedModel {
  id: string;
  vendor: string;
}

/** What one `@alfred` turn recorded of itself (its chat result's metadata). */
export interface RecordedTurn {
  model?: RecordedModel;
  /** The pack, persona and handoff its requests were charged with; absent in turns recorded before it was kept. */
  configuration?: AgentConfiguration;
  /** The turn's packs, and the persona the session opened with (on its first turn only). */
  packs?: readonly string[];
  persona?: string;
}

/**
 * One turn's pack, persona and handoff: its packs joined with `+` (`off` when none), as trials join
 * a condition's; whether a persona heads the prompt; and the handoff `off`, since an `@alfred` turn
 * never starts from the progress handoff (`/handoff` writes or shows one, and no turn reads it).
 */
export function turnConfiguration(packs: readonly string[], persona: boolean): Required<AgentConfiguration> {
  return { pack: packs.length ? packs.join('+') : 'off', persona, handoff: false };
}

/**
 * The session's configuration is its latest turn that reached a model: that model, its endpoint,
 * and the pack, persona and handoff the turn recorded (an older turn without them gives its packs
 * and the session's persona, and `n/a` for the handoff, as its charges had it). A session with no
 * such turn ran nothing: every component is left `n/a`.
 */
export function chatSessionConfiguration(turns: readonly RecordedTurn[], endpointOf: (model: RecordedModel) => string): SessionConfiguration {
  const latest = [...turns].reverse().find((t) => t.model !== undefined);
  if (!latest?.model) return {};
  const configuration = latest.configuration
    ?? { pack: turnConfiguration(latest.packs ?? [], false).pack, persona: turns.some((t) => t.persona !== undefined) };
  return { model: latest.model.id, endpoint: endpointOf(latest.model), ...configuration };
}
