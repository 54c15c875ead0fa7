import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { toolCall } from '../../../src/core/rules/policy/toolCall';
import { firstProtected, isProtected, toolPaths } from '../../../src/core/protect/toolPaths';

describe('toolPaths', () => {
  it('reads every path key', () => {
    assert.deepEqual(toolPaths({ filePath: 'a.ts' }), ['a.ts']);
    assert.deepEqual(toolPaths({ file_path: '/w/b.ts', old_string: 'x' }), ['/w/b.ts']);
    assert.deepEqual(toolPaths({ path: 'c', command: 'str_replace' }), ['c']);
    assert.deepEqual(toolPaths({ dirPath: 'd' }), ['d']);
    assert.deepEqual(toolPaths({ notebook_path: 'e.ipynb' }), ['e.ipynb']);
    assert.deepEqual(toolPaths({ filePaths: ['f', 'g', 'f'] }), ['f', 'g']);
    assert.deepEqual(toolPaths({ replacements: [{ filePath: 'h' }, { filePath: 'i' }, null, { oldString: 'x' }] }), ['h', 'i']);
    assert.deepEqual(toolCall('create_file', '{"path":"j"}').paths, ['j']);
    assert.deepEqual(toolPaths(null), []);
    assert.deepEqual(toolPaths({ filePath: 42, path: '  ' }), []);
  });

  it('reads the file lines of an apply_patch input or patch', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: src/new.ts',
      '+export {};',
      '*** Update File: src/old.ts',
      '*** Move to: src/moved.ts',
      '@@',
      '-a',
      '+b',
      '*** Delete File: tests/gone.test.ts',
      '*** End Patch',
    ].join('\n');
    const expected = ['src/new.ts', 'src/old.ts', 'src/moved.ts', 'tests/gone.test.ts'];
    assert.deepEqual(toolPaths({ input: patch, explanation: 'x' }), expected);
    assert.deepEqual(toolPaths({ patch }), expected);
    assert.deepEqual(toolPaths(patch), expected);
    assert.deepEqual(toolPaths({ input: '+*** Add File: not-a-header' }), []);
  });
});

describe('isProtected', () => {
  let root: string;
  let ws: string;
  let outside: string;
  let state: string;

  before(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-paths-')));
    ws = path.join(root, 'ws');
    outside = path.join(root, 'outside');
    state = path.join(root, 'state');
    for (const d of [ws, outside, state, path.join(ws, 'tests'), path.join(ws, 'src')]) fs.mkdirSync(d, { recursive: true });
    fs.symlinkSync(outside, path.join(ws, 'escape'));
    fs.symlinkSync(path.join(ws, 'tests'), path.join(ws, 'src', 'tests-link'));
    fs.symlinkSync(path.join(outside, 'not-yet.txt'), path.join(ws, 'dangling'));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  const opts = () => ({ globs: ['tests/**', '*.lock', 'secrets'], workspaceFolder: ws, stateDir: state });

  it('matches workspace-relative paths against globs, with dotfiles', () => {
    assert.equal(isProtected('src/a.ts', opts()), undefined);
    assert.deepEqual(isProtected('tests/unit/a.test.ts', opts()), { path: 'tests/unit/a.test.ts', kind: 'glob', glob: 'tests/**', relative: 'tests/unit/a.test.ts' });
    assert.equal(isProtected(path.join(ws, 'tests/.hidden'), opts())?.glob, 'tests/**');
    assert.equal(isProtected('tests', opts())?.glob, 'tests/**');
    assert.equal(isProtected('yarn.lock', opts())?.glob, '*.lock');
    assert.equal(isProtected('src/yarn.lock', opts()), undefined);
    assert.equal(isProtected('secrets/key.pem', opts())?.glob, 'secrets', 'a folder name protects what is in it');
    assert.equal(isProtected('src/../tests/x.ts', opts())?.glob, 'tests/**');
    assert.equal(isProtected(pathToFileURL(path.join(ws, 'tests/u.ts')).href, opts())?.glob, 'tests/**');
  });

  it('refuses paths that escape the workspace by ..', () => {
    assert.equal(isProtected('../outside/x.ts', opts())?.kind, 'outside-workspace');
    assert.equal(isProtected('src/../../x.ts', opts())?.kind, 'outside-workspace');
    assert.equal(isProtected('/etc/passwd', opts())?.kind, 'outside-workspace');
  });

  it('refuses paths that leave the workspace through a symlink', () => {
    assert.equal(isProtected('escape/file.txt', opts())?.kind, 'outside-workspace');
    assert.equal(isProtected('escape/new/deep.txt', opts())?.kind, 'outside-workspace', 'a file not yet created');
    assert.equal(isProtected('dangling', opts())?.kind, 'outside-workspace', 'a dangling link points outside');
    assert.equal(isProtected('src/tests-link/a.ts', opts())?.glob, 'tests/**', 'a link into a protected folder');
  });

  it('always protects the state folder and the checks file', () => {
    const noGlobs = { globs: [], workspaceFolder: ws, stateDir: state };
    assert.equal(isProtected(path.join(state, 'ledger.json'), noGlobs)?.kind, 'state-folder');
    assert.equal(isProtected('.alfred/checks.toml', noGlobs)?.kind, 'checks-file');
    assert.equal(isProtected('./.alfred/../.alfred/checks.toml', noGlobs)?.kind, 'checks-file');
    assert.equal(isProtected('.alfred/roles/coder2.toml', noGlobs)?.kind, 'governance');
    assert.equal(isProtected('.lean-ctx/roles/x.toml', noGlobs)?.kind, 'governance');
    assert.equal(isProtected('.github/hooks/alfred.json', noGlobs)?.kind, 'governance');
    assert.equal(isProtected('src/notes.md', noGlobs), undefined);
  });

  it('protects every governance file of every governed agent, and the editor settings that could loosen them', () => {
    const noGlobs = { globs: [], workspaceFolder: ws, stateDir: state };
    for (const p of [
      '.github/hooks/other.json', '.github/agents/alfred-coder.agent.md', '.vscode/settings.json', '.vscode/mcp.json',
      '.claude/settings.json', '.claude/settings.local.json', '.codex/hooks.json', '.codex/config.toml',
      '.alfred/notes.md', '.alfred/packs/x/context.md', 'team.code-workspace', 'sub/dir/x.code-workspace', '.vscode',
      '.git/config', '.git/hooks/pre-commit', '.git/config.worktree', '.git',
    ]) {
      assert.equal(isProtected(p, noGlobs)?.kind, 'governance', p);
    }
    for (const p of ['.github/workflows/ci.yml', 'src/vscode/settings.json', 'claude/settings.json', 'README.md', '.git/HEAD', '.gitignore']) {
      assert.equal(isProtected(p, noGlobs), undefined, p);
    }
  });

  it('finds the first protected path of a tool input', () => {
    assert.equal(firstProtected(toolPaths({ replacements: [{ filePath: 'src/a.ts' }, { filePath: 'tests/b.ts' }] }), opts())?.path, 'tests/b.ts');
    assert.equal(firstProtected(toolPaths({ filePath: 'src/a.ts' }), opts()), undefined);
  });
});

describe('hard links', () => {
  it('a second name of a protected file is protected; a file with one name, or linked to an ordinary file, is not', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-links-'));
    const workspace = path.join(root, 'ws');
    const home = path.join(root, 'home', '.alfred');
    const state = path.join(home, 'state', 'abc');
    fs.mkdirSync(path.join(workspace, 'tests'), { recursive: true });
    fs.mkdirSync(path.join(workspace, 'src'), { recursive: true });
    fs.mkdirSync(path.join(home, 'bin'), { recursive: true });
    fs.mkdirSync(state, { recursive: true });
    fs.writeFileSync(path.join(workspace, 'tests', 'x.test.js'), 'test');
    fs.writeFileSync(path.join(workspace, 'src', 'a.js'), 'a');
    fs.writeFileSync(path.join(state, 'ledger.json'), '{}');
    fs.writeFileSync(path.join(home, 'bin', 'alfred'), '#!/bin/sh');
    fs.linkSync(path.join(workspace, 'tests', 'x.test.js'), path.join(workspace, 'src', 'h.js'));
    fs.linkSync(path.join(workspace, 'src', 'a.js'), path.join(workspace, 'src', 'b.js'));
    fs.linkSync(path.join(state, 'ledger.json'), path.join(workspace, 'src', 'l.json'));
    fs.linkSync(path.join(home, 'bin', 'alfred'), path.join(workspace, 'src', 'launcher'));
    const options = { globs: ['tests/**'], workspaceFolder: workspace, stateDir: state };
    const h = isProtected('src/h.js', options);
    assert.equal(h?.kind, 'glob');
    assert.equal(h?.glob, 'tests/**');
    assert.equal(h?.path, 'src/h.js');
    assert.equal(h?.linkedTo, path.join(workspace, 'tests', 'x.test.js'));
    assert.equal(isProtected('src/l.json', options)?.kind, 'state-folder');
    assert.equal(isProtected('src/launcher', options)?.kind, 'outside-workspace');
    assert.equal(isProtected('src/a.js', options), undefined, 'two ordinary names of one file');
    assert.equal(isProtected('src/b.js', options), undefined);
    assert.equal(firstProtected(toolPaths({ filePath: path.join(workspace, 'src', 'h.js') }), options)?.kind, 'glob');
    fs.rmSync(root, { recursive: true, force: true });
  });
});
