/**
 * The gate: one decision function for every path an agent acts through (Alfred's tools, the
 * `@alfred` loop, agent hooks), so a rule means the same thing everywhere.
 */
import { formatLimitUsd, formatUsd } from '../../base/money';
import { askMatch } from './askPatterns';
import type { BudgetStatus, Dimension, DimensionStatus } from '../budget/types';
import { DIMENSIONS } from '../budget/types';
import type { Role } from '../roles/types';
import { isNewShellInvocation, KNOWN_TOOLS } from '../vocabulary/categories';
import { DEFAULT_MAX_REPEATED_CALLS, type Repetition } from './repetition';
import { compilePatterns, toolSubject, type MatchContext, type ToolSubject } from '../vocabulary/patterns';
import { isServerPattern } from '../vocabulary/mcpServer';
import { mcpVerdict, NO_AUDIT, type McpTrust } from './mcpTrust';
import { alfredMutationIn, alfredVscodeCommandIn } from './selfGovernance';
import { firstProtectedShellWrite } from '../../protect/shellProtection';
import type { ToolCall } from './toolCall';
import { firstProtected, type ProtectedHit, type ProtectionOptions } from '../../protect/toolPaths';
import { hasSessionTool, suggestedTools, type SuggestedCategory, type Toolset } from './toolsets';
import type { GateDecision } from '../vocabulary/types';

export const SESSION_TOOL = 'ctx_session';

export interface GateInput {
  role: Role;
  /** The call as read at its entry (rules/policy/toolCall.ts): no rule here interprets the input again. */
  call: ToolCall;
  budget?: BudgetStatus;
  /** The status line (`Budget[coder]: ... → EXHAUSTED`), quoted in a budget refusal. */
  budgetLine?: string;
  /** Set when the role requires a kernel sandbox and this shell call will not run in one: the reason. */
  sandboxRefusal?: string;
  /** How often this call repeats the calls before it (rules/policy/repetition.ts). */
  repetition?: Repetition;
  /** Sub-agents running now (started by an allowed task tool, not yet finished). */
  subagentsRunning?: number;
  protectedPaths?: ProtectionOptions;
  /** The latest MCP audit (rules/policy/mcpAuditFile.ts), read only for MCP-category calls; absent: no audit. */
  mcpTrust?: () => McpTrust;
  /** Whose tools a refusal suggests instead (the caller's, rules/policy/toolsets.ts); absent: Alfred's own. */
  toolset?: Toolset;
}

export function decide(input: GateInput): GateDecision {
  const { role, call: subject } = input;
  const category = subject.category;
  const toolset = input.toolset ?? 'alfred';
  const refuse = (code: GateDecision['code'], reason: string): GateDecision =>
    ({ allowed: false, category, shellCharge: 0, code, reason });
  // First, before any rule reads the input: a shape no real tool sends is refused, never walked.
  if (subject.badShape) return refuse('invalid-input', `${subject.name || 'This call'} is refused: ${subject.badShape}. Send a plain input.`);
  // ctx_session stays callable whatever happens, so an agent can always read its budget.
  if (subject.base === SESSION_TOOL) return { allowed: true, category: 'session', shellCharge: 0 };

  if (input.budget?.signal === 'EXHAUSTED') return refuse('budget-exhausted', budgetReason(input.budget, role, toolset, input.budgetLine));
  const maxRepeats = role.limits.maxRepeatedCalls ?? DEFAULT_MAX_REPEATED_CALLS;
  if (input.repetition && maxRepeats > 0 && input.repetition.count > maxRepeats) {
    const what = input.repetition.cycle === 1 ? `the same ${subject.name} call` : `the same cycle of ${input.repetition.cycle} calls`;
    return refuse('runaway', `Alfred stops a loop: this is ${what} ${input.repetition.count} times in a row (role ${role.name} allows ${maxRepeats}). `
      + 'Repeating it will not give a different result: read the last output again, change the approach, or stop and tell the user what blocks you.');
  }

  if (category === 'shell' && role.shellPolicy === 'deny') {
    return refuse('shell-denied', `Role ${role.name} does not run shell commands (shell policy deny), so ${subject.name} is refused. ${hint(role, subject, toolset)}`);
  }
  const trust = category === 'mcp' && readsAudit(role) ? (input.mcpTrust?.() ?? NO_AUDIT) : undefined;
  const context: MatchContext | undefined = trust ? { knownServers: trust.known } : undefined;
  const denied = compilePatterns(role.tools.denied, 'deny').match(subject, context);
  if (denied !== undefined) {
    return refuse('tool-denied', `Tool ${subject.name} is denied for role ${role.name} by the pattern "${denied}". ${hint(role, subject, toolset)}`);
  }
  const allowed = role.tools.allowed;
  if (allowed !== undefined && compilePatterns(allowed, 'allow').match(subject, context) === undefined) {
    const reason = allowed.length === 0
      ? `Role ${role.name} allows no tools (allowed = []), so ${subject.name} is refused${hasSessionTool(toolset) ? `; only ${SESSION_TOOL} is callable` : ''}. Ask the user to switch role.`
      : `Tool ${subject.name} is not allowed for role ${role.name}, which allows only ${listPatterns(allowed)}. ${hint(role, subject, toolset)}`;
    return refuse('tool-not-allowed', reason);
  }
  if (trust) {
    const verdict = mcpVerdict(role.mcp, role.name, subject, trust);
    if (verdict?.action === 'deny') return refuse('mcp-untrusted', verdict.reason);
    if (verdict) return { allowed: true, category, shellCharge: 0, confirm: verdict.reason };
  }
  if (category === 'shell' && input.sandboxRefusal && subject.newShell) return refuse('sandbox-required', input.sandboxRefusal);
  const maxSubagents = role.limits.maxSubagents ?? 0;
  if (maxSubagents > 0 && subject.startsSubagent && (input.subagentsRunning ?? 0) >= maxSubagents) {
    return refuse('subagent-limit', `${subject.name} may not start another sub-agent: ${input.subagentsRunning} already run and role ${role.name} allows ${maxSubagents} at once (max_subagents). Wait for one to finish, or do the work yourself.`);
  }
  const own = category === 'shell' ? mutationOf(subject.command) : alfredVscodeCommandIn(subject.name, subject.input);
  if (own) {
    return refuse('self-governance', `${subject.name} may not run ${own}: an agent never changes its own role or budget. Ask the user to do it in VS Code (Alfred: Switch Role, Alfred: Reset Budget).`);
  }
  if ((category === 'edit' || category === 'shell') && input.protectedPaths) {
    const hit = firstProtected(subject.paths, input.protectedPaths);
    if (hit) return refuse('protected-path', protectedReason(subject.name, hit, input.protectedPaths.workspaceFolder));
  }
  if (category === 'shell' && input.protectedPaths) {
    // Best effort (shellWrites.ts): redirections and rm/mv/cp/tee/sed -i targets the line shows.
    const shot = subject.command === undefined ? undefined : firstProtectedShellWrite(subject.command, input.protectedPaths, subject.cwd);
    if (shot) return refuse('protected-path', `${protectedReason(subject.name, shot.hit, input.protectedPaths.workspaceFolder)} (the command writes it through ${shot.write.via})`);
  }
  // Last: a call every rule above lets through may still need the user's yes.
  const ask = askMatch(role.tools.ask, subject, context);
  if (ask !== undefined) {
    const what = category === 'shell' && subject.command !== undefined ? `${subject.name} running "${subject.command.slice(0, 200)}"` : subject.name;
    return { allowed: true, category, shellCharge: subject.newShell ? 1 : 0, confirm: `role ${role.name} asks the user before ${what} (the [tools] ask pattern "${ask}").` };
  }
  return { allowed: true, category, shellCharge: subject.newShell ? 1 : 0 };
}

const auditReaders = new WeakMap<Role, boolean>();

/** Whether the role's rules need the audit at all: an [mcp] rule other than allow, or an @mcp:SERVER pattern. */
function readsAudit(role: Role): boolean {
  let reads = auditReaders.get(role);
  if (reads === undefined) {
    const rules = role.mcp;
    reads = (rules !== undefined && (rules.unaudited !== 'allow' || rules.dead !== 'allow'))
      || [...(role.tools.allowed ?? []), ...role.tools.denied].some(isServerPattern);
    auditReaders.set(role, reads);
  }
  return reads;
}

function mutationOf(command: string | undefined): string | undefined {
  return command === undefined ? undefined : alfredMutationIn(command);
}

/**
 * Whether the role's rules (tool lists and shell policy, not budget or paths) let a tool through.
 * `mcpTrust` settles ambiguous MCP tool names as the gate does (and `[mcp] ... = "deny"` hides them).
 */
export function rolePermits(role: Role, tool: string, mcpTrust?: McpTrust): boolean {
  const subject = toolSubject(tool);
  if (subject.base === SESSION_TOOL) return true;
  if (subject.category === 'shell' && role.shellPolicy === 'deny') return false;
  const context: MatchContext | undefined = mcpTrust && subject.category === 'mcp' ? { knownServers: mcpTrust.known } : undefined;
  if (compilePatterns(role.tools.denied, 'deny').match(subject, context) !== undefined) return false;
  if (role.tools.allowed !== undefined && compilePatterns(role.tools.allowed, 'allow').match(subject, context) === undefined) return false;
  return !(mcpTrust && subject.category === 'mcp' && mcpVerdict(role.mcp, role.name, subject, mcpTrust)?.action === 'deny');
}

function formatDimension(dimension: Dimension, status: DimensionStatus): string {
  const amount = dimension === 'cost'
    ? `${formatUsd(status.used)}/${formatLimitUsd(status.limit)}`
    : `${Math.round(status.used)}/${Math.round(status.limit)}`;
  return `${dimension} ${amount} (${status.percent}%)`;
}

function budgetReason(budget: BudgetStatus, role: Role, toolset: Toolset, line?: string): string {
  const exhausted = DIMENSIONS.filter((d) => budget.dimensions[d]?.signal === 'EXHAUSTED')
    .map((d) => formatDimension(d, budget.dimensions[d]));
  const what = exhausted.length > 0
    ? `${joinWords(exhausted, 'and')} reached the block limit of role ${budget.role || role.name}.`
    : `the budget of role ${budget.role || role.name} reached its block limit.`;
  const callable = hasSessionTool(toolset) ? `Only ${SESSION_TOOL} is callable` : 'Every tool is refused';
  const parts = [`Budget exhausted: ${what}`, `${callable}; ask the user to reset the budget or switch role.`];
  if (line) parts.push(line);
  return parts.join(' ');
}

function protectedReason(tool: string, hit: ProtectedHit, workspace: string): string {
  if (hit.linkedTo) {
    const named = protectedReason(tool, { ...hit, path: hit.linkedTo, linkedTo: undefined }, workspace);
    return `${tool} may not write ${hit.path}: it is a hard link to ${hit.linkedTo}, so writing it writes that file. ${named}`;
  }
  switch (hit.kind) {
    case 'outside-workspace':
      return `${tool} may not write ${hit.path}: it is outside the workspace ${workspace} (directly or through a symlink). Edit files inside the workspace only.`;
    case 'state-folder':
      return `${tool} may not write ${hit.path}: it is in Alfred's state folder, which only the harness writes.`;
    case 'checks-file':
      return `${tool} may not write ${hit.path}: .alfred/checks.toml declares the acceptance checks and only the user changes it.`;
    case 'governance':
      return `${tool} may not write ${hit.path}: it sets the rules agents work under (roles, hooks, agent files, editor settings); only the user changes it, through Alfred's commands or by hand.`;
    case 'runs-later':
      return `${tool} may not write ${hit.path}: it runs later outside the sandbox, or names what runs then (a new terminal, git, npm, ssh, Python, cargo, a version manager's runtimes, the editor, or a command looked up on PATH, the acceptance checks' included); only the user changes it.`;
    case 'glob':
      return `${tool} may not write ${hit.path}: it matches the protected path "${hit.glob}". Change other files, or ask the user to change this one.`;
  }
}

interface RoleTraits {
  /** Some known edit tool or new shell command passes the role's rules. */
  writes: boolean;
  /** Per toolset, which of the tools it may suggest pass them. */
  permits: Map<Toolset, ReadonlySet<string>>;
}

// Refusals are common in a loop of a read-only role; computing the hint once per role keeps them fast.
const traitsCache = new WeakMap<Role, RoleTraits>();

function traitsOf(role: Role): RoleTraits {
  let traits = traitsCache.get(role);
  if (!traits) {
    let writes = false;
    for (const [name, category] of KNOWN_TOOLS) {
      if ((category === 'edit' || (category === 'shell' && isNewShellInvocation(name))) && rolePermits(role, name)) {
        writes = true;
        break;
      }
    }
    traits = { writes, permits: new Map() };
    traitsCache.set(role, traits);
  }
  return traits;
}

const SUGGESTED: readonly SuggestedCategory[] = ['read', 'search', 'edit', 'shell'];

function permitted(role: Role, toolset: Toolset): ReadonlySet<string> {
  const traits = traitsOf(role);
  let permits = traits.permits.get(toolset);
  if (!permits) {
    permits = new Set(SUGGESTED.flatMap((c) => suggestedTools(toolset, c)).filter((n) => rolePermits(role, n)));
    traits.permits.set(toolset, permits);
  }
  return permits;
}

/** What the model may do instead, when it is obvious from the role, named with the caller's own tools. */
function hint(role: Role, refused: ToolSubject, toolset: Toolset): string {
  const permits = permitted(role, toolset);
  const can = (name: string): boolean => name !== refused.base && permits.has(name);
  const readers = [...suggestedTools(toolset, 'read'), ...suggestedTools(toolset, 'search')].filter(can);
  if ((refused.category === 'edit' || refused.category === 'shell') && !traitsOf(role).writes && readers.length > 0) {
    return `Role ${role.name} is read-only: use ${joinWords(readers, 'or')}.`;
  }
  const twins = (SUGGESTED as readonly string[]).includes(refused.category) ? suggestedTools(toolset, refused.category as SuggestedCategory).filter(can) : [];
  if (twins.length > 0) return `Use ${joinWords(twins, 'or')} instead.`;
  return `Ask the user to switch role if ${refused.name} is needed.`;
}

function listPatterns(patterns: readonly string[]): string {
  const shown = patterns.slice(0, 12).join(', ');
  return patterns.length > 12 ? `${shown} and ${patterns.length - 12} more` : shown;
}

function joinWords(words: readonly string[], conjunction: string): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}
