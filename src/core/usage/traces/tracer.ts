/**
 * Per governed call, a trace (ARCHITECTURE.md: Operations, handoffs and traces): model, tool, decision, latency, token counts
 * apart from the estimated cost, the harness version; secrets redacted. The Harness calls it from
 * authorize and chargeOutput; a trace that cannot be written never fails the call.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HarnessFingerprint } from '../../models/fingerprint/fingerprint';
import { appendTrace, type TraceEntry, type TraceTokens } from './log';
import { createRedactor, redactToolInput, workspaceEnvSecrets, type Redactor } from '../../base/secrets/redact';

/** Tool inputs are kept this short in traces: enough to know what was asked. */
const MAX_INPUT_STRING = 500;
const MAX_PENDING = 64;

export interface TraceContext {
  role: string;
  session: string | null;
  model?: string;
  source: string;
  /** The configuration, when the caller knows more of it than the model (the chat's pack and persona). */
  fingerprint?: HarnessFingerprint;
}

export class Tracer {
  private redactor: Redactor | undefined;
  private envStamp = '';
  /** Start times of allowed calls, per tool and source, so a result can tell its latency. */
  private readonly pending = new Map<string, number[]>();

  constructor(
    private readonly stateDir: string, private readonly workspaceFolder: string, private readonly version: () => string,
    /** The harness configuration for a call to this model (unknown parts are `n/a`). */
    private readonly fingerprint?: (model: string | undefined) => HarnessFingerprint,
  ) {}

  /** `at`: when the call was decided (default now), for a trace written after the caller's answer. */
  async decision(ctx: TraceContext & { tool: string; decision: 'allow' | 'deny'; code?: string; reason?: string; input?: unknown; startedAt: number; at?: number }): Promise<void> {
    const now = ctx.at ?? Date.now();
    if (ctx.decision === 'allow') this.remember(ctx.tool, ctx.source, ctx.startedAt);
    let entry: TraceEntry;
    try {
      const r = this.redact();
      // An input the gate refused for its shape is not kept: it is what would break a trace.
      const input = ctx.input !== undefined && ctx.code !== 'invalid-input' ? { input: shorten(redactToolInput(r, ctx.input)) } : {};
      entry = {
        ...this.base('decision', ctx, now), tool: ctx.tool, decision: ctx.decision,
        ...(ctx.code ? { code: ctx.code } : {}), ...(ctx.reason ? { reason: r.text(ctx.reason) } : {}),
        ...input, latencyMs: now - ctx.startedAt,
      };
    } catch (err) {
      // A trace never changes a decision that was already made and charged.
      console.warn(`[alfred] could not trace a decision: ${(err as Error).message}`);
      return;
    }
    await this.write(entry);
  }

  async result(ctx: TraceContext & { tool: string; tokens: TraceTokens; costUsd: number; estimated: boolean; at?: number }): Promise<void> {
    const now = ctx.at ?? Date.now();
    const started = this.pending.get(key(ctx.tool, ctx.source))?.shift();
    await this.write({
      ...this.base('result', ctx, now), tool: ctx.tool, latencyMs: started === undefined ? null : now - started,
      tokens: ctx.tokens, costUsd: ctx.costUsd, costEstimated: ctx.estimated,
    });
  }

  /** A model request made by a caller that knows its usage (the chat participant's loop). */
  async model(ctx: TraceContext & { latencyMs: number | null; tokens: TraceTokens; costUsd: number; estimated: boolean }): Promise<void> {
    await this.write({ ...this.base('model', ctx), latencyMs: ctx.latencyMs, tokens: ctx.tokens, costUsd: ctx.costUsd, costEstimated: ctx.estimated });
  }

  private base(kind: TraceEntry['kind'], ctx: TraceContext, at = Date.now()): Omit<TraceEntry, 'latencyMs'> {
    return { v: 1, ts: new Date(at).toISOString(), kind, source: ctx.source, model: ctx.model || null, role: ctx.role, session: ctx.session, harness: this.version(),
      ...(ctx.fingerprint ? { fingerprint: ctx.fingerprint } : this.fingerprint ? { fingerprint: this.fingerprint(ctx.model) } : {}) };
  }

  private remember(tool: string, source: string, startedAt: number): void {
    const k = key(tool, source);
    const list = this.pending.get(k) ?? [];
    list.push(startedAt);
    if (list.length > MAX_PENDING) list.shift();
    this.pending.set(k, list);
  }

  private async write(entry: TraceEntry): Promise<void> {
    try {
      await appendTrace(this.stateDir, entry);
    } catch (err) {
      console.warn(`[alfred] could not write a trace: ${(err as Error).message}`);
    }
  }

  /** The redactor, rebuilt when a `.env*` file at the workspace's top changed. */
  private redact(): Redactor {
    const stamp = envStamp(this.workspaceFolder);
    if (!this.redactor || stamp !== this.envStamp) {
      this.redactor = createRedactor(workspaceEnvSecrets(this.workspaceFolder));
      this.envStamp = stamp;
    }
    return this.redactor;
  }
}

const key = (tool: string, source: string): string => `${source}\0${tool}`;

function envStamp(folder: string): string {
  try {
    return fs.readdirSync(folder).filter((n) => n.startsWith('.env')).map((n) => {
      try {
        const st = fs.statSync(path.join(folder, n));
        return `${n}:${st.mtimeMs}:${st.size}`;
      } catch {
        return n;
      }
    }).join('|');
  } catch {
    return '';
  }
}

function shorten(v: unknown): unknown {
  if (typeof v === 'string') return v.length > MAX_INPUT_STRING ? `${v.slice(0, MAX_INPUT_STRING)}… [${v.length - MAX_INPUT_STRING} more characters]` : v;
  if (Array.isArray(v)) return v.slice(0, 20).map(shorten);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shorten(x)]));
  return v;
}
