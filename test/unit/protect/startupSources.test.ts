import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { sourcedBy as sourced, startupSources as sources } from '../../../src/core/protect/startupSources';

const sourcedBy = (text: string, home: string): string[] => sourced(text, home).map((s) => s.path);
const startupSources = (home: string, files: readonly string[], ws?: string): string[] => sources(home, files, ws).map((s) => s.path);

const HOME = '/home/ana';

test('the lines installers write into start-up files: each names the script it sources or the program it evaluates', () => {
  const bashrc = [
    '# ~/.bashrc',
    'export NVM_DIR="$HOME/.nvm"',
    '[ -s "$NVM_DIR/nvm.sh" ] && \\. "$NVM_DIR/nvm.sh"  # This loads nvm',
    '[ -s "$NVM_DIR/bash_completion" ] && \\. "$NVM_DIR/bash_completion"',
    '. "$HOME/.cargo/env"',
    'export SDKMAN_DIR="$HOME/.sdkman"',
    '[[ -s "$HOME/.sdkman/bin/sdkman-init.sh" ]] && source "$HOME/.sdkman/bin/sdkman-init.sh"',
    'test -r /home/ana/.opam/opam-init/init.sh && . /home/ana/.opam/opam-init/init.sh > /dev/null 2> /dev/null || true',
    'eval "$(/home/ana/miniconda3/bin/conda \'shell.bash\' \'hook\' 2> /dev/null)"',
    'eval "$(~/.local/bin/mise activate bash)"',
    'if [ -f ~/.bash_aliases ]; then . ~/.bash_aliases; fi',
    'source "${XDG_CONFIG_HOME:-$HOME/.config}/shell/env"',
    'source ${ZDOTDIR}/plugins.zsh',
    'eval "$(pyenv init -)"',
    '. /etc/bash_completion',
    "source '$HOME/literal'",
    '# . ~/commented-out.sh',
    'echo ready. done',
  ].join('\n');
  assert.deepEqual(sourcedBy(bashrc, HOME), [
    '/home/ana/.nvm/nvm.sh', '/home/ana/.nvm/bash_completion', '/home/ana/.cargo/env', '/home/ana/.sdkman/bin/sdkman-init.sh',
    '/home/ana/.opam/opam-init/init.sh', '/home/ana/miniconda3/bin/conda', '/home/ana/.local/bin/mise', '/home/ana/.bash_aliases',
    '/home/ana/.config/shell/env', '/etc/bash_completion',
  ]);
});

test('a variable the file set from something only the running shell knows is not guessed at; a later assignment replaces an earlier one', () => {
  assert.deepEqual(sourcedBy('D=$(pwd)\n. "$D/x.sh"\nD=~/tools\n. $D/y.sh\nD=`pwd`\n. $D/z.sh\n', HOME), ['/home/ana/tools/y.sh']);
});

test('startupSources: what the start-up files name inside the home and outside the workspace, read again when a file changes', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-startup-'));
  try {
    const ws = path.join(home, 'src', 'app');
    fs.writeFileSync(path.join(home, '.bashrc'), '. ~/.nvm/nvm.sh\n. /etc/profile.d/x.sh\n. ~/src/app/.envrc\nsource ~\n');
    fs.mkdirSync(path.join(home, '.zshrc')); // a folder where a file is expected: skipped
    assert.deepEqual(startupSources(home, ['.bashrc', '.zshrc', '.profile'], ws), [path.join(home, '.nvm', 'nvm.sh')]);
    fs.writeFileSync(path.join(home, '.profile'), '. "$HOME/.cargo/env"\n');
    assert.deepEqual(startupSources(home, ['.bashrc', '.zshrc', '.profile'], ws), [path.join(home, '.nvm', 'nvm.sh'), path.join(home, '.cargo', 'env')]);
    // The home opened as the workspace: what the start-up files source stays the user's, the workspace's own file too.
    assert.deepEqual(startupSources(home, ['.bashrc', '.zshrc', '.profile'], home),
      [path.join(home, '.nvm', 'nvm.sh'), path.join(home, 'src', 'app', '.envrc'), path.join(home, '.cargo', 'env')]);
    fs.writeFileSync(path.join(home, '.bashrc'), '# nothing\n');
    assert.deepEqual(startupSources(home, ['.bashrc', '.zshrc', '.profile'], ws), [path.join(home, '.cargo', 'env')], 'a changed file is read again');
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test('a loop that sources what its words name: the folder of a glob, or each file named', () => {
  const text = [
    'if [ -d ~/.bashrc.d ]; then',
    '  for rc in ~/.bashrc.d/*; do',
    '    if [ -f "$rc" ]; then . "$rc"; fi',
    '  done',
    'fi',
    'for f in "$HOME/.config/bash/"*.sh ~/.bash_local; do source "${f}"; done',
    'for x in $(ls ~/.other); do . "$x"; done',
    '. ~/.config/*.sh',
  ].join('\n');
  assert.deepEqual(sourcedBy(text, HOME), ['/home/ana/.bashrc.d', '/home/ana/.config/bash', '/home/ana/.bash_local'], 'a loop over a command\'s output, or a glob sourced outside a loop, names nothing known');
});

test('startupSources follows what a sourced file sources in turn, and reads it again when it changes', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-startup-'));
  try {
    fs.writeFileSync(path.join(home, '.bashrc'), '[ -f ~/.bash_aliases ] && . ~/.bash_aliases\n');
    fs.writeFileSync(path.join(home, '.bash_aliases'), 'source ~/.aliases/git.sh\n');
    const files = ['.bashrc'];
    assert.deepEqual(startupSources(home, files), [path.join(home, '.bash_aliases'), path.join(home, '.aliases', 'git.sh')]);
    fs.mkdirSync(path.join(home, '.aliases'));
    fs.writeFileSync(path.join(home, '.aliases', 'git.sh'), '. ~/.aliases/deeper.sh\n');
    assert.deepEqual(startupSources(home, files), [path.join(home, '.bash_aliases'), path.join(home, '.aliases', 'git.sh'), path.join(home, '.aliases', 'deeper.sh')], 'a named file made since is read');
    fs.writeFileSync(path.join(home, '.bash_aliases'), '# none\n');
    assert.deepEqual(startupSources(home, files), [path.join(home, '.bash_aliases')], 'a sourced file changed since is read again');
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test('each path says how it runs: a file sourced, a folder a loop sources every file of, a program evaluated', () => {
  assert.deepEqual(sourced('. ~/.cargo/env\nfor f in ~/.bashrc.d/*; do . "$f"; done\neval "$(~/.local/bin/mise activate bash)"\n', HOME), [
    { path: '/home/ana/.cargo/env', kind: 'file' }, { path: '/home/ana/.bashrc.d', kind: 'folder' }, { path: '/home/ana/.local/bin/mise', kind: 'program' },
  ]);
});

test('zsh\'s loop form, and a sourced file that uses its sourcer\'s variables (oh-my-zsh\'s way)', () => {
  assert.deepEqual(sourcedBy('for f (~/.zsh/conf.d/*.zsh(N)); do source $f; done\n', HOME), ['/home/ana/.zsh/conf.d']);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-startup-'));
  try {
    fs.writeFileSync(path.join(home, '.zshrc'), 'export ZSH="$HOME/.framework"\nsource $ZSH/init.zsh\n');
    fs.mkdirSync(path.join(home, '.framework'));
    fs.writeFileSync(path.join(home, '.framework', 'init.zsh'), 'source "$ZSH/lib/core.zsh"\n');
    assert.deepEqual(startupSources(home, ['.zshrc']), [path.join(home, '.framework', 'init.zsh'), path.join(home, '.framework', 'lib', 'core.zsh')]);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});
