/** Governance health in words (English and Spanish through vscode.l10n), for the dashboard and `@alfred /doctor`. */
import * as vscode from 'vscode';
import type { AgentHealth, HealthIssue } from '../../core/integrations/health/health';
import type { HookRun } from '../../core/integrations/hooks/lastRun';

/** `2026-05-01 12:00:03` (UTC), as the dashboard shows times. */
export function shortTime(ts: string): string {
  return `${ts.slice(0, 10)} ${ts.slice(11, 19)}`;
}

export function issueText(issue: HealthIssue, row?: Pick<AgentHealth, 'hookFile'>): string {
  switch (issue.code) {
    case 'hooks-disabled': return vscode.l10n.t('chat.useHooks is off: VS Code runs no agent hooks');
    case 'managed-hooks-only': return vscode.l10n.t('chat.hooks.allowManagedOnly is on: VS Code runs only hooks from managed plugins');
    case 'location-not-searched': return vscode.l10n.t('chat.hookFilesLocations leaves out {0}: VS Code does not read it', issue.file);
    case 'file-disables-hooks': return vscode.l10n.t('{0} sets "disableAllHooks": true', issue.file);
    case 'codex-hooks-off': return vscode.l10n.t('{0} turns Codex hooks off ([features] hooks = false)', issue.file);
    case 'launcher-missing': return vscode.l10n.t('the launcher {0}, which every hook command runs, is missing (Alfred writes it when it starts: reload the window)', issue.launcher);
    case 'launcher-stale': return vscode.l10n.t('the launcher {0} runs {1}, which does not exist (an old installation): reload the window so Alfred rewrites it', issue.launcher, issue.missing);
    case 'untrusted': return vscode.l10n.t('this workspace is not trusted: hooks never run in Restricted Mode');
    case 'vscode-skips-claude-hooks':
      return issue.setting === 'chat.useClaudeHooks'
        ? vscode.l10n.t('VS Code\'s own agent does not read .claude hooks unless chat.useClaudeHooks is on (it is off by default); Claude Code itself reads them.')
        : vscode.l10n.t('VS Code\'s own agent does not read this file ({0}); Claude Code itself reads it.', issue.setting);
    case 'runs-twice':
      return vscode.l10n.t('VS Code\'s own agent reads Alfred\'s hooks in both {0} and {1}: each of its tool calls goes through Alfred twice and is counted twice. Stop governing one of them, or turn chat.useClaudeHooks off.', issue.files[0] ?? '', issue.files[1] ?? '');
    case 'codex-project-untrusted': return vscode.l10n.t('Codex does not trust {0}, so it ignores .codex/hooks.json and runs ungoverned: add [projects."{0}"] trust_level = "trusted" to {1} (Govern Codex Sessions offers it), or trust the project when Codex asks', issue.project, issue.file);
    case 'codex-hooks-unreviewed': return vscode.l10n.t('Codex has not recorded your review of Alfred\'s hooks ({0}), so it skips them: run codex in this folder and approve them in /hooks', issue.events.join(', '));
    case 'copilot-cli-folder-untrusted': return vscode.l10n.t('the Copilot CLI does not trust {0}, so it skips the repository\'s hooks: add it to "trusted_folders" in {1} (Govern Copilot Agent Sessions offers it), trust the folder when copilot asks, or pass --trust-folder', issue.folder, issue.file);
    case 'gemini-folder-untrusted': return vscode.l10n.t('Gemini CLI does not trust {0}, so it ignores .gemini/settings.json and its hooks: add "{0}": "TRUST_FOLDER" to {1} (Govern Gemini CLI Sessions offers it), or trust the folder when gemini asks', issue.folder, issue.file);
    case 'gemini-hooks-off': return vscode.l10n.t('{0} sets hooksConfig.enabled to false: Gemini CLI runs no hooks', issue.file);
    case 'managed-settings-block-hooks': return vscode.l10n.t('Claude Code\'s managed settings {0} set {1}: a project\'s hooks do not run (only whoever administers this machine can change it)', issue.file, issue.setting);
    case 'no-hook-run': {
      const file = row?.hookFile ?? '';
      return issue.activity === 'tool'
        ? vscode.l10n.t('Alfred\'s tools were called by an agent in this session (last at {0}), but no hook has run since {1} was written: VS Code\'s own agent may not be reading it.', shortTime(issue.at), file)
        : vscode.l10n.t('Terminal commands ran in this session (last at {0}), but no hook has run since {1} was written: VS Code\'s own agent may not be reading it.', shortTime(issue.at), file);
    }
  }
}

/** "Governed", "Not governed", or "Installed but not in force: <reasons>". */
export function stateText(row: AgentHealth): string {
  if (row.state === 'governed') return vscode.l10n.t('Governed');
  if (row.state === 'not-governed') return vscode.l10n.t('Not governed');
  return vscode.l10n.t('Installed but not in force: {0}', row.reasons.map((r) => issueText(r, row)).join('; '));
}

/** The governance part of `@alfred /doctor`. */
export function healthMarkdown(rows: readonly AgentHealth[], lastHook: HookRun | undefined): string {
  const icon = (r: AgentHealth) => (r.state === 'governed' ? (r.warnings.length ? '⚠️' : '✅') : r.state === 'not-in-force' ? '❌' : '➖');
  const lines = [vscode.l10n.t('**Governance** of this workspace\'s agents:'), ''];
  for (const r of rows) {
    lines.push(`- ${icon(r)} ${r.label} (\`${r.hookFile}\`): ${stateText(r)}`);
    for (const n of r.notes) lines.push(`  - ${issueText(n, r)}`);
    for (const w of r.warnings) lines.push(`  - ⚠️ ${issueText(w, r)}`);
  }
  lines.push('');
  if (rows.some((r) => !r.installed)) lines.push(vscode.l10n.t('Govern an agent from the dashboard\'s Governance section or with the Alfred: Govern … commands.'), '');
  const what = lastHook ? (lastHook.tool ? `${lastHook.event} · ${lastHook.tool}` : lastHook.event) : '';
  lines.push(lastHook ? vscode.l10n.t('Last hook: {0}, {1}', what, shortTime(lastHook.ts)) : vscode.l10n.t('No hook has run in this workspace yet.'));
  return `${lines.join('\n')}\n`;
}
