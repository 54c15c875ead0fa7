/**
 * Every English string the dashboard shows. The host translates them with vscode.l10n and hands the
 * table to the page; a unit test checks that each t('…') in webview/dashboard is listed here.
 */
import { MCP_STRINGS } from './mcp';
import { TRIALS_STRINGS } from './trials';

export const DASHBOARD_STRINGS: readonly string[] = [
  'Active role', 'All events', 'Budget', 'Budget line', 'Context tokens', 'Cost', 'Cost (estimated)', 'Events',
  'Filter events by type', 'Loading…', 'No budget yet: open a folder to govern it.',
  'No events yet. Every governed tool call will show up here.', 'Open a folder: Alfred governs the agents working in a workspace.',
  'Open log', 'Reset budget', 'Restricted mode: project roles and the alfred.role setting are ignored.', 'Role',
  'Role problems', 'Shell calls', 'shell',
  // completion records and operations
  'Completion records', 'No completion records yet. Alfred: Verify Completion runs the checks of .alfred/checks.toml and records the verdict here.',
  'Accepted', 'Not accepted', 'commit {0}', 'snapshot {0}', 'changed while checking', 'role {0} · from {1}', 'Checks', 'exit {0}',
  'optional', 'Output of {0}', '(no output)', 'Verify completion', 'Operations to reconcile', 'It succeeded', 'It failed',
  'Mark {0} as succeeded', 'Mark {0} as failed',
  'These operations were stopped part-way; their effect is unknown. Look, then say how each ended: Alfred will not run them again.',
  'passed', 'failed', 'timed out', 'cancelled', 'error', 'skipped',
  // daily spend, role actions, failover chain, active pack
  'Spent today', 'Daily spend', 'no daily cap set', 'Daily cap (UTC day {0}): advisory, it warns and never blocks.',
  'New role…', 'Edit role…', 'Failover chain', "No profile: @alfred will use the chat's model.",
  "No profile active: @alfred uses the chat's model until one is chosen.", 'Failover chain of {0}', 'failing {0}/2',
  'active', 'standby', 'unavailable', 'Active pack', 'No pack chosen yet: @alfred picks one per prompt from its trigger words.',
  // governance: the agents' hooks
  'Governance', 'Governed', 'Not governed', 'Govern', 'Stop governing', 'Govern {0}', 'Stop governing {0}',
  "Every tool call of a governed agent goes through Alfred's hooks, under the active role.",
  "Not governed: Alfred does not see these agents' tool calls.", 'No hook has run in this workspace yet.',
  'Last hook: {0}, {1}', '(Alfred failed; the call went ahead)', "Put Alfred's Rules in VS Code's Sandbox",
  // agent sessions and models today (the agents' model spend)
  'Agent sessions', 'Models today', 'Agent sessions today', 'No agent sessions today (UTC day {0}).',
  "Measured: tokens the agent reported, priced from Alfred's table. Estimated: tokens Alfred counted. ~ and fallback price: the model has no price, so Alfred's fallback price was used.",
  'fallback price',
  // Models (components/modelsSetup.ts)
  'Models', '{0} models are available to the chat, {1} of them Alfred\'s.', 'Looking for a model…', 'No chat model is available, so @alfred cannot answer yet.',
  '{0} answers on this machine at {1}', 'no model pulled yet', 'Use {0}', 'Alfred has no provider of its own yet: a local server or an API with your key.',
  'Add Provider…', 'Check again',
  '{0} more sessions today: alfred usage --since {1} lists them all.', 'Last active (UTC)', 'Model calls', 'Tokens', 'Tool calls',
  '{0} refused', 'No model calls recorded today.', '{0} in ({1} cached), {2} out', 'no model calls reported',
  '{0} measured', '{0} estimated', "Alfred's tools", "an agent's hooks",
  // the event feed's rows and a limit of 0
  '{0} (UTC): show the record', 'The record of this event', 'not allowed', 'not allowed · {0} used',
  // team budgets (the team ledger)
  'Team budgets ({0})', 'The team ledger cannot be reached: {0}', 'No team budget applies to this role.', 'Refused across the team', '{0} on {1}',
  // role sources
  'builtin', 'project', 'project-lean-ctx', 'user', 'user-lean-ctx',
  ...TRIALS_STRINGS,
  ...MCP_STRINGS,
];
