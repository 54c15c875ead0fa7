/** The dashboard webview's messages and the state snapshot it renders. */
import { command, notification } from './ipc';
import type { TrialsView } from './trials';
import type { McpAuditView } from './mcp';
import type { ModelsView } from './models';

export type SignalView = 'OK' | 'WARNING' | 'EXHAUSTED';

export interface DimensionView {
  used: number;
  limit: number;
  percent: number;
  signal: SignalView;
}

export interface BudgetView {
  role: string;
  signal: SignalView;
  /** The exact budget line, as in the status bar's tooltip. */
  line: string;
  costEstimated: boolean;
  session: string;
  dimensions: { tokens: DimensionView; shell: DimensionView; cost: DimensionView };
}

export interface RoleView {
  name: string;
  source: string;
  description: string;
  shellPolicy: string;
  inherits?: string;
}

export interface ProblemView {
  path: string;
  key: string;
  message: string;
  severity: 'error' | 'warning';
}

export interface EventView {
  id: string;
  ts: string;
  type: string;
  /** One line a person can read. */
  summary: string;
  /** The whole record, pretty-printed. */
  json: string;
}

export interface CheckView {
  name: string;
  run: string;
  required: boolean;
  /** passed | failed | timed out | cancelled | error | skipped */
  status: string;
  exitCode: number | null;
  durationMs: number;
  outputTail: string;
}

/** One completion record (the proof of a "done" decision), newest first in the list. */
export interface CompletionView {
  id: string;
  ts: string;
  accepted: boolean;
  reason: string;
  trigger: string;
  role: string;
  snapshot: { kind: 'commit' | 'digest'; id: string; short: string; stable: boolean; git: boolean; changedCount?: number };
  checks: CheckView[];
}

/** An operation whose outcome is unknown (timeout, closed window, crash), waiting for the user. */
export interface OperationView {
  id: string;
  tool: string;
  summary: string;
  createdAt: string;
  note?: string;
}

export interface CompletionsView {
  completions: CompletionView[];
  operations: OperationView[];
}

/** Today's spend (UTC) against `alfred.dailyBudgetUsd`; advisory, never blocking. */
export interface DailySpendView {
  day: string;
  spentUsd: number;
  /** null: no daily cap set. */
  capUsd: number | null;
  percent: number | null;
  signal: SignalView;
  estimated: boolean;
}

/** One model of a failover chain; `state` and `failures` come with the failover capability. */
export interface FailoverLinkView {
  label: string;
  state?: 'active' | 'failing' | 'unavailable' | 'standby';
  /** Consecutive failures (failing n/2). */
  failures?: number;
}

export interface FailoverProfileView {
  name: string;
  links: FailoverLinkView[];
}

export interface FailoverView {
  /** The profile `@alfred` uses now; null: the chat's own model. */
  active: string | null;
  /** Configured profiles (`alfred.profiles`); empty: none. */
  profiles: FailoverProfileView[];
  problems?: string[];
}

/** The pack the radar chose last (filled by the packs capability). */
export interface PackView {
  name: string;
  /** Why: the trigger words, the repo hint, or sticky. */
  reason: string;
  ts?: string;
}

/** When an agent hook last ran Alfred here (the newest `hook:` event of the log). */
export interface HookRunView {
  ts: string;
  /** The hook event as the agent named it: PreToolUse, preToolUse, Stop, … */
  event: string;
  tool?: string;
  /** Alfred failed while handling it (a HookError: the call went ahead). */
  failed: boolean;
}

/** One governed agent (src/core/protect/agents.ts) and whether its hooks are really in force. */
export interface AgentGovernanceView {
  id: GovernedAgent;
  /** The agent's name: Copilot in VS Code, Copilot CLI, Claude Code, Codex. */
  label: string;
  /** Its hook file, workspace-relative. */
  hookFile: string;
  state: 'governed' | 'not-governed' | 'not-in-force';
  /** "Governed", "Not governed" or "Installed but not in force: <why>", in the user's language. */
  stateText: string;
  /** True and worth knowing (e.g. VS Code's own agent skips .claude hooks; Claude Code reads them). */
  notes: string[];
  /** Signs that something is off (e.g. tool calls with no hook run recorded). */
  warnings: string[];
}

/** Whether this workspace's agents run under Alfred's hooks. */
export interface GovernanceView {
  /** One row per governed agent, in the order of the core's table. */
  agents: AgentGovernanceView[];
  lastHook: HookRunView | null;
  /** Whether shell commands run in the kernel sandbox (src/core/sandbox/status.ts), said in the user's language. */
  sandbox: { state: 'kernel' | 'parsing' | 'refused' | 'off'; text: string };
  /** Which sandbox holds each agent's terminal commands (VS Code's own or Alfred's); `short`: VS Code's is on but lacks Alfred's rules (the command is offered). */
  vscodeSandbox: { text: string; short: boolean };
}

/** Model calls, tokens and cost of one agent session or one model. A request with no price is priced with the fallback price, kept apart. */
export interface UsageTotalsView {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Tokens the agent or provider reported, priced from Alfred's table. */
  measuredUsd: number;
  /** Tokens Alfred counted itself, priced from the table. */
  estimatedUsd: number;
  /** Requests whose model had a price (calls − priced were priced with the fallback price). */
  priced: number;
  /** Cost of the requests priced with the fallback price: an estimate, always named as such. */
  fallbackUsd: number;
}

/** One agent session of the day: its model use (usage.jsonl) and the tool calls its hooks made. */
export interface AgentSessionView extends UsageTotalsView {
  /** The agent's session id, or `(source)` when it did not say. */
  session: string;
  /** `claude-transcript`, `copilot-otel`, `copilot-cli-otel`, `chat`, `tool`, `hook:PreToolUse`, … */
  source: string;
  models: string[];
  /** Its latest request or tool call (ISO time). */
  lastSeen: string;
  toolCalls: number;
  refused: number;
  shellCalls: number;
}

/** The agents' model spend of the UTC day, per agent session and per model. */
export interface AgentUsageView {
  day: string;
  sessions: AgentSessionView[];
  models: Array<{ model: string } & UsageTotalsView>;
}

/** A team budget the active role's calls fall under (src/core/ledger/team/), with its exact line. */
export interface TeamBudgetView {
  name: string;
  period: string;
  signal: SignalView;
  line: string;
}

/** A refusal on any machine of the team, from the team's audit trail. */
export interface TeamRefusalView {
  id: string;
  ts: string;
  user: string;
  machine: string;
  summary: string;
}

export interface TeamView {
  team: string;
  budgets: TeamBudgetView[];
  /** Newest first. */
  refusals: TeamRefusalView[];
  /** Why the team ledger could not be read; the budgets are then unknown. */
  error: string | null;
}

/** The ids of src/core/protect/agents.ts (the adapter checks that they match). */
export type GovernedAgent = 'copilot' | 'copilot-cli' | 'claude-code' | 'codex' | 'gemini';

/**
 * The whole dashboard. A capability that comes later adds its fields here and a section to
 * src/vscode/webviews/dashboardSectionList.ts (the host events it follows, how it computes them);
 * the host then sends them in the first snapshot and as StatePatchNotification when they change.
 */
export interface DashboardState {
  workspace: string | null;
  trusted: boolean;
  activeRole: string;
  budget: BudgetView | null;
  roles: RoleView[];
  problems: ProblemView[];
  events: EventView[];
  logPath: string | null;
  dailySpend: DailySpendView | null;
  failover: FailoverView;
  pack: PackView | null;
  /** Completion records, newest first. */
  completions: CompletionView[];
  /** Operations in state `unknown`, newest first. */
  operations: OperationView[];
  /** null without a workspace. */
  governance: GovernanceView | null;
  /** null without a workspace. */
  agentUsage: AgentUsageView | null;
  /** Each suite with recorded trials and its comparisons (protocol/trials.ts); null without a workspace. */
  trials: TrialsView | null;
  /** The MCP servers and their latest audit (protocol/mcp.ts); null without a workspace. */
  mcp: McpAuditView | null;
  /** Team budgets and refusals across the team; null without a team ledger (ALFRED_LEDGER_URL). */
  team: TeamView | null;
  /** Where a first answer comes from: the models VS Code lists, Alfred's providers, local servers (protocol/models.ts). */
  models: ModelsView | null;
}

// webview → host
/** The page is ready: the host answers with one StateNotification, the whole state. */
export const ReadyCommand = command<void>('ready');
export const SwitchRoleCommand = command<{ role: string }>('role/switch');
export const ResetBudgetCommand = command<void>('budget/reset');
export const OpenEventLogCommand = command<void>('log/open');
export const NewRoleCommand = command<void>('role/new');
export const EditRoleCommand = command<{ role: string }>('role/edit');
export const VerifyCompletionCommand = command<void>('completion/verify');
export const ReconcileOperationCommand = command<{ id: string; state: 'succeeded' | 'failed' }>('operation/reconcile');
/** Runs Alfred: Govern … / Stop Governing … for that agent (the write pipeline asks for confirmation). */
export const SetGovernanceCommand = command<{ agent: GovernedAgent; govern: boolean }>('governance/set');
export const ConfigureVscodeSandboxCommand = command<void>('governance/vscodeSandbox');

// host → webview
/** The whole state: after ReadyCommand, and when the view is shown again (nothing is sent while it is hidden). */
export const StateNotification = notification<DashboardState>('state');
/** One new event, for the feed (newest first). */
export const EventNotification = notification<EventView>('event');
/** One section's fields changed: merged into the current state. */
export const StatePatchNotification = notification<Partial<DashboardState>>('state/patch');
