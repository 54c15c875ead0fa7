import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { takeSnapshot } from '../../../../src/core/workflow/completion/snapshot';
import { git, hasGit, repo, tempFolder, writeFile } from './gitRepo';

const needsGit = { skip: !hasGit && 'git is not installed' };

describe('snapshot identity with git', needsGit, () => {
  it('a clean tree is its commit', async () => {
    const dir = repo({ 'a.txt': 'a\n', '.gitignore': 'build/\n' });
    writeFile(dir, 'build/out.txt', 'ignored'); // ignored files do not make a tree dirty
    const s = await takeSnapshot(dir);
    assert.equal(s.kind, 'commit');
    assert.equal(s.id, git(dir, 'rev-parse', 'HEAD'));
    assert.equal(s.branch, 'main');
    assert.deepEqual(s.changedFiles, []);
  });

  it('an untracked file makes a digest that includes its content; ignored files are excluded', async () => {
    const dir = repo({ 'a.txt': 'a\n', '.gitignore': 'build/\n*.log\n' });
    writeFile(dir, 'new.txt', 'one');
    const first = await takeSnapshot(dir);
    assert.equal(first.kind, 'digest');
    assert.match(first.id, /^sha256:[0-9a-f]{64}$/);
    assert.deepEqual(first.changedFiles, ['new.txt']);

    writeFile(dir, 'build/out.txt', 'anything');
    writeFile(dir, 'debug.log', 'anything');
    assert.equal((await takeSnapshot(dir)).id, first.id, 'ignored files do not count');

    writeFile(dir, 'new.txt', 'two');
    const changed = await takeSnapshot(dir);
    assert.notEqual(changed.id, first.id, 'the untracked file\'s content counts');
    writeFile(dir, 'new.txt', 'one');
    assert.equal((await takeSnapshot(dir)).id, first.id, 'same content, same digest');
  });

  it('modified, deleted and renamed tracked files are listed and change the digest', async () => {
    const dir = repo({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    writeFile(dir, 'a.txt', 'A\n');
    const modified = await takeSnapshot(dir);
    fs.rmSync(path.join(dir, 'b.txt'));
    const deleted = await takeSnapshot(dir);
    assert.notEqual(deleted.id, modified.id);
    git(dir, 'mv', 'c.txt', 'd.txt');
    const renamed = await takeSnapshot(dir);
    assert.deepEqual(renamed.changedFiles, ['a.txt', 'b.txt', 'c.txt', 'd.txt']);
    assert.notEqual(renamed.id, deleted.id);
  });

  it('a workspace inside a bigger repository only counts its own files', async () => {
    const dir = repo({ 'ws/a.txt': 'a\n', 'other/b.txt': 'b\n' });
    writeFile(dir, 'other/b.txt', 'changed outside the workspace');
    const s = await takeSnapshot(path.join(dir, 'ws'));
    assert.equal(s.kind, 'commit');
    writeFile(dir, 'ws/a.txt', 'changed inside');
    const inside = await takeSnapshot(path.join(dir, 'ws'));
    assert.deepEqual(inside.changedFiles, ['a.txt']);
  });
});

describe('snapshot identity without git', () => {
  it('hashes every file but .git and node_modules, names and contents', async () => {
    const dir = tempFolder({ 'a.txt': 'a', 'src/b.js': 'b' });
    const first = await takeSnapshot(dir);
    assert.equal(first.kind, 'digest');
    assert.equal(first.git, false);
    assert.equal(first.files, 2);
    writeFile(dir, 'node_modules/x/index.js', 'dependency');
    assert.equal((await takeSnapshot(dir)).id, first.id);
    writeFile(dir, 'src/b.js', 'B');
    const edited = await takeSnapshot(dir);
    assert.notEqual(edited.id, first.id);
    writeFile(dir, 'src/b.js', 'b');
    fs.renameSync(path.join(dir, 'a.txt'), path.join(dir, 'c.txt'));
    assert.notEqual((await takeSnapshot(dir)).id, first.id, 'a renamed file changes the digest');
  });

  it('follows .gitignore files at any depth, as git would: files they ignore never change the digest', async () => {
    const dir = tempFolder({ '.gitignore': 'build/\n*.log\n', 'a.txt': 'a', 'src/b.js': 'b', 'tool/.gitignore': '*\n', 'src/.gitignore': 'gen.js\n' });
    const first = await takeSnapshot(dir);
    assert.equal(first.files, 4, '.gitignore, a.txt, src/.gitignore, src/b.js');
    writeFile(dir, 'build/out.js', 'o');
    writeFile(dir, 'src/x.log', 'l');
    writeFile(dir, 'tool/requests.jsonl', '{}');
    writeFile(dir, 'src/gen.js', 'g');
    assert.equal((await takeSnapshot(dir)).id, first.id);
    writeFile(dir, 'gen.js', 'not ignored at the top: the rule lives in src/.gitignore');
    const changed = await takeSnapshot(dir);
    assert.notEqual(changed.id, first.id);
    assert.equal(changed.files, 5);
  });
});
