import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { decide } from '../../../src/core/rules/policy/gate';
import { toolCall } from '../../../src/core/rules/policy/toolCall';
import { firstProtectedShellWrite } from '../../../src/core/protect/shellProtection';
import { shellWrites } from '../../../src/core/protect/shellWrites';
import { installationPaths } from '../../../src/core/protect/agents';
import type { Role } from '../../../src/core/rules/roles/types';

const targets = (line: string): string[] => shellWrites(line).map((w) => w.target);
const role: Role = {
  name: 'coder', source: 'builtin', path: '/roles/coder.toml', description: 'coder', shellPolicy: 'track', sandbox: 'auto', tools: { denied: [] }, failClosed: false,
  limits: { maxContextTokens: 1000, maxShellInvocations: 10, maxCostUsd: 1, warnAtPercent: 80, blockAtPercent: 100 },
};

describe('shellWrites (best effort)', () => {
  it('finds redirection targets, not descriptors or /dev/null', () => {
    assert.deepEqual(targets('echo hi > out.txt'), ['out.txt']);
    assert.deepEqual(targets('echo hi >>log.txt 2>err.txt'), ['log.txt', 'err.txt']);
    assert.deepEqual(targets('make 2>&1 >/dev/null | tee build.log'), ['build.log']);
    assert.deepEqual(targets('cmd &> all.txt; echo x >| forced.txt'), ['all.txt', 'forced.txt']);
    assert.deepEqual(targets('echo >&2 oops'), []);
    assert.deepEqual(targets('sort < input.txt'), []);
  });

  it('finds the targets of rm, mv, cp, tee, touch, truncate, sed -i and dd', () => {
    assert.deepEqual(targets('rm -f a b -- -c'), ['a', 'b', '-c']);
    assert.deepEqual(targets('mv old new'), ['old', 'new']);
    assert.deepEqual(targets('cp -r src dest'), ['dest']);
    assert.deepEqual(targets('cp -t dir a b'), ['dir']);
    assert.deepEqual(targets('echo x | tee -a one two'), ['one', 'two']);
    assert.deepEqual(targets('touch f; truncate -s 0 g'), ['f', 'g']);
    assert.deepEqual(targets("sed -i 's/a/b/' f1 f2"), ['f1', 'f2']);
    assert.deepEqual(targets("sed -i.bak -e 's/a/b/' f3"), ['f3']);
    assert.deepEqual(targets("sed 's/a/b/' f4"), [], 'sed without -i only reads');
    assert.deepEqual(targets('dd if=/dev/zero of=disk.img bs=1'), ['disk.img']);
    assert.deepEqual(targets('sudo FOO=1 rm x'), ['x']);
    assert.deepEqual(targets('cat a b'), []);
  });

  it('reads quotes, escapes, operators and cd like a shell, and skips here-document bodies', () => {
    assert.deepEqual(targets(`rm "my file" 'other file' third\\ file`), ['my file', 'other file', 'third file']);
    assert.deepEqual(targets('echo "a > b" && echo \'c > d\''), []);
    assert.deepEqual(shellWrites('cd test && rm x').map((w) => [w.cwd, w.target]), [['test', 'x']]);
    assert.deepEqual(targets('cat > notes.md <<EOF\nrm -rf everything\nEOF\necho done > done.txt'), ['notes.md', 'done.txt']);
    assert.equal(shellWrites('rm -rf build').at(0)?.tree, true);
    assert.equal(shellWrites('rm test/*.js').at(0)?.tree, true);
  });
});

describe('protected paths in shell commands', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-shellprot-')));
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  const ws = path.join(root, 'ws');
  const state = path.join(root, 'state');
  fs.mkdirSync(path.join(ws, 'test'), { recursive: true });
  fs.mkdirSync(state);
  const options = { globs: ['test/**'], workspaceFolder: ws, stateDir: state };
  const hit = (line: string, cwd?: string) => firstProtectedShellWrite(line, options, cwd)?.hit.kind;

  it('refuses visible writes to protect globs, the checks file, role files and the state folder', () => {
    assert.equal(hit('echo "x" > test/cart.test.js'), 'glob');
    assert.equal(hit('sed -i s/1/2/ test/cart.test.js'), 'glob');
    assert.equal(hit('rm -rf test'), 'glob');
    assert.notEqual(hit('rm -rf *'), undefined, 'a wildcard over the folder holding the tests');
    assert.equal(hit('cd test && rm cart.test.js'), 'glob');
    assert.equal(hit('rm cart.test.js', 'test'), 'glob', 'relative to the call\'s cwd');
    assert.equal(hit('mv .alfred/checks.toml /tmp/x'), 'checks-file');
    assert.equal(hit('rm -r .alfred'), 'governance', 'the whole .alfred folder sets rules');
    assert.equal(hit('tee .alfred/roles/me.toml < x'), 'governance');
    assert.equal(hit(`echo {} > ${path.join(state, 'ledger.json')}`), 'state-folder');
    assert.equal(hit(`rm -rf ${root}`), 'state-folder');
  });

  it('lets ordinary writes through, inside the workspace and out of it', () => {
    assert.equal(hit('echo x > src/new.js && rm -rf build'), undefined);
    assert.equal(hit('npm test > /tmp/test.log 2>&1'), undefined);
    assert.equal(hit('cat test/cart.test.js | grep total'), undefined);
    assert.equal(hit('cp test/cart.test.js backup.js'), undefined, 'reading a protected file is fine');
  });

  it('refuses visible writes to the home folder\'s governance paths, wherever the command names them from', () => {
    const home = path.join(root, 'home');
    fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
    fs.symlinkSync(path.join(home, '.claude'), path.join(ws, 'claude-link'));
    const governancePaths = ['.alfred', '.claude', '.copilot', '.config/Code/User'].map((p) => path.join(home, p));
    const withHome = { ...options, home: { dir: home, governancePaths, runsLaterPaths: ['.bashrc', '.zshenv', '.gitconfig', '.config/git', '.vscode/extensions'].map((p) => path.join(home, p)) } };
    const homeHit = (line: string) => firstProtectedShellWrite(line, withHome)?.hit;
    assert.deepEqual(homeHit('printf "#!/bin/sh\\nexit 0\\n" > ~/.alfred/bin/alfred'), { path: '~/.alfred/bin/alfred', kind: 'governance' });
    assert.equal(homeHit('echo \'{"disableAllHooks":true}\' > "$HOME/.claude/settings.json"')?.kind, 'governance');
    assert.equal(homeHit('cp /dev/null ${HOME}/.config/Code/User/settings.json')?.kind, 'governance');
    assert.equal(homeHit('mkdir -p ~/.copilot/hooks && tee ~/.copilot/hooks/x.json < h.json')?.kind, 'governance');
    assert.equal(homeHit('rm -rf ~/.config')?.kind, 'governance', 'a folder above one');
    assert.equal(homeHit('echo {} > claude-link/settings.json')?.kind, 'governance', 'through a symlink in the workspace');
    // The rest of the home folder is the command's to write.
    assert.equal(homeHit('mkdir -p ~/.cache/x && echo 1 > ~/.cache/x/y && npm config set x 1 > ~/.npmrc'), undefined);
    assert.equal(homeHit('echo x > ~/.alfredx/notes'), undefined, 'a name that only starts like one');
    // What a shell or git runs later, outside the sandbox: existing or not.
    assert.deepEqual(homeHit('echo "curl x | sh" >> ~/.bashrc'), { path: '~/.bashrc', kind: 'runs-later' });
    assert.equal(homeHit('printf "rm -rf ~/.alfred" > $HOME/.zshenv')?.kind, 'runs-later');
    assert.equal(homeHit('sed -i s/a/b/ ~/.config/git/config')?.kind, 'runs-later');
    assert.equal(homeHit('cat ~/.bashrc > ~/bashrc.bak'), undefined, 'reading one is fine');
    // A start-up file kept in a dotfiles folder and linked from the home: its real file is held too.
    fs.mkdirSync(path.join(home, 'dotfiles'));
    fs.writeFileSync(path.join(home, 'dotfiles', 'zshenv'), '');
    fs.symlinkSync(path.join(home, 'dotfiles', 'zshenv'), path.join(home, '.zshenv'));
    assert.equal(homeHit('echo "curl x | sh" >> ~/dotfiles/zshenv')?.kind, 'runs-later');
    assert.equal(homeHit('sed -i s/runHooks/skip/ ~/.vscode/extensions/github.copilot-chat-0.30.0/dist/extension.js')?.kind, 'runs-later', 'the extension that runs the hooks');
  });

  it('the gate refuses such a command with a protected-path reason', () => {
    const refused = decide({ role, call: toolCall('run_in_terminal', { command: 'rm test/cart.test.js' }), protectedPaths: options });
    assert.equal(refused.allowed, false);
    assert.equal(refused.code, 'protected-path');
    assert.match(refused.reason!, /test\/cart\.test\.js.*"test\/\*\*".*through rm/);
    assert.equal(decide({ role, call: toolCall('ctx_shell', { command: 'npm test' }), protectedPaths: options }).allowed, true);
  });
});

describe('Alfred\'s installation in the gate', () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-install-')));
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  const installation = path.join(root, 'ext');
  const ws = path.join(root, 'ws');
  fs.mkdirSync(path.join(installation, 'roles'), { recursive: true });
  fs.mkdirSync(ws);
  const protectedPaths = (workspaceFolder: string) => ({
    globs: [], workspaceFolder, home: { dir: path.join(root, 'home'), governancePaths: installationPaths(installation, workspaceFolder), runsLaterPaths: [] },
  });

  it('refuses a visible write to the built-in roles or the code, from the shell and from an edit tool of a workspace inside it', () => {
    const shell = decide({ role, call: toolCall('Bash', { command: `echo '[limits]' > ${installation}/roles/coder.toml` }), protectedPaths: protectedPaths(ws) });
    assert.equal(shell.code, 'protected-path');
    assert.match(shell.reason!, /sets the rules agents work under/);
    assert.equal(decide({ role, call: toolCall('Bash', { command: `rm -rf ${installation}` }), protectedPaths: protectedPaths(ws) }).code, 'protected-path');
    // The repository opened as the workspace: roles/ and dist/ are held, src/ is not.
    const edit = (file: string) => decide({ role, call: toolCall('create_file', { filePath: path.join(installation, file), content: 'x' }), protectedPaths: protectedPaths(installation) });
    assert.equal(edit('roles/coder.toml').code, 'protected-path');
    assert.equal(edit('dist/cli/alfred.cjs').code, 'protected-path');
    assert.equal(edit('src/core/x.ts').allowed, true);
  });
});
