import { formatUsd } from '../money';
import type { AlfredEvent } from './types';

/**
 * One sentence per event, for the dashboard's feed and `alfred events`. The core picks the sentence
 * (a template key) and its values; it never formats the words itself, so the extension can translate
 * the template with vscode.l10n (the English text is the key of l10n/bundle.l10n.es.json) and the
 * command line fills the English one. Values are data (tool and role names, paths, reasons): never
 * translated, and shortened here so a line stays readable — paths and commands in the middle, prose
 * at the end, names never.
 */
export const SUMMARY_TEMPLATES = {
  toolAllowed: 'Allowed {0} ({1})',
  toolAllowedShell: 'Allowed {0} ({1}), 1 shell call',
  toolRefused: 'Refused {0}: {1}',
  toolResult: '{0} returned {1} tokens',
  toolResultCost: '{0} returned {1} tokens, {2}',
  toolResultCostFallback: '{0} returned {1} tokens, {2} (fallback price)',
  policyViolation: 'Policy violation by {0}: {1}',
  budgetWarningTokens: 'Budget warning: context tokens {0} of {1} ({2}%)',
  budgetWarningShell: 'Budget warning: shell calls {0} of {1} ({2}%)',
  budgetWarningCost: 'Budget warning: cost {0} of {1} ({2}%)',
  budgetExhaustedTokens: 'Budget exhausted: context tokens {0} of {1} ({2}%)',
  budgetExhaustedShell: 'Budget exhausted: shell calls {0} of {1} ({2}%)',
  budgetExhaustedCost: 'Budget exhausted: cost {0} of {1} ({2}%)',
  budgetNotAllowedTokens: 'Context tokens are not allowed for this role ({0} used)',
  budgetNotAllowedShell: 'Shell calls are not allowed for this role ({0} used)',
  budgetNotAllowedCost: 'Spending is not allowed for this role ({0} used)',
  budgetReset: 'Budget reset, new session ({0})',
  roleChanged: 'Role changed from {0} to {1}',
  roleChangedBy: 'Role changed from {0} to {1} by {2}',
  roleSet: 'Role set to {0}',
  failoverFailures: 'Profile {0} switched from {1} to {2} after {3} failures in a row',
  failoverUnavailable: 'Profile {0} switched from {1} to {2}: {1} is unavailable',
  packSelected: 'Pack {0} chosen ({1})',
  configWritten: 'Configuration written: {0} ({1})',
  configWrittenMore: 'Configuration written: {0} and {1} more ({2})',
  checkPassed: 'Check {0} passed',
  checkFailed: 'Check {0} failed (exit {1})',
  checkOther: 'Check {0}: {1}',
  completionAccepted: 'Completion accepted: {0}',
  completionRejected: 'Completion not accepted: {0}',
  spendWarning: 'Daily spend warning: {0} of {1} today ({2}%)',
  spendCritical: 'Daily spend cap reached: {0} of {1} today ({2}%)',
  spendWarningFallback: 'Daily spend warning: {0} (fallback price) of {1} today ({2}%)',
  spendCriticalFallback: 'Daily spend cap reached: {0} (fallback price) of {1} today ({2}%)',
  shellExit: 'Terminal command {0} exited with {1}',
  shellNoExit: 'Terminal command {0} ran (exit code unknown)',
  hookError: 'Alfred failed in the {0} hook (the call went ahead): {1}',
  modelUsage: '{0} used {1} tokens in, {2} out',
  modelUsageCost: '{0} used {1} tokens in, {2} out, {3}',
  modelUsageCostFallback: '{0} used {1} tokens in, {2} out, {3} (fallback price)',
  operationUnknown: 'Operation {0} of {1} ended unknown: {2}',
  operationSucceeded: 'Operation {0} of {1} marked as succeeded by {2}',
  operationFailed: 'Operation {0} of {1} marked as failed by {2}',
  agentSession: 'Agent session {0} started',
  agentSessionModel: 'Agent session {0} started on {1}',
  promptSubmitted: 'Prompt submitted in session {0} ({1} characters)',
  stopAllowed: 'The agent may stop in session {0}: the checks passed',
  stopAllowedAfterLimit: 'The agent may stop in session {0}: the checks still fail after {1} continuations',
  stopBlocked: 'The agent keeps working in session {0}: the checks fail ({1} of {2} continuations)',
  authorityRole: '{0} asked to switch to role {1}: waiting for your confirmation',
  authorityReset: '{0} asked to reset the budget: waiting for your confirmation',
  authorityRoleDeclined: 'Switch to role {0} declined by {1}',
  authorityResetDeclined: 'Budget reset declined by {0}',
  subagentStarted: 'Sub-agent {0} started in session {1}',
  subagentStopped: 'Sub-agent {0} stopped in session {1}',
  compacted: 'Context compacted in session {0}',
  networkRefused: 'Sandbox refused a connection to {0} (role {1}): {2}',
  other: '{0}',
} as const;

export type SummaryKind = keyof typeof SUMMARY_TEMPLATES;

/** A sentence to be worded: numbers stay numbers, so each side writes them with its own separators. */
export interface EventSummary {
  kind: SummaryKind;
  args: Array<string | number>;
}

/** Longest value kept whole; longer ones are shortened. */
export const MAX_VALUE = 48;
const MAX_PROSE = 140;

/**
 * Keeps both ends of a path or command (where the file name and the arguments are): a path loses
 * whole folders from its middle (`/home/me/…/.vscode/settings.json`), anything else characters.
 */
export function shortenMiddle(value: string, max = MAX_VALUE): string {
  if (value.length <= max) return value;
  const tailLength = Math.floor((max - 1) / 2);
  let head = value.slice(0, max - 1 - tailLength);
  let tail = value.slice(value.length - tailLength);
  const headCut = head.lastIndexOf('/');
  const tailCut = tail.indexOf('/');
  if (headCut > 0 && tailCut >= 0) {
    head = head.slice(0, headCut + 1);
    tail = tail.slice(tailCut);
  }
  return `${head}…${tail}`;
}

/** Prose keeps its beginning, cut at a word boundary when one is near. */
export function shortenEnd(value: string, max = MAX_PROSE): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.7 ? cut.slice(0, space) : cut}…`;
}

const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
/** Amounts as every surface writes them (money.ts); `~` only on a spend that includes the fallback price. */
const usd = (n: number, estimated = false): string => formatUsd(n, { estimated });
const path = (v: unknown): string => shortenMiddle(text(v));
const prose = (v: unknown): string => shortenEnd(text(v));
const session = (v: unknown): string => shortenMiddle(text(v) || '?', 24);
const s = (kind: SummaryKind, ...args: Array<string | number>): EventSummary => ({ kind, args });

const DIMENSION_KEY = { tokens: 'Tokens', shell: 'Shell', cost: 'Cost' } as const;

function budgetCrossing(e: AlfredEvent): EventSummary {
  const dim = DIMENSION_KEY[e.dimension as keyof typeof DIMENSION_KEY];
  if (!dim) return s('other', prose(`${e.type} ${text(e.dimension)}`));
  const cost = dim === 'Cost';
  const value = (n: unknown) => (cost ? usd(num(n)) : num(n));
  if (num(e.limit) === 0) return s(`budgetNotAllowed${dim}`, value(e.used));
  return s(`${e.type === 'BudgetExhausted' ? 'budgetExhausted' : 'budgetWarning'}${dim}`, value(e.used), value(e.limit), num(e.percent));
}

function toolCall(e: AlfredEvent): EventSummary {
  const charge = (e.charge ?? {}) as { tokens?: number; shell?: number; costUsd?: number; estimated?: boolean };
  const tool = text(e.tool);
  if (e.phase === 'result') {
    if (!charge.costUsd) return s('toolResult', tool, num(charge.tokens));
    return s(charge.estimated ? 'toolResultCostFallback' : 'toolResultCost', tool, num(charge.tokens), usd(charge.costUsd, charge.estimated === true));
  }
  if (e.decision === 'deny') return s('toolRefused', tool, prose(e.reason ?? e.code));
  return s(charge.shell ? 'toolAllowedShell' : 'toolAllowed', tool, text(e.source));
}

function configWritten(e: AlfredEvent): EventSummary {
  const files = (Array.isArray(e.files) ? e.files : []).map((f) => path((f as { path?: unknown }).path));
  const reason = prose(e.reason);
  if (files.length <= 2) return s('configWritten', files.join(', '), reason);
  return s('configWrittenMore', files[0]!, files.length - 1, reason);
}

/** The request was priced with the fallback price (its charge says so; `estimated` on newer events). */
const fallbackPriced = (e: AlfredEvent): boolean => e.estimated === true || (e.charge as { estimated?: unknown } | undefined)?.estimated === true;

const SUMMARIES: Record<AlfredEvent['type'], (e: AlfredEvent) => EventSummary> = {
  ToolCall: toolCall,
  PolicyViolation: (e) => s('policyViolation', text(e.tool), prose(e.reason ?? e.code)),
  BudgetWarning: budgetCrossing,
  BudgetExhausted: budgetCrossing,
  BudgetReset: (e) => s('budgetReset', prose(e.reason)),
  RoleChanged: (e) => (!e.from ? s('roleSet', text(e.to)) : e.by ? s('roleChangedBy', text(e.from), text(e.to), prose(e.by)) : s('roleChanged', text(e.from), text(e.to))),
  ModelFailover: (e) => (e.reason === 'unavailable'
    ? s('failoverUnavailable', text(e.profile), text(e.from), text(e.to))
    : s('failoverFailures', text(e.profile), text(e.from), text(e.to), num(e.failures))),
  PackSelected: (e) => s('packSelected', text(e.pack), prose(e.reason)),
  ConfigWritten: configWritten,
  CheckRun: (e) => (e.status === 'passed' ? s('checkPassed', text(e.check))
    : e.status === 'failed' && typeof e.exitCode === 'number' ? s('checkFailed', text(e.check), e.exitCode) : s('checkOther', text(e.check), text(e.status))),
  CompletionRecorded: (e) => s(e.accepted ? 'completionAccepted' : 'completionRejected', prose(e.reason)),
  SpendWarning: (e) => s(`${e.level === 'critical' ? 'spendCritical' : 'spendWarning'}${e.estimated ? 'Fallback' : ''}`, usd(num(e.spentUsd), e.estimated === true), usd(num(e.capUsd)), num(e.percent)),
  ShellExecution: (e) => (typeof e.exitCode === 'number' ? s('shellExit', path(e.command), e.exitCode) : s('shellNoExit', path(e.command))),
  HookError: (e) => s('hookError', text(e.event), prose(e.message)),
  ModelUsage: (e) => (typeof e.costUsd === 'number'
    ? s(fallbackPriced(e) ? 'modelUsageCostFallback' : 'modelUsageCost', text(e.model), num(e.inputTokens), num(e.outputTokens), usd(e.costUsd, fallbackPriced(e)))
    : s('modelUsage', text(e.model), num(e.inputTokens), num(e.outputTokens))),
  OperationUnknown: (e) => s('operationUnknown', text(e.operation).slice(0, 8), text(e.tool), prose(e.note)),
  OperationReconciled: (e) => s(e.state === 'failed' ? 'operationFailed' : 'operationSucceeded', text(e.operation).slice(0, 8), text(e.tool), prose(e.by)),
  AgentSession: (e) => (e.model ? s('agentSessionModel', session(e.agentSession), text(e.model)) : s('agentSession', session(e.agentSession))),
  PromptSubmitted: (e) => s('promptSubmitted', session(e.agentSession), num(e.chars)),
  StopChecked: (e) => (e.decision === 'block' ? s('stopBlocked', session(e.agentSession), num(e.blocks) + 1, num(e.maxBlocks))
    : e.decision === 'allow-after-limit' ? s('stopAllowedAfterLimit', session(e.agentSession), num(e.maxBlocks)) : s('stopAllowed', session(e.agentSession))),
  AuthorityRequested: (e) => (e.action === 'reset' ? s('authorityReset', prose(e.by)) : s('authorityRole', prose(e.by), text(e.target))),
  AuthorityDeclined: (e) => (e.action === 'reset' ? s('authorityResetDeclined', prose(e.by)) : s('authorityRoleDeclined', text(e.target), prose(e.by))),
  SubagentStarted: (e) => s('subagentStarted', text(e.agentType ?? e.agentId) || '?', session(e.agentSession)),
  SubagentStopped: (e) => s('subagentStopped', text(e.agentType ?? e.agentId) || '?', session(e.agentSession)),
  Compacted: (e) => s('compacted', session(e.agentSession)),
  NetworkRefused: (e) => s('networkRefused', text(e.host), text(e.commandRole ?? e.role), path(e.command)),
};

/** The sentence of an event; an unknown type (a newer writer's log) shows its payload, shortened. */
export function describeEvent(e: AlfredEvent): EventSummary {
  const known = Object.hasOwn(SUMMARIES, e.type) ? SUMMARIES[e.type] : undefined;
  if (known) return known(e);
  const { id: _i, ts: _t, type: _ty, session: _s, role: _r, ...rest } = e;
  return s('other', shortenEnd(`${text(e.type)} ${JSON.stringify(rest)}`));
}

/** Fills `{0}`… of a template; numbers are written by `number` (the command line: plain digits). */
export function fillTemplate(template: string, args: ReadonlyArray<string | number>, number: (n: number) => string = String): string {
  return template.replace(/\{(\d+)\}/g, (_, i: string) => {
    const v = args[Number(i)];
    return v === undefined ? '' : typeof v === 'number' ? number(v) : v;
  });
}

/** The English sentence (the command line's `alfred events`). */
export function summarizeEvent(e: AlfredEvent): string {
  const { kind, args } = describeEvent(e);
  return fillTemplate(SUMMARY_TEMPLATES[kind], args);
}
