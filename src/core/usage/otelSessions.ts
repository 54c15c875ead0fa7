/**
 * Which agent session a chat span belongs to, when the span does not say: the session of its
 * nearest invoke_agent ancestor (a subagent's own loop, then the parent's), else that of the trace's
 * top-level invoke_agent. Learnt from the spans seen so far, in this batch or an earlier one.
 *
 * Spans are exported when they END, so an invoke_agent usually arrives after its chat rounds (often
 * in a later batch): a chat span relies on its own `copilot_chat.session_id` first, which Copilot
 * Chat sets on every agent request (chatMLFetcher.ts: conversationId). Its BYOK providers'
 * chat spans do not carry it, and are resolved here only if their invoke_agent came first.
 */
import { BoundedMap } from './otelBounded';

/** Walking further up than this means a cycle or a runaway chain, not a real nesting of agents. */
const MAX_DEPTH = 64;

export class SpanSessions {
  /** spanId → parent spanId, for the non-chat spans (chat spans are leaves). */
  private readonly parents: BoundedMap<string, string>;
  /** spanId of an invoke_agent → its session. */
  private readonly agents: BoundedMap<string, string>;
  /** traceId → the session of its top-level invoke_agent (or of the first one seen). */
  private readonly traces: BoundedMap<string, string>;

  constructor(maxSpans: number, maxTraces: number) {
    this.parents = new BoundedMap(maxSpans);
    this.agents = new BoundedMap(maxSpans);
    this.traces = new BoundedMap(maxTraces);
  }

  /** Remembers a non-chat span's place in its trace, and an invoke_agent's session. */
  learn(traceId: string, spanId: string, parentSpanId: string | undefined, agentSession: string | undefined): void {
    if (parentSpanId) this.parents.set(spanId, parentSpanId);
    if (!agentSession) return;
    this.agents.set(spanId, agentSession);
    if (!parentSpanId || !this.traces.has(traceId)) this.traces.set(traceId, agentSession);
  }

  resolve(traceId: string, parentSpanId: string | undefined): string | undefined {
    let id = parentSpanId;
    for (let depth = 0; id && depth < MAX_DEPTH; depth++) {
      const session = this.agents.get(id);
      if (session) return session;
      id = this.parents.get(id);
    }
    return this.traces.get(traceId);
  }
}
