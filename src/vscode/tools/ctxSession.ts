import * as vscode from 'vscode';
import { prompts } from '../prompts';
import { defineTool } from './governedTool';

/**
 * ctx_session: the agent reads its role and budget, or asks for a role switch or a reset. Asking is
 * all it can do: the user confirms in a modal dialog, so an agent never raises its own privileges.
 */
export const ctxSession = defineTool<{ action: 'status' | 'budget' | 'role' | 'reset'; value?: string }>('ctx_session', async (input, { harness }) => {
  const action = input.action;
  const active = harness.activeRole().role;
  if (action === 'role') {
    const wanted = typeof input.value === 'string' ? input.value.trim() : '';
    const roles = harness.roles().roles;
    if (!wanted || !roles.has(wanted)) {
      const list = [...roles.keys()].join(', ');
      return { text: `No role "${wanted}". Roles: ${list}. The role stays ${active.name}.`, data: { action, switched: false, role: active.name } };
    }
    const ok = await prompts.confirm(
      vscode.l10n.t('An agent asks to switch Alfred\'s role from {0} to {1}.', active.name, wanted),
      vscode.l10n.t('Switching changes what the agent may do and starts a fresh budget.'),
      vscode.l10n.t('Switch to {0}', wanted));
    if (!ok) return { text: `The user declined the switch to ${wanted}. The role stays ${active.name}.`, data: { action, switched: false, role: active.name } };
    await harness.switchRole(wanted, 'agent (confirmed by the user)');
    return { text: `Role switched to ${wanted} by the user's confirmation.\n${harness.budget().line}`, data: { action, switched: true, role: wanted } };
  }
  if (action === 'reset') {
    const ok = await prompts.confirm(
      vscode.l10n.t('An agent asks to reset the budget of role {0}.', active.name),
      harness.budget().line,
      vscode.l10n.t('Reset Budget'));
    if (!ok) return { text: `The user declined the reset.\n${harness.budget().line}`, data: { action, reset: false } };
    await harness.reset('agent (confirmed by the user)');
    return { text: `Budget reset by the user's confirmation.\n${harness.budget().line}`, data: { action, reset: true } };
  }
  const { status, line } = harness.budget();
  const r = active;
  const rules = `allowed: ${r.tools.allowed ? `[${r.tools.allowed.join(', ')}]` : 'all tools'}; denied: [${r.tools.denied.join(', ')}]; shell: ${r.shellPolicy}`;
  return {
    text: `Role ${r.name}: ${r.description}\n${rules}\n${line}`,
    data: { action, role: r.name, signal: status.signal, dimensions: status.dimensions },
  };
});
