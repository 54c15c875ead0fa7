/**
 * What git runs later, outside the sandbox, where the workspace's repository keeps it elsewhere: a
 * worktree's and a submodule's `.git` is a file naming the git folder (`gitdir: …`), which may lie
 * outside the workspace (a worktree's config and hooks are the main repository's), and a repository's
 * submodules keep their own config and hooks in `.git/modules/…`. Tried under auto in a worktree: a
 * command set core.fsmonitor in the main repository's config, and the user's next `git status` in
 * the worktree ran it outside the sandbox. Nor may a command point `.git` elsewhere.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { repositoryCodePaths } from '../../../src/core/protect/repositoryCode';
import { planSandbox, readOnlyPaths } from '../../../src/core/sandbox/index';
import { forms, NO_SANDBOX, tempRoot } from './helpers';

const kernel = { skip: NO_SANDBOX };
const GIT_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x', GIT_ALLOW_PROTOCOL: 'file' };

function repositories() {
  const root = tempRoot('alfred-git-');
  const env = { ...process.env, ...GIT_ENV, HOME: path.join(root, 'home'), ALFRED_HOME: path.join(root, 'home', '.alfred') };
  fs.mkdirSync(env.HOME, { recursive: true });
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, stdio: 'pipe' }).toString();
  const main = path.join(root, 'main');
  fs.mkdirSync(main);
  git(main, 'init', '-q');
  fs.writeFileSync(path.join(main, 'a.txt'), 'a\n');
  git(main, 'add', 'a.txt');
  git(main, 'commit', '-qm', 'a');
  const lib = path.join(root, 'lib');
  fs.mkdirSync(lib);
  git(lib, 'init', '-q');
  git(lib, 'commit', '-q', '--allow-empty', '-m', 'lib');
  git(main, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'lib');
  git(main, 'commit', '-qm', 'lib');
  const worktree = path.join(root, 'feature');
  git(main, 'worktree', 'add', '-q', worktree);
  return { root, env, git, main, worktree };
}

test('a repository\'s code paths: its config and hooks wherever its .git points, each submodule\'s, and the .git pointer file itself', () => {
  const r = repositories();
  const gitDir = path.join(r.main, '.git');
  assert.deepEqual(repositoryCodePaths(r.main).sort(), [
    path.join(gitDir, 'config'), path.join(gitDir, 'hooks'), path.join(gitDir, 'modules', 'lib', 'config'), path.join(gitDir, 'modules', 'lib', 'hooks'),
  ].sort());
  assert.deepEqual(repositoryCodePaths(r.worktree).sort(), [
    path.join(r.worktree, '.git'), path.join(gitDir, 'config'), path.join(gitDir, 'hooks'), path.join(gitDir, 'modules', 'lib', 'config'), path.join(gitDir, 'modules', 'lib', 'hooks'),
  ].sort(), 'a worktree: the main repository\'s, through its commondir');
  assert.deepEqual(repositoryCodePaths(path.join(r.main, 'lib')).sort(), [
    path.join(r.main, 'lib', '.git'), path.join(gitDir, 'modules', 'lib', 'config'), path.join(gitDir, 'modules', 'lib', 'hooks'),
  ].sort(), 'a submodule opened as the workspace');
  assert.deepEqual(repositoryCodePaths(path.join(r.root, 'home')), [], 'no repository');
});

test('auto: in a worktree, a command can plant nothing git runs later (the main repository\'s config and hooks, a submodule\'s, the .git pointer); commits still work', kernel, () => {
  const r = repositories();
  const plan = planSandbox({ role: { name: 'coder', sandbox: 'auto' }, workspaceFolder: r.worktree, protectedGlobs: [], env: r.env, home: r.env.HOME });
  if (plan.kind !== 'sandboxed') throw new Error(plan.kind);
  const gitDir = path.join(r.main, '.git');
  const config = fs.readFileSync(path.join(gitDir, 'config'), 'utf8');
  const pointer = fs.readFileSync(path.join(r.worktree, '.git'), 'utf8');
  const attempts = [
    `git config --file ${gitDir}/config core.fsmonitor "touch ${r.root}/pwned"`,
    `printf '#!/bin/sh\\ntouch ${r.root}/pwned\\n' > ${gitDir}/hooks/pre-commit`,
    `git config --file ${gitDir}/modules/lib/config core.fsmonitor "touch ${r.root}/pwned"`,
    `echo 'gitdir: ${r.root}/evil' > .git`,
  ];
  for (const [form, file, args] of forms(plan, attempts.map((a) => `(${a}) 2>>${r.root}/errors.log && echo planted || echo refused`).join('; '), r.worktree)) {
    const ran = spawnSync(file, args, { cwd: r.worktree, env: { ...r.env, SHELL: '/bin/sh' }, encoding: 'utf8', timeout: 30_000 });
    assert.equal(ran.stdout, 'refused\n'.repeat(attempts.length), `${form}: ${ran.stderr}`);
  }
  assert.equal(fs.readFileSync(path.join(gitDir, 'config'), 'utf8'), config);
  assert.equal(fs.readFileSync(path.join(r.worktree, '.git'), 'utf8'), pointer);
  assert.equal(fs.existsSync(path.join(gitDir, 'hooks', 'pre-commit')), false);
  r.git(r.worktree, 'status', '--short');
  assert.equal(fs.existsSync(path.join(r.root, 'pwned')), false, 'the user\'s git status ran nothing of the command\'s');
  const [file, ...args] = plan.argv('echo b > b.txt && git add b.txt && git commit -qm b && git log --oneline | wc -l', r.worktree);
  const commit = spawnSync(file!, args, { cwd: r.worktree, env: r.env, encoding: 'utf8', timeout: 30_000 });
  assert.equal(commit.status, 0, commit.stderr);
  assert.equal(commit.stdout.trim(), '3');
});

test('GIT_CONFIG_GLOBAL=/dev/null (no configuration) mounts no device read-only: /dev/null stays usable inside', kernel, () => {
  const r = repositories();
  assert.ok(!readOnlyPaths({ workspaceFolder: r.main, protectedGlobs: [], env: r.env, home: r.env.HOME }).includes('/dev/null'));
  const plan = planSandbox({ role: { name: 'coder', sandbox: 'auto' }, workspaceFolder: r.main, protectedGlobs: [], env: r.env, home: r.env.HOME });
  if (plan.kind !== 'sandboxed') throw new Error(plan.kind);
  const [file, ...args] = plan.argv('echo gone > /dev/null && git status --short && echo usable', r.main);
  const ran = spawnSync(file!, args, { cwd: r.main, env: r.env, encoding: 'utf8', timeout: 30_000 });
  assert.equal(ran.stdout, 'usable\n', ran.stderr);
});

test('what the repository\'s configuration includes or names as a program counts too: a command could otherwise plant core.fsmonitor in an included file', () => {
  const r = repositories();
  const shared = path.join(r.main, 'tools', 'shared.gitconfig');
  const nested = path.join(r.root, 'nested.gitconfig');
  const monitor = path.join(r.main, 'tools', 'fsmonitor.sh');
  fs.mkdirSync(path.dirname(shared), { recursive: true });
  fs.writeFileSync(shared, `[include]\n\tpath = ${nested}\n`);
  fs.writeFileSync(nested, '[core]\n\tautocrlf = false\n');
  fs.writeFileSync(monitor, '#!/bin/sh\nexit 1\n');
  r.git(r.main, 'config', 'include.path', '../tools/shared.gitconfig');
  r.git(r.main, 'config', 'core.fsmonitor', monitor);
  r.git(r.main, 'config', 'alias.missing', `!${path.join(r.root, 'not-there.sh')}`);
  const held = repositoryCodePaths(r.worktree);
  for (const p of [shared, nested, monitor]) assert.ok(held.includes(p), `${p} in ${held.join(' ')}`);
  assert.ok(!held.includes(path.join(r.root, 'not-there.sh')), 'only what exists');
});

test('a .git that is a link to the git folder is followed', () => {
  const r = repositories();
  const ws = path.join(r.root, 'linked');
  fs.mkdirSync(ws);
  fs.symlinkSync(path.join(r.main, '.git'), path.join(ws, '.git'));
  assert.ok(repositoryCodePaths(ws).includes(path.join(ws, '.git', 'config')));
  assert.ok(repositoryCodePaths(ws).includes(path.join(ws, '.git', 'hooks')));
});
