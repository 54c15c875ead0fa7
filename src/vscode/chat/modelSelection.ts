import * as vscode from 'vscode';
import type { Harness } from '../../core/harness/harness';
import { chainHealth, heal, recordOutcome, type LinkStatus, type Outcome } from '../../core/models/failover';
import { linkKey, linkLabel, type ModelLink, type Profile } from '../../core/models/profiles';
import { matchesLink } from '../../core/models/providers/intentions';
import { readChatState, updateChatState } from '../../core/turn/chatState';
import type { HealStep } from '../../core/turn/composer';
import { intentionsOfModel } from '../providers/alfredModelProvider';

/**
 * Which model a turn talks to: the chat's selected model (`request.model`), unless an Alfred profile
 * is active; then the profile's chain, healed between turns (core/models/failover.ts).
 */

export async function resolveLink(link: ModelLink): Promise<vscode.LanguageModelChat | undefined> {
  const selector: vscode.LanguageModelChatSelector = {};
  if (link.vendor) selector.vendor = link.vendor;
  if (link.family) selector.family = link.family;
  if (link.id) selector.id = link.id;
  try {
    const models = await vscode.lm.selectChatModels(selector);
    // An intention (`local`, `fast`…) is known for Alfred's own models only: a link asking for one never resolves to another's.
    return link.intention ? models.find((m) => matchesLink(link, { vendor: m.vendor, family: m.family, id: m.id, intentions: intentionsOfModel(m.id) })) : models[0];
  } catch {
    return undefined;
  }
}

/** Every link of a chain, resolved in parallel. */
export function resolveChain(chain: readonly ModelLink[]): Promise<Array<vscode.LanguageModelChat | undefined>> {
  return Promise.all(chain.map(resolveLink));
}

export function modelLabel(m: vscode.LanguageModelChat): string {
  return m.id;
}

export interface TurnModel {
  model: vscode.LanguageModelChat | undefined;
  heal: HealStep;
  /** Set when the model is a profile's link: its outcome feeds the failover state. */
  profile?: Profile;
  link?: ModelLink;
  /** The active profile no longer exists in the settings. */
  missingProfile?: string;
}

export function activeProfile(harness: Harness, profiles: readonly Profile[]): { profile?: Profile; missing?: string } {
  const name = readChatState(harness.stateDir).state.profile;
  if (!name) return {};
  const profile = profiles.find((p) => p.name === name);
  return profile ? { profile } : { missing: name };
}

/** Step 1 of the turn composer: heal the active profile's chain and pick the turn's model. */
export async function healAndSelect(harness: Harness, profiles: readonly Profile[], requestModel: vscode.LanguageModelChat | undefined): Promise<TurnModel> {
  const { profile, missing } = activeProfile(harness, profiles);
  if (!profile) return { model: requestModel, heal: requestModel ? { model: modelLabel(requestModel) } : {}, ...(missing ? { missingProfile: missing } : {}) };
  const resolved = await resolveChain(profile.chain);
  const { result } = await updateChatState(harness.stateDir, (state) => {
    const current = state.failover[profile.name] ?? { active: 0, failures: {} };
    const healed = heal(current, profile.chain, (i) => resolved[i] !== undefined);
    state.failover[profile.name] = {
      ...healed.state,
      unavailable: profile.chain.filter((_, i) => !resolved[i]).map(linkKey),
      checkedAt: new Date().toISOString(),
    };
    return healed;
  });
  const active = result.state.active;
  const link = profile.chain[active]!;
  const model = resolved[active];
  const step: HealStep = { profile: profile.name, ...(model ? { model: modelLabel(model) } : {}) };
  if (result.switched) {
    const s = result.switched;
    step.switched = { ...s, fromModel: linkLabel(profile.chain[s.from]!), toModel: model ? modelLabel(model) : linkLabel(link) };
  } else if (result.stuck) {
    step.stuck = { model: model ? modelLabel(model) : linkLabel(link), ...result.stuck };
  }
  // No link resolves at all: the chat's own model is the last resort, and the chat says so.
  return { model: model ?? requestModel, heal: step, profile, ...(model ? { link } : {}) };
}

/** After a request: success clears the link's count, a failure adds one, a cancel changes nothing. */
export async function recordModelOutcome(harness: Harness, profile: Profile | undefined, link: ModelLink | undefined, outcome: Outcome): Promise<void> {
  if (!profile || !link || outcome === 'cancel') return;
  await updateChatState(harness.stateDir, (state) => {
    const current = state.failover[profile.name] ?? { active: 0, failures: {} };
    state.failover[profile.name] = { ...current, ...recordOutcome(current, link, outcome) };
  });
}

/** The active profile's links with their health, as last checked (for /profile and the dashboard). */
export function profileHealth(harness: Harness, profile: Profile): LinkStatus[] {
  const saved = readChatState(harness.stateDir).state.failover[profile.name];
  return chainHealth(saved ?? { active: 0, failures: {} }, profile.chain, new Set(saved?.unavailable ?? []), Boolean(saved?.checkedAt));
}
