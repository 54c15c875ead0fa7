import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WritePlan } from '../../../src/core/base/config/types';
import { copilotHookFile } from '../../../src/core/integrations/hooks/install';
import type { AgentGovernanceView } from '../../../src/protocol/dashboard';
import { dashboardState } from '../../../src/vscode/webviews/dashboardState';
import { ask } from '../chat';
import { alfred, freshSession, invoke, until, workspaceFile } from '../helpers';

/** Runs `fn` with the write pipeline's confirmation answered by `answer`, recording the plans shown. */
async function withReview<T>(answer: boolean, fn: (shown: WritePlan[]) => Promise<T>): Promise<T> {
  const api = await alfred();
  const original = api.confirmations.review;
  const shown: WritePlan[] = [];
  api.confirmations.review = async (_host, plan) => { shown.push(plan); return answer; };
  try {
    return await fn(shown);
  } finally {
    api.confirmations.review = original;
  }
}

/** The dashboard's governance rows, as the webview gets them. */
async function governanceRows(): Promise<Record<string, AgentGovernanceView>> {
  const h = (await alfred()).harness();
  const g = dashboardState(h, vscode.workspace.isTrusted).governance;
  assert.ok(g, 'a governance section');
  return Object.fromEntries(g.agents.map((a) => [a.id, a]));
}

/** Sets a `chat.*` setting in the workspace (undefined removes it); removes .vscode/settings.json when nothing is left in it. */
async function setChatSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('chat').update(key, value, vscode.ConfigurationTarget.Workspace);
  const file = workspaceFile('.vscode/settings.json');
  if (value === undefined && fs.existsSync(file) && /^\s*\{\s*\}\s*$/.test(fs.readFileSync(file, 'utf8'))) fs.rmSync(file);
}

suite('Governance that holds', () => {
  test('Govern Codex Sessions writes .codex/hooks.json through the confirmed diff, beside the user\'s own hooks; Stop Governing Codex takes only Alfred\'s out', async () => {
    const h = await freshSession('coder');
    const file = workspaceFile('.codex/hooks.json');
    const codexConfig = path.join(os.homedir(), '.codex', 'config.toml');
    const mine = '{\n  "hooks": {\n    "PreToolUse": [{ "matcher": "^Bash$", "hooks": [{ "type": "command", "command": "./guard.sh" }] }]\n  }\n}\n';
    fs.mkdirSync(workspaceFile('.codex'), { recursive: true });
    fs.writeFileSync(file, mine);
    try {
      assert.equal((await governanceRows()).codex?.stateText, 'Not governed');
      const written = await withReview(true, async (shown) => {
        const ok = await vscode.commands.executeCommand('alfred.governCodex');
        assert.equal(shown.length, 1);
        assert.equal(shown[0]!.files[0]!.label, '.codex/hooks.json');
        // Codex does not trust this project yet: its trust entry is in the same diff, to Codex's own file.
        assert.match(shown[0]!.files[1]!.diff, /^\+\[projects\..*\]$\n^\+trust_level = "trusted"$/m);
        assert.match(shown[0]!.files[0]!.diff, /^\+.*"command": "\\"\$HOME\/\.alfred\/bin\/alfred\\" hook PreToolUse"/m);
        return ok;
      });
      assert.equal(written, true);
      const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
      assert.deepEqual(Object.keys(data.hooks), ['PreToolUse', 'SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'SubagentStart', 'SubagentStop', 'PreCompact']);
      assert.deepEqual(data.hooks.PreToolUse!.map((g) => g.hooks[0]!.command), ['./guard.sh', '"$HOME/.alfred/bin/alfred" hook PreToolUse']);
      assert.equal(h.events({ types: ['ConfigWritten'] }).events.at(-1)?.reason, 'govern Codex sessions and trust the project in Codex');
      assert.match(fs.readFileSync(codexConfig, 'utf8'), /trust_level = "trusted"/);
      // Trusted now, but Codex runs a project hook only once the user reviewed it in Codex: the row says so.
      const row = (await governanceRows()).codex;
      assert.equal(row?.state, 'not-in-force');
      assert.match(row?.stateText ?? '', /Codex has not recorded your review of Alfred's hooks \(PreToolUse, SessionStart, UserPromptSubmit, PostToolUse/);

      assert.equal(await withReview(true, () => Promise.resolve(vscode.commands.executeCommand('alfred.stopGoverningCodex'))), true);
      assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), JSON.parse(mine));
      assert.equal((await governanceRows()).codex?.stateText, 'Not governed');
    } finally {
      fs.rmSync(workspaceFile('.codex'), { recursive: true, force: true });
      fs.rmSync(codexConfig, { force: true });
    }
  });

  test('health in the dashboard and in /doctor: governed; a warning when agents called Alfred\'s tools but no hook ran; not in force with chat.useHooks off', async () => {
    const hookFile = workspaceFile('.github/hooks/alfred.json');
    fs.mkdirSync(workspaceFile('.github/hooks'), { recursive: true });
    fs.writeFileSync(hookFile, copilotHookFile());
    try {
      // A fresh harness session: no tool call in it yet.
      await freshSession('coder');
      let rows = await governanceRows();
      assert.equal(rows.copilot?.stateText, 'Governed');
      assert.deepEqual(rows.copilot?.warnings, []);
      // Copilot's usage export is not set up here: its spend is not measured, and the row says how to fix it.
      assert.ok(rows.copilot?.notes.includes('Model spend not measured: Copilot\'s usage export to Alfred is off. Run "Alfred: Govern Copilot Agent Sessions" again to turn it on.'), JSON.stringify(rows.copilot?.notes));
      // The Copilot CLI reads the same file, but only in a folder it trusts: the row says how.
      assert.equal(rows['copilot-cli']?.state, 'not-in-force');
      assert.match(rows['copilot-cli']?.stateText ?? '', /the Copilot CLI does not trust .*: add it to "trusted_folders" in ~\/\.copilot\/config\.json/);
      assert.equal(rows['claude-code']?.stateText, 'Not governed');
      assert.equal(rows.codex?.stateText, 'Not governed');

      // An agent calls Alfred's tool; no hook runs (no Copilot here reads the file).
      await invoke('ctx_read', { path: 'README.md' });
      rows = await governanceRows();
      assert.equal(rows.copilot?.stateText, 'Governed', 'a warning, not a verdict');
      assert.equal(rows.copilot?.warnings.length, 1);
      assert.match(rows.copilot!.warnings[0]!, /^Alfred's tools were called by an agent in this session \(last at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\), but no hook has run since \.github\/hooks\/alfred\.json was written/);
      assert.deepEqual(rows['copilot-cli']?.warnings, [], 'the Copilot CLI does not run in VS Code\'s own agent');

      await setChatSetting('useHooks', false);
      await until('chat.useHooks to apply', () => vscode.workspace.getConfiguration('chat').get('useHooks') === false);
      rows = await governanceRows();
      assert.equal(rows.copilot?.state, 'not-in-force');
      assert.equal(rows.copilot?.stateText, 'Installed but not in force: chat.useHooks is off: VS Code runs no agent hooks');
      assert.doesNotMatch(rows['copilot-cli']?.stateText ?? '', /chat\.useHooks/, 'the Copilot CLI reads its hook files itself');

      const doctor = await ask('', { command: 'doctor' });
      assert.match(doctor.out.text, /\*\*Governance\*\* of this workspace's agents:/);
      assert.match(doctor.out.text, /- ❌ Copilot in VS Code \(`\.github\/hooks\/alfred\.json`\): Installed but not in force: chat\.useHooks is off: VS Code runs no agent hooks\n/);
      assert.match(doctor.out.text, /- ❌ Copilot CLI \(`\.github\/hooks\/alfred\.json`\): Installed but not in force: the Copilot CLI does not trust /);
      assert.match(doctor.out.text, /- ➖ Codex \(`\.codex\/hooks\.json`\): Not governed\n/);
      assert.match(doctor.out.text, /Govern an agent from the dashboard's Governance section/);
    } finally {
      await setChatSetting('useHooks', undefined);
      fs.rmSync(hookFile, { force: true });
    }
  });
});
