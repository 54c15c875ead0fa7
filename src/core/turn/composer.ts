/**
 * The turn composer: each `@alfred` turn is composed in a fixed order — heal (failover), then pack,
 * then budget note, then persona — and returns what goes into the prompt, what the chat should say
 * and which events to record. The steps themselves (resolving models, reading packs, summing the
 * spend) are given by the adapter, so the order and the composition are decided here, once.
 */
import type { NewEvent } from '../base/events/types';
import type { Switch } from '../models/failover';
import { frugalityNote, type SpendNotice, type SpendStatus } from '../models/spend';
import { domainPacksBlock, type InjectedPack } from '../workflow/packs/inject';

export const TURN_ORDER = ['heal', 'pack', 'budget', 'persona'] as const;

export interface HealStep {
  /** The model the turn will use (its id), when one was found. */
  model?: string;
  profile?: string;
  /** A failover happened now, between turns. */
  switched?: Switch & { fromModel: string; toModel: string };
  /** The active link should be replaced but no other link resolves: the turn stays on it. */
  stuck?: { model: string; reason: Switch['reason']; failures: number };
}

export interface PackStep {
  packs: ReadonlyArray<InjectedPack & { recommendedRole?: string }>;
  /** `trigger`, `hint`, `sticky`, `none` (radar), `pinned` or `off` (autopilot off). */
  reason: string;
  score?: number;
  matched?: readonly string[];
}

export interface BudgetStep {
  status: SpendStatus;
  /** Notices due now (once a day each). */
  notices: readonly SpendNotice[];
}

export interface PersonaStep {
  /** The persona text, when this turn opens a chat session with a persona. */
  text?: string;
  name: string;
}

export interface TurnSteps {
  heal(): Promise<HealStep>;
  pack(): Promise<PackStep>;
  budget(): Promise<BudgetStep>;
  persona(): Promise<PersonaStep>;
}

export type TurnNotice =
  | { kind: 'failover'; profile: string; from: string; to: string; reason: Switch['reason']; failures: number }
  | { kind: 'failover-stuck'; profile: string; model: string; reason: Switch['reason']; failures: number }
  | { kind: 'pack'; packs: string[]; reason: string; recommendedRole?: string }
  | { kind: 'spend'; level: SpendNotice; status: SpendStatus };

export interface ComposedTurn {
  heal: HealStep;
  pack: PackStep;
  budget: BudgetStep;
  persona: PersonaStep;
  /** Blocks to put before the user's prompt this turn, in order: packs, then the budget note. */
  context: string[];
  /** Sent once, at the head of the conversation. */
  personaText?: string;
  /** What the chat says before the answer, in order. */
  notices: TurnNotice[];
  events: NewEvent[];
}

/** Runs the steps strictly one after another, in TURN_ORDER. */
export async function composeTurn(steps: TurnSteps): Promise<ComposedTurn> {
  const heal = await steps.heal();
  const pack = await steps.pack();
  const budget = await steps.budget();
  const persona = await steps.persona();

  const notices: TurnNotice[] = [];
  const events: NewEvent[] = [];
  const context: string[] = [];

  if (heal.switched && heal.profile) {
    const s = heal.switched;
    notices.push({ kind: 'failover', profile: heal.profile, from: s.fromModel, to: s.toModel, reason: s.reason, failures: s.failures });
    events.push({ type: 'ModelFailover', profile: heal.profile, from: s.fromModel, to: s.toModel, reason: s.reason, failures: s.failures });
  } else if (heal.stuck && heal.profile) {
    notices.push({ kind: 'failover-stuck', profile: heal.profile, ...heal.stuck });
  }

  const names = pack.packs.map((p) => p.name);
  if (names.length) {
    context.push(domainPacksBlock(pack.packs));
    const recommendedRole = pack.packs.find((p) => p.recommendedRole)?.recommendedRole;
    notices.push({ kind: 'pack', packs: names, reason: pack.reason, ...(recommendedRole ? { recommendedRole } : {}) });
    events.push({
      type: 'PackSelected', pack: names.join(','), packs: names, reason: pack.reason,
      ...(pack.score !== undefined ? { score: pack.score } : {}), ...(pack.matched?.length ? { matched: [...pack.matched] } : {}),
    });
  }

  if (budget.status.level === 'critical') context.push(frugalityNote(budget.status));
  for (const level of budget.notices) {
    notices.push({ kind: 'spend', level, status: budget.status });
    events.push({
      type: 'SpendWarning', level, day: budget.status.day, spentUsd: budget.status.usd, capUsd: budget.status.capUsd,
      percent: budget.status.percent, ...(budget.status.estimated ? { estimated: true } : {}),
    });
  }

  return { heal, pack, budget, persona, context, ...(persona.text ? { personaText: persona.text } : {}), notices, events };
}
