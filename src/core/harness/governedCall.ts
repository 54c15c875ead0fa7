/**
 * One governed tool call, the same on every path: the gate decides (and charges a new shell
 * invocation, atomically), the tool runs, its output is charged, and at WARNING the budget line
 * comes back with the result. Alfred's LM tools and `@alfred`'s loop run the whole of it; the hooks,
 * whose halves run in two processes (PreToolUse, PostToolUse), run `decideCall` and `chargeCall`.
 */
import type { NewEvent } from '../base/events/types';
import type { RefusalCode } from '../rules/vocabulary/types';
import type { ToolCall } from '../rules/policy/toolCall';
import type { Toolset } from '../rules/policy/toolsets';
import type { AuthorizeResult, ChargeResult } from '../ledger/govern';

/** Who makes a governed call and how: the path, the model, and what a hook adds. */
export interface CallOrigin {
  /** `tool`, `chat`, `hook:PreToolUse`, … */
  source: string;
  model?: string;
  /** For a shell call that will run in a VS Code terminal: the line it will show (not charged twice). */
  terminalCommand?: string;
  /** The hook rewrote the command to run in the kernel sandbox. */
  sandboxed?: boolean;
  /** The agent session of a hook input. */
  agentSession?: string;
  /** Give the agent the budget line at the first hook after a crossing (hooks). */
  announce?: boolean;
  /** Whose tools a refusal suggests instead (a hook's agent); absent: Alfred's own. */
  toolset?: Toolset;
}

/** The part of the harness a governed call needs. */
export interface CallGovernor {
  authorize(call: ToolCall, origin: CallOrigin): Promise<AuthorizeResult>;
  chargeOutput(call: ToolCall, output: string, origin: CallOrigin & { costMeasured?: boolean }): Promise<ChargeResult>;
  record(events: NewEvent[]): Promise<unknown>;
}

const REFUSAL = 'GovernedRefusal';

/**
 * The gate's refusal of one call, as an error: Alfred's LM tools throw it, so the model gets an error
 * result. VS Code passes a tool's error to `lm.invokeTool`'s caller with its name and message only,
 * so `@alfred`'s loop recognises it by name (`isRefusal`), per call.
 */
export class GovernedRefusal extends Error {
  override readonly name = REFUSAL;

  constructor(
    message: string,
    readonly details: { tool: string; role: string; code?: RefusalCode; reason?: string },
  ) {
    super(message);
  }

  static fromGate(call: ToolCall, gate: AuthorizeResult): GovernedRefusal {
    const { reason, code } = gate.decision;
    return new GovernedRefusal(reason ?? `${call.name} was refused by role ${gate.status.role}.`, {
      tool: call.name, role: gate.status.role, ...(code ? { code } : {}), ...(reason ? { reason } : {}),
    });
  }

  /** A refusal, thrown here or passed through VS Code's tool invocation (which keeps the name). */
  static isRefusal(err: unknown): boolean {
    return err instanceof Error && err.name === REFUSAL;
  }
}

export type Decided =
  | { allowed: true; gate: AuthorizeResult }
  | { allowed: false; gate: AuthorizeResult; refusal: GovernedRefusal };

/** The decision half: the gate, decided and charged atomically. */
export async function decideCall(harness: CallGovernor, call: ToolCall, origin: CallOrigin): Promise<Decided> {
  const gate = await harness.authorize(call, origin);
  return gate.decision.allowed ? { allowed: true, gate } : { allowed: false, gate, refusal: GovernedRefusal.fromGate(call, gate) };
}

/** Asks the user whether a call the role wants confirmed ([mcp] ... = "ask") may run; true: it may. */
export type ConfirmCall = (reason: string) => Promise<boolean>;

export interface ChargedOutput {
  charged: ChargeResult;
  /** Appended to the tool's result when the budget is past OK: the budget line. */
  warning?: string;
}

/** The charge half: the output's tokens (and their estimated cost, unless measured) charged. */
export async function chargeCall(harness: CallGovernor, call: ToolCall, output: string, origin: CallOrigin & { costMeasured?: boolean }): Promise<ChargedOutput> {
  const charged = await harness.chargeOutput(call, output, origin);
  return charged.status.signal === 'OK' ? { charged } : { charged, warning: `\n\n⚠ ${charged.line}` };
}

/** What the tool gave: the text charged and shown to the model, and whatever else the caller keeps. */
export interface RanTool<T> {
  output: string;
  value: T;
}

export type GovernedOutcome<T> =
  | { kind: 'refused'; refusal: GovernedRefusal }
  | { kind: 'ran'; output: string; value: T; charged: ChargeResult; warning?: string }
  | { kind: 'failed'; error: Error };

/**
 * authorize → run → charge the output → warning. A refused call never runs; a call whose tool
 * throws is a failure and charges nothing (the caller decides whether a cancellation ends its turn).
 */
export async function governedCall<T>(harness: CallGovernor, call: ToolCall, origin: CallOrigin, run: () => Promise<RanTool<T>>, confirm?: ConfirmCall): Promise<GovernedOutcome<T>> {
  const decided = await decideCall(harness, call, origin);
  if (!decided.allowed) return { kind: 'refused', refusal: decided.refusal };
  const ask = decided.gate.decision.confirm;
  // A path that cannot ask refuses: "ask" never degrades into a silent allow.
  if (ask && !(confirm && await confirm(ask))) {
    const reason = `${ask} ${confirm ? 'The user did not confirm it.' : 'Nobody can be asked here, so it is refused.'}`;
    // The gate logged the call as allowed pending the question: the log must also say it did not run.
    await harness.record([{ type: 'PolicyViolation', tool: call.name, category: decided.gate.decision.category, code: 'not-confirmed', reason, source: origin.source }]);
    return { kind: 'refused', refusal: new GovernedRefusal(reason, { tool: call.name, role: decided.gate.status.role, code: 'not-confirmed', reason }) };
  }
  let ran: RanTool<T>;
  try {
    ran = await run();
  } catch (err) {
    return { kind: 'failed', error: err instanceof Error ? err : new Error(String(err)) };
  }
  const { charged, warning } = await chargeCall(harness, call, ran.output, origin);
  return { kind: 'ran', output: ran.output, value: ran.value, charged, ...(warning ? { warning } : {}) };
}
