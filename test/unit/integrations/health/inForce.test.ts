/** Each agent's own reasons not to run a project's hooks, read from fake homes on disk. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { claudeInForce, codexInForce, copilotCliInForce, geminiInForce, type InForceContext } from '../../../../src/core/integrations/health/inForce';
import { agentsInForce, repositoryRootOf } from '../../../../src/core/integrations/health/inForceAll';
import { readIfExists } from '../../../../src/core/base/fs/readIfExists';
import { codexHookFile } from '../../../../src/core/integrations/hooks/install';

const roots: string[] = [];
after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

/** A home and a workspace in a fresh folder, with `files` (home-relative `~/…`, else absolute) written. */
function fake(files: Record<string, string> = {}, env: Record<string, string> = {}): InForceContext & { root: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-inforce-')));
  roots.push(root);
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'work', 'app');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(workspace, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    const file = name.startsWith('~/') ? path.join(home, name.slice(2)) : name.replace('$WS', workspace).replace('$ROOT', root);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return { root, home, workspace, env, platform: 'linux', read: readIfExists };
}

describe('Codex: project trust, then each hook\'s review', () => {
  const entries = [{ event: 'PreToolUse', group: 0, hook: 0 }, { event: 'Stop', group: 1, hook: 0 }];
  it('no config.toml: the project is not trusted, with the exact entry to add', () => {
    const ctx = fake();
    assert.deepEqual(codexInForce(ctx, entries), [{ code: 'codex-project-untrusted', file: '~/.codex/config.toml', project: ctx.workspace }]);
  });

  it('the repository\'s root is what Codex trusts when the workspace is in one', () => {
    const ctx = fake();
    fs.mkdirSync(path.join(ctx.root, 'work', '.git'));
    const repositoryRoot = repositoryRootOf(ctx.workspace, fs.existsSync);
    assert.equal(repositoryRoot, path.join(ctx.root, 'work'));
    assert.deepEqual(codexInForce({ ...ctx, repositoryRoot }, entries)[0], { code: 'codex-project-untrusted', file: '~/.codex/config.toml', project: repositoryRoot });
  });

  it('trusted, but the hooks not reviewed: the events whose hooks Codex will skip', () => {
    const ctx = fake({ '~/.codex/config.toml': `[projects."$WS"]\ntrust_level = "trusted"\n` });
    fs.writeFileSync(path.join(ctx.home, '.codex/config.toml'), `[projects."${ctx.workspace}"]\ntrust_level = "trusted"\n`);
    assert.deepEqual(codexInForce(ctx, entries), [{ code: 'codex-hooks-unreviewed', events: ['PreToolUse', 'Stop'] }]);
  });

  it('trusted and reviewed (one hook disabled again): only that one is reported; all reviewed: in force', () => {
    const ctx = fake();
    const key = (e: string, g: number) => `${path.join(ctx.workspace, '.codex', 'hooks.json')}:${e}:${g}:0`;
    const write = (stopEnabled: boolean) => fs.writeFileSync(path.join(ctx.home, '.codex', 'config.toml'), [
      `[projects."${ctx.workspace}"]`, 'trust_level = "trusted"',
      `[hooks.state."${key('pre_tool_use', 0)}"]`, 'trusted_hash = "sha256:aa"',
      `[hooks.state."${key('stop', 1)}"]`, 'trusted_hash = "sha256:bb"', `enabled = ${stopEnabled}`, '',
    ].join('\n'));
    fs.mkdirSync(path.join(ctx.home, '.codex'));
    write(false);
    assert.deepEqual(codexInForce(ctx, entries), [{ code: 'codex-hooks-unreviewed', events: ['Stop'] }]);
    write(true);
    assert.deepEqual(codexInForce(ctx, entries), []);
  });

  it('CODEX_HOME moves the config; "untrusted" anywhere wins; a broken file is no trust', () => {
    const ctx = fake({ '$ROOT/codex-home/config.toml': 'x = [' }, {});
    ctx.env = { CODEX_HOME: path.join(ctx.root, 'codex-home') };
    assert.equal(codexInForce(ctx, entries)[0]?.code, 'codex-project-untrusted');
    assert.equal((codexInForce(ctx, entries)[0] as { file: string }).file, path.join(ctx.root, 'codex-home', 'config.toml'));
    fs.mkdirSync(path.join(ctx.root, 'work', '.git'));
    const repositoryRoot = path.join(ctx.root, 'work');
    fs.writeFileSync(path.join(ctx.root, 'codex-home', 'config.toml'), `[projects."${repositoryRoot}"]\ntrust_level = "trusted"\n[projects."${ctx.workspace}"]\ntrust_level = "untrusted"\n`);
    assert.equal(codexInForce({ ...ctx, repositoryRoot }, entries)[0]?.code, 'codex-project-untrusted');
  });

  it('the positions of Alfred\'s entries come from the hook file, after the user\'s own groups', () => {
    const ctx = fake();
    const mine = '{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"./guard.sh"}]}]}}';
    const rows = agentsInForce(ctx, () => codexHookFile(mine)).codex!;
    assert.equal(rows[0]?.code, 'codex-project-untrusted');
    fs.mkdirSync(path.join(ctx.home, '.codex'));
    fs.writeFileSync(path.join(ctx.home, '.codex', 'config.toml'), `[projects."${ctx.workspace}"]\ntrust_level = "trusted"\n[hooks.state."${path.join(ctx.workspace, '.codex', 'hooks.json')}:pre_tool_use:0:0"]\ntrusted_hash = "sha256:user"\n`);
    const unreviewed = agentsInForce(ctx, () => codexHookFile(mine)).codex![0] as { events: string[] };
    assert.ok(unreviewed.events.includes('PreToolUse'), 'the user\'s own reviewed hook at 0:0 is not Alfred\'s (at 1:0)');
  });
});

describe('Copilot CLI: trusted_folders in ~/.copilot/config.json', () => {
  it('missing: the folder and the file to add it to', () => {
    const ctx = fake();
    assert.deepEqual(copilotCliInForce(ctx), [{ code: 'copilot-cli-folder-untrusted', file: '~/.copilot/config.json', folder: ctx.workspace }]);
  });

  it('the folder or one above it trusted: in force; a sibling with the same prefix, a relative entry or the settings.json key: not', () => {
    const ctx = fake();
    const write = (data: unknown, file = 'config.json') => {
      fs.mkdirSync(path.join(ctx.home, '.copilot'), { recursive: true });
      fs.writeFileSync(path.join(ctx.home, '.copilot', file), JSON.stringify(data));
    };
    write({ trusted_folders: [path.join(ctx.root, 'work')] });
    assert.deepEqual(copilotCliInForce(ctx), []);
    write({ trusted_folders: [`${ctx.workspace}-old`, 'work/app'] });
    assert.equal(copilotCliInForce(ctx).length, 1);
    write({}, 'config.json');
    write({ trustedFolders: [ctx.workspace] }, 'settings.json');
    assert.equal(copilotCliInForce(ctx).length, 1, 'measured with 1.0.102: settings.json\'s trustedFolders does not trust a folder');
  });

  it('COPILOT_ALLOW_ALL=true trusts every folder; COPILOT_HOME moves the file', () => {
    assert.deepEqual(copilotCliInForce(fake({}, { COPILOT_ALLOW_ALL: 'true' })), []);
    const ctx = fake();
    ctx.env = { COPILOT_HOME: path.join(ctx.root, 'cop') };
    fs.mkdirSync(path.join(ctx.root, 'cop'));
    fs.writeFileSync(path.join(ctx.root, 'cop', 'config.json'), JSON.stringify({ trusted_folders: [ctx.workspace] }));
    assert.deepEqual(copilotCliInForce(ctx), []);
  });
});

describe('Gemini CLI: folder trust and the hooks switch', () => {
  const trust = (ctx: InForceContext, rules: Record<string, string>) => {
    fs.mkdirSync(path.join(ctx.home, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(ctx.home, '.gemini', 'trustedFolders.json'), JSON.stringify(rules));
  };
  it('no trusted folders: untrusted, with the rule to add', () => {
    const ctx = fake();
    assert.deepEqual(geminiInForce(ctx), [{ code: 'gemini-folder-untrusted', file: '~/.gemini/trustedFolders.json', folder: ctx.workspace }]);
  });

  it('the longest matching rule wins; TRUST_PARENT trusts the rule\'s parent', () => {
    const ctx = fake();
    const work = path.join(ctx.root, 'work');
    trust(ctx, { [work]: 'TRUST_FOLDER', [ctx.workspace]: 'DO_NOT_TRUST' });
    assert.equal(geminiInForce(ctx)[0]?.code, 'gemini-folder-untrusted');
    trust(ctx, { [ctx.root]: 'DO_NOT_TRUST', [work]: 'TRUST_FOLDER' });
    assert.deepEqual(geminiInForce(ctx), []);
    trust(ctx, { [path.join(work, 'other')]: 'TRUST_PARENT' });
    assert.deepEqual(geminiInForce(ctx), []);
  });

  it('the environment and folder trust turned off decide first', () => {
    assert.deepEqual(geminiInForce(fake({}, { GEMINI_CLI_TRUST_WORKSPACE: 'true' })), []);
    assert.deepEqual(geminiInForce(fake({ '~/.gemini/settings.json': '{"security":{"folderTrust":{"enabled":false}}}' })), []);
    const ctx = fake({}, { GEMINI_CLI_TRUST_WORKSPACE: 'false' });
    trust(ctx, { [ctx.workspace]: 'TRUST_FOLDER' });
    assert.equal(geminiInForce(ctx)[0]?.code, 'gemini-folder-untrusted');
  });

  it('hooksConfig.enabled false turns hooks off; the workspace\'s own setting counts only in a trusted folder', () => {
    const user = fake({ '~/.gemini/settings.json': '{"hooksConfig":{"enabled":false}}' }, { GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    assert.deepEqual(geminiInForce(user), [{ code: 'gemini-hooks-off', file: '~/.gemini/settings.json' }]);
    const ws = fake({ '$WS/.gemini/settings.json': '{"hooksConfig":{"enabled":false}}' }, { GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    assert.deepEqual(geminiInForce(ws), [{ code: 'gemini-hooks-off', file: path.join(ws.workspace, '.gemini', 'settings.json') }]);
  });
});

describe('Claude Code: managed settings', () => {
  it('disableAllHooks or allowManagedHooksOnly in the managed file; nothing when it is missing', () => {
    const ctx = fake();
    const managed = path.join(ctx.root, 'managed.json');
    const at = (text?: string): InForceContext => ({ ...ctx, read: (f) => (f === '/etc/claude-code/managed-settings.json' ? text : readIfExists(f)) });
    assert.deepEqual(claudeInForce(at()), []);
    assert.deepEqual(claudeInForce(at('{"allowManagedHooksOnly": true}')), [{ code: 'managed-settings-block-hooks', file: '/etc/claude-code/managed-settings.json', setting: 'allowManagedHooksOnly' }]);
    assert.deepEqual(claudeInForce(at('{"disableAllHooks": true, "allowManagedHooksOnly": true}')), [{ code: 'managed-settings-block-hooks', file: '/etc/claude-code/managed-settings.json', setting: 'disableAllHooks' }]);
    assert.deepEqual(claudeInForce(at('{"disableAllHooks": false}')), []);
    assert.ok(!fs.existsSync(managed));
  });
});
