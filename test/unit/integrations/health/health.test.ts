import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GOVERNED_AGENTS } from '../../../../src/core/protect/agents';
import {
  codexHooksFeature, governanceHealth, HEALTH_WORKSPACE_FILES, searchedByVsCode, type AgentHealth, type HealthInput,
} from '../../../../src/core/integrations/health/health';
import { codexHookFile, copilotHookFile, launcherScripts, withClaudeHooks, withGeminiHooks } from '../../../../src/core/integrations/hooks/install';

const LAUNCHER = '/home/u/.alfred/bin/alfred';
const RUNTIME = '/opt/code/code';
const CLI = '/ext/alfred-1.0.0/dist/cli/alfred.cjs';
const GOOD_LAUNCHER = launcherScripts(RUNTIME, CLI).posix;

/** Every agent governed, everything in order; `over` changes one thing. */
function input(over: Partial<HealthInput> = {}): HealthInput {
  return {
    workspaceFiles: {
      '.github/hooks/alfred.json': copilotHookFile(),
      '.claude/settings.json': withClaudeHooks(undefined),
      '.codex/hooks.json': codexHookFile(),
      '.gemini/settings.json': withGeminiHooks(undefined),
    },
    homeFiles: {},
    settings: {},
    trusted: true,
    launcher: { path: LAUNCHER, text: GOOD_LAUNCHER, exists: (f) => f === RUNTIME || f === CLI },
    lastHookRun: null,
    activity: null,
    ...over,
  };
}

const row = (rows: AgentHealth[], id: AgentHealth['id']) => rows.find((r) => r.id === id)!;
const codes = (issues: ReadonlyArray<{ code: string }>) => issues.map((i) => i.code);

describe('governance health', () => {
  it('one row per governed agent, in the table\'s order; all governed when everything is in order', () => {
    const rows = governanceHealth(input());
    assert.deepEqual(rows.map((r) => r.id), GOVERNED_AGENTS.map((a) => a.id));
    assert.deepEqual(rows.map((r) => r.hookFile), GOVERNED_AGENTS.map((a) => a.hookFile));
    for (const r of rows) {
      assert.equal(r.state, 'governed', r.id);
      assert.deepEqual(r.reasons, [], r.id);
    }
    // chat.useClaudeHooks is off by default: VS Code's own agent skips .claude hooks; Claude Code reads them.
    assert.deepEqual(row(rows, 'claude-code').notes, [{ code: 'vscode-skips-claude-hooks', setting: 'chat.useClaudeHooks' }]);
    assert.deepEqual(row(rows, 'copilot').notes, []);
  });

  it('no Alfred hooks in a file: not governed, whatever else is wrong', () => {
    const rows = governanceHealth(input({
      workspaceFiles: { '.github/hooks/alfred.json': '{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"lint"}]}}', '.codex/hooks.json': '{"hooks":{}}' },
      trusted: false,
      settings: { useHooks: false },
    }));
    for (const r of rows) {
      assert.equal(r.state, 'not-governed', r.id);
      assert.equal(r.installed, false);
      assert.deepEqual([...r.reasons, ...r.notes, ...r.warnings], [], r.id);
    }
  });

  it('chat.useHooks false: Copilot in VS Code is installed but not in force; the Copilot CLI and Codex read their files themselves', () => {
    const rows = governanceHealth(input({ settings: { useHooks: false } }));
    assert.equal(row(rows, 'copilot').state, 'not-in-force');
    assert.deepEqual(codes(row(rows, 'copilot').reasons), ['hooks-disabled']);
    assert.equal(row(rows, 'copilot-cli').state, 'governed');
    assert.equal(row(rows, 'codex').state, 'governed');
    // Claude Code still reads its file; VS Code's own agent does not, and the note names the setting.
    assert.equal(row(rows, 'claude-code').state, 'governed');
    assert.deepEqual(row(rows, 'claude-code').notes, [{ code: 'vscode-skips-claude-hooks', setting: 'chat.useHooks' }]);
  });

  it('chat.hooks.allowManagedOnly: only managed plugins\' hooks run in VS Code', () => {
    const rows = governanceHealth(input({ settings: { allowManagedOnly: true } }));
    assert.deepEqual(codes(row(rows, 'copilot').reasons), ['managed-hooks-only']);
  });

  it('chat.hookFilesLocations that maps .github/hooks to false: the file is outside the searched locations', () => {
    const rows = governanceHealth(input({ settings: { hookFilesLocations: { '.github/hooks': false, 'tools/hooks': true } } }));
    assert.deepEqual(row(rows, 'copilot').reasons, [{ code: 'location-not-searched', file: '.github/hooks/alfred.json' }]);
    // The file's own key wins over its folder's.
    assert.equal(governanceHealth(input({ settings: { hookFilesLocations: { '.github/hooks': false, '.github/hooks/alfred.json': true } } }))[0]!.state, 'governed');
  });

  it('searchedByVsCode: VS Code\'s defaults stay unless set to false; keys are normalized', () => {
    assert.equal(searchedByVsCode('.github/hooks/alfred.json', undefined), true);
    assert.equal(searchedByVsCode('.github/hooks/alfred.json', { 'my/hooks': true }), true, 'extra keys add, defaults stay');
    assert.equal(searchedByVsCode('.github/hooks/alfred.json', { './.github/hooks/': false }), false);
    assert.equal(searchedByVsCode('.github/hooks/alfred.json', { '.github/hooks': 'yes' }), false, 'only true turns a location on');
    assert.equal(searchedByVsCode('.claude/settings.json', { '.claude/settings.json': false }), false);
    assert.equal(searchedByVsCode('.codex/hooks.json', undefined), false, 'VS Code itself never reads .codex');
  });

  it('chat.useClaudeHooks on: VS Code reads .claude hooks too; with Copilot\'s file governed as well, Alfred would run twice', () => {
    const rows = governanceHealth(input({ settings: { useClaudeHooks: true } }));
    const claude = row(rows, 'claude-code');
    assert.deepEqual(claude.notes, []);
    assert.deepEqual(claude.warnings, [{ code: 'runs-twice', files: ['.github/hooks/alfred.json', '.claude/settings.json'] }]);
    const only = governanceHealth(input({ settings: { useClaudeHooks: true }, workspaceFiles: { '.claude/settings.json': withClaudeHooks(undefined) } }));
    assert.deepEqual(row(only, 'claude-code').warnings, []);
    // .claude/settings.json left out of the searched locations: VS Code skips it, Claude Code does not.
    const out = governanceHealth(input({ settings: { useClaudeHooks: true, hookFilesLocations: { '.claude/settings.json': false } } }));
    assert.deepEqual(row(out, 'claude-code').notes, [{ code: 'vscode-skips-claude-hooks', setting: 'chat.hookFilesLocations' }]);
    assert.equal(row(out, 'claude-code').state, 'governed');
  });

  it('launcher missing: every installed agent is not in force (every hook command runs it)', () => {
    const rows = governanceHealth(input({ launcher: { path: LAUNCHER, text: undefined, exists: () => true } }));
    for (const r of rows) assert.deepEqual(r.reasons, [{ code: 'launcher-missing', launcher: LAUNCHER }], r.id);
  });

  it('launcher pointing at a command line (or runtime) that no longer exists: an old installation', () => {
    const old = launcherScripts(RUNTIME, '/ext/alfred-0.9.0/dist/cli/alfred.cjs').posix;
    const rows = governanceHealth(input({ launcher: { path: LAUNCHER, text: old, exists: (f) => f === RUNTIME } }));
    assert.deepEqual(row(rows, 'codex').reasons, [{ code: 'launcher-stale', launcher: LAUNCHER, missing: '/ext/alfred-0.9.0/dist/cli/alfred.cjs' }]);
    const noRuntime = governanceHealth(input({ launcher: { path: LAUNCHER, text: GOOD_LAUNCHER, exists: (f) => f === CLI } }));
    assert.deepEqual(row(noRuntime, 'copilot').reasons, [{ code: 'launcher-stale', launcher: LAUNCHER, missing: RUNTIME }]);
    // Windows launcher too.
    const win = governanceHealth(input({ launcher: { path: 'C:\\u\\.alfred\\bin\\alfred.cmd', text: launcherScripts('C:\\code\\Code.exe', 'C:\\gone\\alfred.cjs').windows, exists: () => false } }));
    assert.equal(codes(row(win, 'copilot').reasons)[0], 'launcher-stale');
    // A launcher written by hand: Alfred cannot tell, so it says nothing.
    assert.equal(governanceHealth(input({ launcher: { path: LAUNCHER, text: '#!/bin/sh\nexec my-alfred "$@"\n', exists: () => false } }))[0]!.state, 'governed');
  });

  it('untrusted workspace: hooks never run there', () => {
    const rows = governanceHealth(input({ trusted: false }));
    for (const r of rows) {
      assert.equal(r.state, 'not-in-force', r.id);
      assert.deepEqual(codes(r.reasons), ['untrusted'], r.id);
    }
  });

  it('"disableAllHooks": true in the hook file (or, for Claude Code, in a settings file that overrides it)', () => {
    const copilot = JSON.stringify({ ...JSON.parse(copilotHookFile()), disableAllHooks: true });
    let rows = governanceHealth(input({ workspaceFiles: { ...input().workspaceFiles, '.github/hooks/alfred.json': copilot } }));
    assert.deepEqual(row(rows, 'copilot').reasons, [{ code: 'file-disables-hooks', file: '.github/hooks/alfred.json' }]);
    rows = governanceHealth(input({ workspaceFiles: { ...input().workspaceFiles, '.claude/settings.local.json': '{\n  // off for now\n  "disableAllHooks": true\n}\n' } }));
    assert.deepEqual(row(rows, 'claude-code').reasons, [{ code: 'file-disables-hooks', file: '.claude/settings.local.json' }]);
    rows = governanceHealth(input({ homeFiles: { '.claude/settings.json': '{"disableAllHooks": true}' } }));
    assert.deepEqual(row(rows, 'claude-code').reasons, [{ code: 'file-disables-hooks', file: '~/.claude/settings.json' }]);
    // The project's own false overrides the user's true.
    rows = governanceHealth(input({
      workspaceFiles: { ...input().workspaceFiles, '.claude/settings.json': withClaudeHooks('{"disableAllHooks": false}') },
      homeFiles: { '.claude/settings.json': '{"disableAllHooks": true}' },
    }));
    assert.equal(row(rows, 'claude-code').state, 'governed');
  });

  it('Codex hooks turned off in a config.toml ([features] hooks = false); the project\'s config overrides the user\'s', () => {
    let rows = governanceHealth(input({ homeFiles: { '.codex/config.toml': '[features]\nhooks = false\n' } }));
    assert.deepEqual(row(rows, 'codex').reasons, [{ code: 'codex-hooks-off', file: '~/.codex/config.toml' }]);
    rows = governanceHealth(input({ workspaceFiles: { ...input().workspaceFiles, '.codex/config.toml': '[features]\ncodex_hooks = false\n' } }));
    assert.deepEqual(row(rows, 'codex').reasons, [{ code: 'codex-hooks-off', file: '.codex/config.toml' }]);
    rows = governanceHealth(input({ workspaceFiles: { ...input().workspaceFiles, '.codex/config.toml': '[features]\nhooks = true\n' }, homeFiles: { '.codex/config.toml': '[features]\nhooks = false\n' } }));
    assert.equal(row(rows, 'codex').state, 'governed');
    assert.equal(codexHooksFeature('not = [toml'), undefined);
    assert.equal(codexHooksFeature('model = "o3"\n'), undefined);
  });

  it('several reasons are all given', () => {
    const rows = governanceHealth(input({ trusted: false, settings: { useHooks: false }, launcher: { path: LAUNCHER, text: undefined, exists: () => false } }));
    assert.deepEqual(codes(row(rows, 'copilot').reasons), ['untrusted', 'launcher-missing', 'hooks-disabled']);
  });

  describe('tool calls with no hook run recorded', () => {
    const installedAt = '2026-05-01T10:00:00.000Z';
    const changed = { '.github/hooks/alfred.json': installedAt, '.claude/settings.json': installedAt, '.codex/hooks.json': installedAt };

    it('Alfred\'s tools called (or terminal commands run) in this session since the hooks were installed, no hook since: a warning', () => {
      const rows = governanceHealth(input({ changed, activity: { kind: 'tool', ts: '2026-05-01T10:05:00.000Z' } }));
      const copilot = row(rows, 'copilot');
      assert.equal(copilot.state, 'governed', 'a warning, not a verdict');
      assert.deepEqual(copilot.warnings, [{ code: 'no-hook-run', activity: 'tool', at: '2026-05-01T10:05:00.000Z', since: installedAt }]);
      // Only agents whose hooks VS Code's own agent runs: Copilot CLI and Codex do not run in VS Code's Local harness.
      assert.deepEqual(row(rows, 'copilot-cli').warnings, []);
      assert.deepEqual(row(rows, 'codex').warnings, []);
      assert.deepEqual(row(rows, 'claude-code').warnings, [], 'VS Code does not read .claude hooks with chat.useClaudeHooks off');
      const terminal = governanceHealth(input({ changed, activity: { kind: 'terminal', ts: '2026-05-01T10:05:00.000Z' }, lastHookRun: { ts: '2026-05-01T09:00:00.000Z', event: 'PreToolUse', failed: false } }));
      assert.deepEqual(codes(row(terminal, 'copilot').warnings), ['no-hook-run'], 'a hook run from before the install does not count');
    });

    it('no warning when a hook ran since the install, when the calls came before it, or with no calls at all', () => {
      const ran = governanceHealth(input({ changed, activity: { kind: 'tool', ts: '2026-05-01T10:05:00.000Z' }, lastHookRun: { ts: '2026-05-01T10:01:00.000Z', event: 'preToolUse', failed: false } }));
      assert.deepEqual(row(ran, 'copilot').warnings, []);
      const before = governanceHealth(input({ changed, activity: { kind: 'tool', ts: '2026-05-01T09:59:00.000Z' } }));
      assert.deepEqual(row(before, 'copilot').warnings, []);
      assert.deepEqual(row(governanceHealth(input({ changed })), 'copilot').warnings, []);
    });

    it('not in force already says why: no extra warning', () => {
      const rows = governanceHealth(input({ changed, settings: { useHooks: false }, activity: { kind: 'tool', ts: '2026-05-01T10:05:00.000Z' } }));
      assert.deepEqual(row(rows, 'copilot').warnings, []);
    });

    it('Claude\'s file counts too when VS Code reads it (chat.useClaudeHooks on)', () => {
      const rows = governanceHealth(input({
        changed, settings: { useClaudeHooks: true }, activity: { kind: 'tool', ts: '2026-05-01T10:05:00.000Z' },
        workspaceFiles: { '.claude/settings.json': withClaudeHooks(undefined) },
      }));
      assert.deepEqual(codes(row(rows, 'claude-code').warnings), ['no-hook-run']);
    });
  });

  it('the files it reads include every hook file of the table', () => {
    for (const a of GOVERNED_AGENTS) assert.ok(HEALTH_WORKSPACE_FILES.includes(a.hookFile), a.hookFile);
  });
});
