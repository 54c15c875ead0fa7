/**
 * Governance health issues in plain English, each with the step that fixes it, for the command line
 * (`alfred doctor`); the editor words them through its own translations (src/vscode/hooks/healthText.ts).
 */
import type { HealthIssue } from './health';

export function issueEnglish(issue: HealthIssue): string {
  switch (issue.code) {
    case 'hooks-disabled': return 'chat.useHooks is off: VS Code runs no agent hooks';
    case 'managed-hooks-only': return 'chat.hooks.allowManagedOnly is on: VS Code runs only hooks from managed plugins';
    case 'location-not-searched': return `chat.hookFilesLocations leaves out ${issue.file}: VS Code does not read it`;
    case 'file-disables-hooks': return `${issue.file} sets "disableAllHooks": true`;
    case 'codex-hooks-off': return `${issue.file} turns Codex hooks off ([features] hooks = false)`;
    case 'launcher-missing': return `the launcher ${issue.launcher}, which every hook command runs, is missing (the extension writes it when it starts)`;
    case 'launcher-stale': return `the launcher ${issue.launcher} runs ${issue.missing}, which does not exist (an old installation): start the editor so Alfred rewrites it`;
    case 'untrusted': return 'this workspace is not trusted: hooks never run in Restricted Mode';
    case 'vscode-skips-claude-hooks': return `VS Code's own agent does not read this file (${issue.setting}); Claude Code itself reads it`;
    case 'runs-twice': return `VS Code's own agent reads Alfred's hooks in both ${issue.files.join(' and ')}: each tool call is counted twice`;
    case 'no-hook-run': return `${issue.activity === 'tool' ? 'Alfred\'s tools were called' : 'terminal commands ran'} (last at ${issue.at}), but no hook has run since the hooks were written`;
    case 'codex-project-untrusted': return `Codex does not trust ${issue.project}, so it ignores .codex/hooks.json and runs ungoverned: add [projects."${issue.project}"] trust_level = "trusted" to ${issue.file} (Alfred: Govern Codex Sessions offers it), or trust the project when Codex asks`;
    case 'codex-hooks-unreviewed': return `Codex has not recorded your review of Alfred's hooks (${issue.events.join(', ')}), so it skips them: run codex in this folder and approve them in /hooks`;
    case 'copilot-cli-folder-untrusted': return `the Copilot CLI does not trust ${issue.folder}, so it skips the repository's hooks: add it to "trusted_folders" in ${issue.file} (Alfred: Govern Copilot Agent Sessions offers it), trust the folder when copilot asks, or pass --trust-folder`;
    case 'gemini-folder-untrusted': return `Gemini CLI does not trust ${issue.folder}, so it ignores .gemini/settings.json and its hooks: add "${issue.folder}": "TRUST_FOLDER" to ${issue.file} (Alfred: Govern Gemini CLI Sessions offers it), or trust the folder when gemini asks`;
    case 'gemini-hooks-off': return `${issue.file} sets hooksConfig.enabled to false: Gemini CLI runs no hooks`;
    case 'managed-settings-block-hooks': return `Claude Code's managed settings ${issue.file} set ${issue.setting}: a project's hooks do not run (only whoever administers this machine can change it)`;
  }
}
