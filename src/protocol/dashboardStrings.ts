/**
 * Every English string the dashboard shows. The host translates them with vscode.l10n and hands the
 * table to the page; a unit test checks that each t('…') in webview/dashboard is listed here.
 */
export const DASHBOARD_STRINGS: readonly string[] = [
  'Active role', 'All events', 'Budget', 'Budget line', 'Context tokens', 'Cost', 'Cost (estimated)', 'Events',
  'Filter events by type', 'Loading…', 'No budget yet: open a folder to govern it.',
  'No events yet. Every governed tool call will show up here.', 'Open a folder: Alfred governs the agents working in a workspace.',
  'Open log', 'Reset budget', 'Restricted mode: project roles and the alfred.role setting are ignored.', 'Role',
  'Role problems', 'Shell calls', 'shell',
  // role sources
  'builtin', 'project', 'project-lean-ctx', 'user', 'user-lean-ctx',
];
