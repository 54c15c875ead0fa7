import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gitConfigSources, namedBy } from '../../../src/core/protect/gitConfigSources';

const home = '/home/ana';

test('what a git configuration names: included files, hook and template folders, and the paths in the commands it runs', () => {
  const text = [
    '[user]', '\tname = Ana', '\temail = ana@example.com',
    '[include]', '\tpath = ~/.gitconfig.local', '\tpath = extra.inc',
    '[includeIf "gitdir:~/jobs/"]', '\tpath = ~/jobs/.gitconfig',
    '[core]', '\thooksPath = ~/.githooks', '\tfsmonitor = "~/bin/fsmonitor.sh"', '\teditor = vim', '\tpager = less -R',
    '[init]', '\ttemplateDir = ~/.git-templates',
    '[credential]', '\thelper = store', '\thelper = !/home/ana/bin/cred.sh get',
    '[credential "https://git.example.com"]', '\thelper = /home/ana/.local/libexec/helper',
    '[filter "secret"]', '\tclean = ~/tools/clean.py %f',
    '[alias]', '\tst = status', '\tpub = !sh ~/scripts/publish.sh --now',
    '[gpg]', '\tprogram = /usr/bin/gpg2',
    '[url "git@github.com:"]', '\tinsteadOf = https://github.com/',
  ].join('\n');
  const named = namedBy(text, '/home/ana/.gitconfig', home).map((s) => `${s.kind} ${s.path}`).sort();
  assert.deepEqual(named, [
    'file /home/ana/.gitconfig.local', 'file /home/ana/extra.inc', 'file /home/ana/jobs/.gitconfig',
    'folder /home/ana/.githooks', 'program /home/ana/bin/fsmonitor.sh',
    'folder /home/ana/.git-templates/hooks',
    'program /home/ana/bin/cred.sh', 'program /home/ana/.local/libexec/helper',
    'program /home/ana/tools/clean.py',
    'program /home/ana/scripts/publish.sh',
    'program /usr/bin/gpg2',
  ].sort());
});

test('the global configuration and what it includes are read, inside the home and outside the workspace only, missing ones too', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-gitcfg-'));
  try {
    const h = path.join(root, 'home');
    const ws = path.join(h, 'src', 'app');
    fs.mkdirSync(path.join(h, '.config', 'git'), { recursive: true });
    fs.writeFileSync(path.join(h, '.gitconfig'), `[include]\n\tpath = ~/.gitconfig.d/main\n[core]\n\thooksPath = ~/.githooks\n\tsshCommand = ${ws}/ssh.sh\n`);
    fs.mkdirSync(path.join(h, '.gitconfig.d'));
    // An included file names more: followed.
    fs.writeFileSync(path.join(h, '.gitconfig.d', 'main'), '[include]\n\tpath = ../.gitconfig.missing\n[diff]\n\texternal = ~/bin/difftool.sh\n');
    fs.writeFileSync(path.join(h, '.config', 'git', 'config'), '[credential]\n\thelper = !~/bin/cred.sh\n[core]\n\tpager = /usr/bin/less\n');
    const found = gitConfigSources({}, h, ws).map((s) => `${s.kind} ${path.relative(h, s.path)}`);
    assert.deepEqual(found, [
      'file .gitconfig.d/main', 'folder .githooks', 'program bin/cred.sh', 'file .gitconfig.missing', 'program bin/difftool.sh',
    ], 'the workspace\'s own script and the system\'s pager do not count');
    // GIT_CONFIG_GLOBAL replaces ~/.gitconfig.
    const moved = path.join(h, 'dotfiles', 'git.cfg');
    fs.mkdirSync(path.dirname(moved));
    fs.writeFileSync(moved, '[core]\n\thooksPath = ~/dotfiles/hooks\n');
    assert.deepEqual(gitConfigSources({ GIT_CONFIG_GLOBAL: moved }, h, ws).map((s) => path.relative(h, s.path)), ['dotfiles/hooks', 'bin/cred.sh']);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
