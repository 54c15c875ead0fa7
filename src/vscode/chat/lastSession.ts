import type { SessionConfiguration } from '../../core/models/fingerprint/fingerprint';

/**
 * What this window knows of the configuration work was last done under: that of its latest
 * `@alfred` turn to reach a model (model, endpoint, pack, persona, handoff). "Alfred: Verify
 * Completion" from the palette belongs to no chat session, so its record carries this; before any
 * such turn in the window, nothing (every component `n/a`). Kept in memory only: a new window knows nothing.
 */
let last: SessionConfiguration | undefined;

export function rememberTurnConfiguration(configuration: SessionConfiguration): void {
  last = { ...configuration };
}

export function lastTurnConfiguration(): SessionConfiguration {
  return last ? { ...last } : {};
}
