/**
 * The configuration an agent session governed by hooks (Copilot, Claude Code, the Copilot CLI) ran
 * under, as far as Alfred knows it, for the completion record its Stop hook writes:
 * - `model`: the session's latest measured request (usage/sessionModel.ts); `n/a` when none was.
 * - `endpoint`: `n/a`, always: where such an agent sends its requests (a vendor's API, a BYOK
 *   provider, a cloud's) is not in what it reports.
 * - `pack`, `persona`: `off`: they are `@alfred`'s, and Alfred gives neither to these sessions.
 * - `handoff`: whether the SessionStart hook handed this session the progress handoff (its
 *   AgentSession event says); `n/a` when no such event of the session is found.
 */
import { lastEvent } from '../base/events/tail';
import { latestMeasuredModel } from './sessionModel';
import type { SessionConfiguration } from '../models/fingerprint/fingerprint';

export function agentSessionConfiguration(stateDir: string, agentSession: string): SessionConfiguration {
  const model = latestMeasuredModel(stateDir, agentSession);
  const handoff = sessionStartHandoff(stateDir, agentSession);
  return { ...(model ? { model } : {}), pack: 'off', persona: false, ...(handoff === undefined ? {} : { handoff }) };
}

function sessionStartHandoff(stateDir: string, agentSession: string): boolean | undefined {
  const started = lastEvent(stateDir, (e) => e.type === 'AgentSession' && e.agentSession === agentSession, {
    mustContain: [`"agentSession":${JSON.stringify(agentSession)}`],
  });
  return typeof started?.handoff === 'boolean' ? started.handoff : undefined;
}
