/**
 * The atomic decide-and-charge used by every path (extension tools, `@alfred`, hooks): the budget
 * is read, the gate decides, the call is charged and logged under one lock, so concurrent agents
 * can never overspend between the check and the charge.
 */
import { budgetStatus, crossingsFrom, formatBudgetLine, signalsOf, type Crossing } from '../rules/budget/status';
import type { BudgetStatus } from '../rules/budget/types';
import type { AlfredEvent, NewEvent } from '../base/events/types';
import type { GateDecision, ToolCategory } from '../rules/vocabulary/types';
import type { Role } from '../rules/roles/types';
import { applyCharge } from './ledgerFold';
import { readLedger, zeroUsage, type Ledger } from './ledgerFormat';
import type { TransactContext } from './ledgerBackend';
import { transact } from './ledgerStore';
import { rememberCharged, takeCharged } from './terminalClaims';
import { callFingerprint, MAX_RECENT_CALLS, repetitionAtEnd, type Repetition } from '../rules/policy/repetition';
import { startsSubagent } from '../rules/vocabulary/categories';

export interface AuthorizeRequest {
  role: Role;
  tool: string;
  /** Given to the caller's `decide` through its closure; never written to the log (it may hold secrets). */
  toolInput?: unknown;
  /** As the caller's ToolCall has them (rules/policy/toolCall.ts); worked out from `tool` and `toolInput` when absent. */
  fingerprint?: string;
  startsSubagent?: boolean;
  /** Which path asked: `tool`, `chat`, `hook:PreToolUse`, … */
  source: string;
  /** For a shell call that will run in a VS Code terminal: the line the terminal will show, so its run is not charged twice. */
  terminalCommand?: string;
  /** The agent session that made the call (a hook input's session id), so usage can be shown per session. */
  agentSession?: string;
  /** The gate (rules/policy/gate.ts), given the budget as it stands before this call and what the ledger remembers. */
  decide: (budget: BudgetStatus, context: CallContext) => GateDecision;
  /** The caller gives the agent the budget line when a crossing is unannounced (hooks): see `takeCrossing`. */
  announce?: boolean;
  /**
   * Team budgets (ledger/team/teamLedger.ts), asked under the lock once the gate allowed: they may refuse
   * (nothing is charged then) and charge the team. Absent without a team ledger.
   */
  team?: (decision: GateDecision) => Promise<GateDecision>;
}

/** What the gate needs from the ledger beyond the budget. */
export interface CallContext {
  /** How often this call repeats the calls before it (the runaway guard). */
  repetition: Repetition;
  /** Sub-agents running now. */
  subagentsRunning: number;
}

export interface GovernResult {
  status: BudgetStatus;
  /** `formatBudgetLine(status)`. */
  line: string;
  /** Dimensions that crossed a threshold with this call (each reported once per crossing). */
  crossed: Crossing[];
  /**
   * Only for a caller that asked (`announce`): give the agent the budget line now. A crossing, by
   * this call or any charge since the last announcement, was taken from the ledger by this call.
   */
  announce?: boolean;
  /** Everything written to the log, complete: push these onto the in-process bus. */
  events: AlfredEvent[];
  /** Problems worked around (a corrupt ledger rebuilt from the log). */
  problems: string[];
}

export interface AuthorizeResult extends GovernResult {
  decision: GateDecision;
  /** The budget session the call was decided in. */
  session: string;
}

export interface ChargeResult extends GovernResult {
  /** The budget session charged. */
  session: string;
  /** What was charged, as counted (the request's amounts, a negative or non-finite one as 0). */
  charged: { tokens: number; costUsd: number; estimated: boolean };
}

export interface ChargeRequest {
  role: Role;
  tool: string;
  category?: ToolCategory;
  /** As in AuthorizeRequest. */
  startsSubagent?: boolean;
  /** Tokens in the tool's output (context tokens). */
  tokens: number;
  costUsd: number;
  /** The cost was priced with the fallback price. */
  estimated: boolean;
  source: string;
  /** As in AuthorizeRequest. */
  announce?: boolean;
}

const count = (n: number | undefined): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0);

/** What one event charged: its `charge` field. */
export interface EventCharge {
  tokens?: number;
  shell?: number;
  costUsd?: number;
  /** Some of the cost was priced with the fallback price. */
  estimated?: true;
}

/**
 * The one way a charge reaches the ledger, on every path (a decision's shell invocation, a tool's
 * output, a terminal's command, a model request, a measured one): the amounts given (a negative or
 * non-finite one as 0) become the `charge` field of the event that logs them, and are added to the
 * ledger by the function the fold adds that field back with when it rebuilds the ledger from the log
 * (ledgerFold.ts, applyCharge); the team ledger copies the same field. So the ledger, its log and
 * the team's budgets cannot disagree. A cost is marked estimated only when there is one.
 */
export function chargeLedger(ledger: Ledger, amounts: { tokens?: number; shell?: number; costUsd?: number; estimated?: boolean }): EventCharge {
  const charge: EventCharge = {};
  if (amounts.tokens !== undefined) charge.tokens = count(amounts.tokens);
  if (amounts.shell !== undefined) charge.shell = count(amounts.shell);
  if (amounts.costUsd !== undefined) charge.costUsd = count(amounts.costUsd);
  if (amounts.estimated && charge.costUsd) charge.estimated = true;
  applyCharge(ledger, charge);
  return charge;
}

/** Updates the reported signals and returns the crossing events (BudgetWarning / BudgetExhausted). */
export function settle(ledger: Ledger, role: Role): { status: BudgetStatus; line: string; crossed: Crossing[]; events: NewEvent[] } {
  const status = budgetStatus(role, ledger.usage, ledger.costEstimated);
  const line = formatBudgetLine(status);
  const crossed = crossingsFrom(ledger.signals, status);
  // Follow the current level, down as well as up, so a raised limit can warn again later.
  ledger.signals = signalsOf(status);
  // Whichever charge crossed (a measured request between two hooks, a terminal), the next hook tells the agent.
  if (crossed.length > 0) ledger.crossingUnannounced = true;
  const events: NewEvent[] = crossed.map(({ dimension, to }) => {
    const d = status.dimensions[dimension];
    return {
      type: to === 'EXHAUSTED' ? 'BudgetExhausted' : 'BudgetWarning',
      dimension, used: d.used, limit: d.limit, percent: d.percent, line,
    };
  });
  return { status, line, crossed, events };
}

/**
 * Takes the unannounced crossing, under the lock: of two hooks at once, one announces it. Nothing
 * to announce once the signal is back to OK (a raised limit). `carries`: the answer can hold the
 * line; a refusal for another reason than the budget cannot, and leaves it for the next hook.
 */
function takeCrossing(ledger: Ledger, status: BudgetStatus, carries: boolean): boolean {
  if (!ledger.crossingUnannounced || !carries) return false;
  delete ledger.crossingUnannounced;
  return status.signal !== 'OK';
}

/**
 * A call the gate allowed is refused while the ledger's database cannot be reached and the role fails
 * closed offline (state/pgLedger): the budget that counts is the database's, which cannot be asked.
 * `ctx_session` stays callable, as at an exhausted budget, so an agent can still read its budget.
 */
function failClosed(decision: GateDecision, role: Role, tool: string, context: TransactContext): GateDecision {
  const offline = context.offline;
  if (!decision.allowed || !offline?.failClosed || tool === 'ctx_session') return decision;
  return {
    ...decision, allowed: false, shellCharge: 0, code: 'budget-exhausted',
    reason: `The ledger database cannot be reached (${offline.reason}), and role ${role.name} fails closed when it is offline (.alfred/team.toml, [offline]). Try again once the database is back.`,
  };
}

/** Decides a tool call and, when allowed, charges its shell invocation; logs a ToolCall either way. */
export async function authorize(dir: string, req: AuthorizeRequest): Promise<AuthorizeResult> {
  const { role, tool, source } = req;
  const out = await transact(dir, role.name, (ledger, context) => {
    const before = budgetStatus(role, ledger.usage, ledger.costEstimated);
    const recent = [...(ledger.recentCalls ?? []), req.fingerprint ?? callFingerprint(tool, req.toolInput)].slice(-MAX_RECENT_CALLS);
    ledger.recentCalls = recent;
    const decided = failClosed(req.decide(before, { repetition: repetitionAtEnd(recent), subagentsRunning: ledger.subagentsRunning ?? 0 }), role, tool, context);
    // Without a team ledger this stays synchronous, as it always was.
    return decided.allowed && req.team ? req.team(decided).then((d) => charged(ledger, d)) : charged(ledger, decided);
  }, { effects: req.team !== undefined });
  function charged(ledger: Ledger, decision: GateDecision): { events: NewEvent[]; result: Omit<AuthorizeResult, 'events' | 'problems'> } {
    if (decision.allowed && (req.startsSubagent ?? startsSubagent(tool))) ledger.subagentsRunning = (ledger.subagentsRunning ?? 0) + 1;
    const charge = chargeLedger(ledger, { shell: decision.allowed ? count(decision.shellCharge) : 0 });
    if (charge.shell && req.terminalCommand) ledger.terminalCharged = rememberCharged(ledger.terminalCharged, req.terminalCommand);
    const settled = settle(ledger, role);
    // A budget refusal quotes the line itself; any other refusal says nothing of the budget.
    const announce = req.announce === true && takeCrossing(ledger, settled.status, decision.allowed || decision.code === 'budget-exhausted');
    const verdict = decision.allowed ? 'allow' : 'deny';
    const events: NewEvent[] = [{
      type: 'ToolCall', phase: 'decision', tool, category: decision.category, decision: verdict,
      ...(decision.code ? { code: decision.code } : {}),
      ...(decision.reason ? { reason: decision.reason } : {}),
      source, ...(req.agentSession ? { agentSession: req.agentSession } : {}), charge,
    }];
    if (!decision.allowed) {
      events.push({ type: 'PolicyViolation', tool, category: decision.category, code: decision.code, reason: decision.reason, source });
    }
    events.push(...settled.events);
    return { events, result: { decision, status: settled.status, line: settled.line, crossed: settled.crossed, announce, session: ledger.session } };
  }
  const { decision, status, line, crossed, announce, session } = out.result;
  return { decision, status, line, crossed, ...(announce ? { announce } : {}), session, events: out.events, problems: out.problems };
}

/**
 * Charges a finished call's output tokens and cost, logged as a `ToolCall` event with
 * `phase: 'result'` (the one written by `authorize` has `phase: 'decision'`).
 */
export async function charge(dir: string, req: ChargeRequest): Promise<ChargeResult> {
  const { role, tool, source } = req;
  const tokens = count(req.tokens);
  const costUsd = count(req.costUsd);
  const out = await transact(dir, role.name, (ledger) => {
    // A task tool's result: the sub-agent it started has finished.
    if ((req.startsSubagent ?? startsSubagent(tool)) && ledger.subagentsRunning) ledger.subagentsRunning -= 1;
    const charge = chargeLedger(ledger, { tokens, costUsd, estimated: req.estimated });
    const settled = settle(ledger, role);
    const announce = req.announce === true && takeCrossing(ledger, settled.status, true);
    const events: NewEvent[] = [{
      type: 'ToolCall', phase: 'result', tool, ...(req.category ? { category: req.category } : {}), source, charge,
    }, ...settled.events];
    return { events, result: { ...settled, announce, session: ledger.session } };
  });
  const { status, line, crossed, announce, session } = out.result;
  const charged = { tokens, costUsd, estimated: req.estimated && costUsd > 0 };
  return { status, line, crossed, ...(announce ? { announce } : {}), session, charged, events: out.events, problems: out.problems };
}

export interface ObserveShellRequest {
  role: Role;
  command: string;
  exitCode: number | undefined;
  cwd?: string;
  source: string;
}

export interface ObserveShellResult extends GovernResult {
  /** The role's shell policy is `deny`: the command ran anyway (a terminal cannot be blocked). */
  violation: boolean;
}

/**
 * A shell command Alfred saw but could not stop (a user's or an agent's terminal): it is charged as
 * one shell invocation and logged; under `shell_policy = "deny"` it is also a PolicyViolation.
 */
export async function observeShell(dir: string, req: ObserveShellRequest): Promise<ObserveShellResult> {
  const { role } = req;
  const denied = role.shellPolicy === 'deny';
  const out = await transact(dir, role.name, (ledger) => {
    const taken = takeCharged(ledger.terminalCharged, req.command);
    ledger.terminalCharged = taken.left;
    const charge = chargeLedger(ledger, { shell: taken.charged ? 0 : 1 });
    const settled = settle(ledger, role);
    const events: NewEvent[] = [{
      type: 'ShellExecution', command: req.command, exitCode: req.exitCode ?? null, ...(req.cwd ? { cwd: req.cwd } : {}),
      source: req.source, charge, ...(taken.charged ? { chargedBy: 'hook' } : {}),
    }];
    // An agent's command its hook allowed is no violation; a person's (or an unhooked agent's) under deny is.
    const violation = denied && !taken.charged;
    if (violation) {
      events.push({
        type: 'PolicyViolation', tool: 'terminal', category: 'shell', code: 'shell-denied', source: req.source,
        reason: `Role ${role.name} does not run shell commands (shell policy deny), but "${req.command}" ran in a terminal, which Alfred can only observe.`,
      });
    }
    events.push(...settled.events);
    return { events, result: { ...settled, violation } };
  });
  const { status, line, crossed, violation } = out.result;
  return { status, line, crossed, events: out.events, problems: out.problems, violation };
}

/** The budget as it stands, without the lock (for display). Zero when the ledger is another role's. */
export function currentStatus(dir: string, role: Role): BudgetStatus {
  const ledger = readLedger(dir);
  const same = ledger?.role === role.name;
  return budgetStatus(role, same ? ledger.usage : zeroUsage(), same ? ledger.costEstimated : false);
}
