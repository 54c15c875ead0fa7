import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { GOVERNANCE_WORKSPACE_PATHS } from '../../../src/core/protect/agents';
import { MAX_LISTED_FILES, readOnlyPaths } from '../../../src/core/sandbox/mounts';
import { tempRoot } from './helpers';

function layout(files: string[]): { root: string; ws: string; home: string } {
  const root = tempRoot('alfred-mounts-');
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  for (const rel of files) {
    const abs = path.join(ws, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    if (!rel.endsWith('/')) fs.writeFileSync(abs, 'x');
  }
  fs.mkdirSync(ws, { recursive: true });
  return { root, ws, home };
}

const rel = (ws: string, list: string[]) => list.filter((p) => p.startsWith(`${ws}/`)).map((p) => path.relative(ws, p)).sort();

test('the workspace governance folders are mounted, the missing ones created empty first', () => {
  const { ws, home } = layout(['.github/workflows/ci.yml', '.vscode/settings.json']);
  const ro = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: {}, home });
  assert.deepEqual(rel(ws, ro), [...GOVERNANCE_WORKSPACE_PATHS].sort());
  for (const p of GOVERNANCE_WORKSPACE_PATHS) assert.ok(fs.statSync(path.join(ws, p)).isDirectory(), p);
  assert.deepEqual(fs.readdirSync(path.join(ws, '.claude')), []);
  assert.deepEqual(fs.readdirSync(path.join(ws, '.vscode')), ['settings.json'], 'an existing folder is left as it is');
  assert.ok(!ro.includes(path.join(ws, '.github')), '.github/workflows stays writable');
});

test('protect globs: a static base folder whole, other globs file by file, negations ignored', () => {
  const { ws, home } = layout(['tests/a.test.js', 'tests/deep/b.js', 'lib/x.spec.js', 'lib/sub/y.spec.js', 'lib/z.js', 'top.spec.js', 'docs/', 'fixtures/golden/', 'node_modules/m/q.spec.js', 'one/file.txt']);
  const ro = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: ['tests/**', 'lib/**/*.spec.js', '**/*.spec.js', '!docs/**', './fixtures/', 'one/file.txt', '  '], env: {}, home });
  const mine = rel(ws, ro).filter((p) => !GOVERNANCE_WORKSPACE_PATHS.includes(p));
  assert.deepEqual(mine, ['fixtures', 'lib/sub/y.spec.js', 'lib/x.spec.js', 'one/file.txt', 'tests', 'top.spec.js']);
});

test('a glob with more matches than the bound mounts its base folder, or keeps the shallowest matches when it has none', () => {
  const files = Array.from({ length: MAX_LISTED_FILES + 5 }, (_, i) => `gen/d${i % 7}/f${i}.snap`);
  const { ws, home } = layout(files);
  const based = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: ['gen/**/*.snap'], env: {}, home });
  assert.ok(based.includes(path.join(ws, 'gen')));
  const unbased = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: ['**/*.snap'], env: {}, home });
  assert.equal(unbased.filter((p) => p.endsWith('.snap')).length, MAX_LISTED_FILES);
});

test('*.code-workspace files are found at any depth, but not in node_modules or .git', () => {
  const { ws, home } = layout(['a.code-workspace', 'x/y/z/b.code-workspace', 'node_modules/p/c.code-workspace', '.git/d.code-workspace']);
  const ro = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: {}, home });
  assert.deepEqual(rel(ws, ro).filter((p) => p.endsWith('.code-workspace')), ['a.code-workspace', 'x/y/z/b.code-workspace']);
});

test('home: Alfred\'s, lean-ctx\'s and the agents\' folders created when missing, editors\' user folders mounted only when they exist', () => {
  const { root, ws, home } = layout([]);
  fs.mkdirSync(path.join(home, '.claude'));
  fs.writeFileSync(path.join(home, '.claude', 'settings.json'), '{}');
  fs.mkdirSync(path.join(home, '.config', 'Code', 'User'), { recursive: true });
  const alfredHome = path.join(root, 'alfred-home');
  const state = path.join(alfredHome, 'state', 'abc');
  const ro = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: { ALFRED_HOME: alfredHome }, home, stateDir: state });
  const homeSide = ro.filter((p) => !p.startsWith(`${ws}/`)).sort();
  const created = ['.alfred', '.lean-ctx', '.copilot', '.codex', '.gemini'].map((p) => path.join(home, p));
  // And the configuration created empty when missing (the test below).
  const config = ['.npmrc', '.ssh', '.config/autostart', '.config/systemd/user', '.config/environment.d', '.local/lib'].map((p) => path.join(home, p));
  assert.deepEqual(homeSide, [alfredHome, ...created, ...config, path.join(home, '.claude'), path.join(home, '.config', 'Code', 'User')].sort());
  for (const folder of [alfredHome, ...created]) assert.equal(fs.statSync(folder).mode & 0o777, 0o700, folder);
  assert.equal(fs.readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8'), '{}', 'an existing folder is left as it is');
  assert.equal(fs.existsSync(path.join(home, '.config', 'Code - Insiders')), false, 'a missing editor folder is not created');
});

test('home: code-server\'s machine settings folder, where its window reads alfred.providers, is created and held where code-server is used, and only there', () => {
  const { ws, home } = layout([]);
  const machine = path.join(home, '.local', 'share', 'code-server', 'Machine');
  assert.equal(readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: {}, home }).some((p) => p.includes('code-server')), false);
  assert.equal(fs.existsSync(path.join(home, '.local', 'share', 'code-server')), false, 'nothing of code-server is made where it is not used');
  fs.mkdirSync(path.join(home, '.local', 'share', 'code-server', 'User'), { recursive: true });
  const ro = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: {}, home });
  assert.ok(ro.includes(machine), 'missing, it would be the agent\'s to create with settings of its own');
  assert.equal(fs.statSync(machine).isDirectory(), true);
  assert.ok(ro.includes(path.join(home, '.local', 'share', 'code-server', 'User')));
});

test('home: what runs later outside the sandbox (start-up files, git\'s user configuration, the editor\'s extensions) where it exists, none created', () => {
  const { ws, home } = layout([]);
  fs.writeFileSync(path.join(home, '.bashrc'), 'alias ll="ls -l"\n');
  fs.writeFileSync(path.join(home, '.gitconfig'), '[user]\n');
  fs.mkdirSync(path.join(home, '.vscode', 'extensions', 'github.copilot-chat-0.30.0'), { recursive: true });
  fs.mkdirSync(path.join(home, '.local', 'share', 'applications'), { recursive: true });
  const ro = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: {}, home });
  for (const held of ['.bashrc', '.gitconfig', '.vscode/extensions', '.local/share/applications']) assert.ok(ro.includes(path.join(home, held)), held);
  for (const missing of ['.bash_profile', '.profile', '.zshrc', '.zshenv', '.config/git', '.vscode-server', '.bashrc.d']) {
    assert.equal(fs.existsSync(path.join(home, missing)), false, `${missing} is not created: an empty one would change what the shell reads`);
  }
});

test('home: the folders of PATH in the home are held (a program put there would stand in for another), a missing one made first; not the workspace\'s own', () => {
  const { ws, home } = layout(['node_modules/.bin/']);
  for (const dir of ['.local/bin', '.cargo/bin']) fs.mkdirSync(path.join(home, dir), { recursive: true });
  const env = { PATH: [path.join(home, '.local', 'bin'), '/usr/bin', path.join(home, '.cargo', 'bin'), path.join(home, 'missing', 'bin'), path.join(ws, 'node_modules', '.bin'), home].join(path.delimiter) };
  const ro = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env, home });
  assert.ok(ro.includes(path.join(home, '.local', 'bin')));
  assert.ok(ro.includes(path.join(home, '.cargo', 'bin')));
  // An installer's `export PATH="$HOME/missing/bin:$PATH"` names it before it exists: a command could make it and plant `npm`.
  assert.ok(ro.includes(path.join(home, 'missing', 'bin')));
  assert.deepEqual(fs.readdirSync(path.join(home, 'missing', 'bin')), []);
  for (const free of ['/usr/bin', path.join(ws, 'node_modules', '.bin'), home, ws]) assert.equal(ro.includes(free), false, free);
});

test('home: npm\'s and ssh\'s configuration, autostart, systemd\'s user units and session environment are created empty when missing (owner only) and held; an existing one is kept as it is', () => {
  const { ws, home } = layout([]);
  fs.mkdirSync(path.join(home, '.ssh'), { mode: 0o700 });
  fs.writeFileSync(path.join(home, '.ssh', 'config'), 'Host x\n');
  const ro = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: {}, home });
  for (const held of ['.npmrc', '.ssh', '.config/autostart', '.config/systemd/user', '.config/environment.d', '.local/lib']) assert.ok(ro.includes(path.join(home, held)), held);
  assert.deepEqual(fs.readdirSync(path.join(home, '.local', 'lib')), [], 'Python\'s user site\'s parent, made empty: a command cannot make the site');
  assert.equal(fs.readFileSync(path.join(home, '.npmrc'), 'utf8'), '');
  assert.equal(fs.statSync(path.join(home, '.npmrc')).mode & 0o777, 0o600);
  assert.equal(fs.statSync(path.join(home, '.config', 'autostart')).mode & 0o777, 0o700);
  assert.equal(fs.readFileSync(path.join(home, '.ssh', 'config'), 'utf8'), 'Host x\n');
  fs.writeFileSync(path.join(home, '.npmrc'), 'registry=https://registry.example/\n');
  readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: {}, home });
  assert.equal(fs.readFileSync(path.join(home, '.npmrc'), 'utf8'), 'registry=https://registry.example/\n');
  for (const missing of ['.yarnrc', '.yarnrc.yml', '.bunfig.toml', '.config/pnpm', '.pam_environment', '.xprofile', '.xsessionrc']) assert.equal(fs.existsSync(path.join(home, missing)), false, `${missing} is not created`);
});

test('home: a Node installation on PATH is held whole, so npm\'s code and global npmrc are too: n\'s under N_PREFIX, nvm\'s within ~/.nvm', () => {
  const { ws, home } = layout([]);
  const n = path.join(home, 'n');
  const nvm = path.join(home, '.nvm', 'versions', 'node', 'v22.11.0');
  for (const prefix of [n, nvm]) {
    for (const dir of ['bin', 'lib/node_modules/npm/bin', 'etc']) fs.mkdirSync(path.join(prefix, dir), { recursive: true });
    fs.writeFileSync(path.join(prefix, 'bin', 'node'), '');
  }
  const ro = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: { PATH: [path.join(n, 'bin'), '/usr/bin', path.join(nvm, 'bin')].join(path.delimiter) }, home });
  assert.ok(ro.includes(n));
  assert.equal(ro.includes(path.join(n, 'bin')), false, 'inside the installation, which is mounted whole');
  assert.ok(ro.includes(path.join(home, '.nvm')), 'nvm\'s folder whole: its nvm.sh runs in every new terminal');
});

test('home: ~/.bashrc.d is made and held when ~/.bashrc sources it (Fedora\'s does) and it is missing; not made otherwise', () => {
  const { ws, home } = layout([]);
  readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: {}, home });
  assert.equal(fs.existsSync(path.join(home, '.bashrc.d')), false, 'no ~/.bashrc');
  fs.writeFileSync(path.join(home, '.bashrc'), 'alias ll="ls -l"\n');
  readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: {}, home });
  assert.equal(fs.existsSync(path.join(home, '.bashrc.d')), false, 'a ~/.bashrc that does not name it');
  fs.writeFileSync(path.join(home, '.bashrc'), 'if [ -d ~/.bashrc.d ]; then\n  for rc in ~/.bashrc.d/*; do . "$rc"; done\nfi\n');
  const ro = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: {}, home });
  assert.ok(ro.includes(path.join(home, '.bashrc.d')));
  assert.equal(fs.statSync(path.join(home, '.bashrc.d')).mode & 0o777, 0o700);
});

test('home: git\'s configuration where XDG_CONFIG_HOME moves it is held where it exists, and the moved npmrc of NPM_CONFIG_USERCONFIG', () => {
  const { root, ws, home } = layout([]);
  const xdg = path.join(root, 'xdg');
  fs.mkdirSync(path.join(xdg, 'git'), { recursive: true });
  fs.writeFileSync(path.join(xdg, 'git', 'config'), '[user]\n');
  fs.writeFileSync(path.join(root, 'npmrc'), 'fund=false\n');
  const ro = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: { XDG_CONFIG_HOME: xdg, NPM_CONFIG_USERCONFIG: path.join(root, 'npmrc') }, home });
  assert.ok(ro.includes(path.join(xdg, 'git')));
  assert.ok(ro.includes(path.join(root, 'npmrc')));
  assert.equal(fs.existsSync(path.join(xdg, 'autostart')), false, 'a moved folder is not created');
});

test('home: toolchains\' code where it exists, none created: Python\'s user site, cargo\'s configuration (not its downloads), a version manager\'s runtimes, and what a start-up file sources', () => {
  const { ws, home } = layout([]);
  for (const dir of ['.local/lib/python3.11/site-packages', '.cargo/registry', '.pyenv/versions/3.12.1/lib']) fs.mkdirSync(path.join(home, dir), { recursive: true });
  fs.writeFileSync(path.join(home, '.cargo', 'config.toml'), '[build]\n');
  fs.mkdirSync(path.join(home, 'tools'));
  fs.writeFileSync(path.join(home, 'tools', 'env.sh'), 'export X=1\n');
  fs.writeFileSync(path.join(home, '.bashrc'), '. ~/tools/env.sh\n');
  const ro = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: {}, home });
  for (const held of ['.local/lib', '.cargo/config.toml', '.pyenv', 'tools/env.sh']) assert.ok(ro.includes(path.join(home, held)), held);
  for (const free of ['.cargo', '.cargo/registry', 'tools']) assert.equal(ro.includes(path.join(home, free)), false, `${free} stays writable`);
  for (const missing of ['.rustup', '.nvm', '.cargo/env', '.gradle']) assert.equal(fs.existsSync(path.join(home, missing)), false, `${missing} is not created`);
});

test('home: what the global git configuration includes or runs hooks from is made empty when missing and held; a program it names is held where it exists', () => {
  const { ws, home } = layout([]);
  fs.writeFileSync(path.join(home, '.gitconfig'), '[include]\n\tpath = ~/.gitconfig.local\n[core]\n\thooksPath = ~/.githooks\n[credential]\n\thelper = !~/bin/cred.sh\n');
  const ro = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: {}, home });
  assert.equal(fs.readFileSync(path.join(home, '.gitconfig.local'), 'utf8'), '');
  assert.deepEqual(fs.readdirSync(path.join(home, '.githooks')), []);
  for (const rel of ['.gitconfig.local', '.githooks']) assert.ok(ro.includes(path.join(home, rel)), rel);
  assert.equal(fs.existsSync(path.join(home, 'bin')), false, 'a program is not made');
});

test('home: a listed folder that holds the workspace (a dotfiles folder opened to work on) is not held, so the workspace stays writable', () => {
  const root = tempRoot('alfred-mounts-');
  const home = path.join(root, 'home');
  const ws = path.join(home, '.config', 'nvim');
  fs.mkdirSync(ws, { recursive: true });
  fs.writeFileSync(path.join(home, '.vimrc'), '');
  const ro = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: {}, home });
  assert.deepEqual(ro.filter((p) => ws === p || ws.startsWith(`${p}/`)), [], 'nothing held holds the workspace');
  assert.ok(ro.includes(path.join(home, '.vimrc')));
});

test('home: toolchains\' configuration a command could create is made empty where the toolchain is installed, and held; nothing for a toolchain not installed', () => {
  const { ws, home } = layout([]);
  for (const dir of ['.cargo/bin', '.gradle/caches', 'go/pkg']) fs.mkdirSync(path.join(home, dir), { recursive: true });
  const ro = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: {}, home });
  for (const [rel, kind] of [['.cargo/config.toml', 'file'], ['.gradle/init.d', 'folder'], ['.config/go', 'folder']] as const) {
    const abs = path.join(home, rel);
    assert.ok(ro.includes(abs), `${rel} is held`);
    if (kind === 'file') assert.equal(fs.readFileSync(abs, 'utf8'), '');
    else assert.deepEqual(fs.readdirSync(abs), []);
  }
  // Cargo's legacy `config` is read first: no config.toml beside it. No toolchain folder: nothing made.
  const other = layout([]);
  fs.mkdirSync(path.join(other.home, '.cargo'));
  fs.writeFileSync(path.join(other.home, '.cargo', 'config'), '[net]\nretry = 2\n');
  readOnlyPaths({ workspaceFolder: other.ws, protectedGlobs: [], env: {}, home: other.home });
  assert.deepEqual(fs.readdirSync(path.join(other.home, '.cargo')), ['config']);
  for (const rel of ['.gradle', '.config/go']) assert.equal(fs.existsSync(path.join(other.home, rel)), false, rel);
  // Where CARGO_HOME moves it.
  const moved = layout([]);
  const cargoHome = path.join(moved.root, 'cargo');
  fs.mkdirSync(cargoHome);
  const roMoved = readOnlyPaths({ workspaceFolder: moved.ws, protectedGlobs: [], env: { CARGO_HOME: cargoHome }, home: moved.home });
  assert.ok(roMoved.includes(path.join(cargoHome, 'config.toml')));
});

test('home: what a start-up file sources and is missing is made empty and held (a file 0600, a loop\'s folder 0700), so a command cannot make it; a program it evaluates is not made', () => {
  const { ws, home } = layout([]);
  fs.writeFileSync(path.join(home, '.bashrc'), '[ -f ~/.bash_local ] && . ~/.bash_local\nfor f in ~/.config/bash/*.sh; do . "$f"; done\neval "$(~/.local/bin/mise activate bash)"\n');
  const ro = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: {}, home });
  assert.ok(ro.includes(path.join(home, '.bash_local')));
  assert.ok(ro.includes(path.join(home, '.config', 'bash')));
  assert.equal(fs.readFileSync(path.join(home, '.bash_local'), 'utf8'), '');
  assert.equal(fs.statSync(path.join(home, '.bash_local')).mode & 0o777, 0o600);
  assert.equal(fs.statSync(path.join(home, '.config', 'bash')).mode & 0o777, 0o700);
  assert.equal(fs.existsSync(path.join(home, '.local', 'bin', 'mise')), false, 'an empty program would fail at every start');
});

test('a state folder outside Alfred\'s home is mounted too', () => {
  const { root, ws, home } = layout([]);
  const state = path.join(root, 'elsewhere', 'state');
  fs.mkdirSync(state, { recursive: true });
  assert.ok(readOnlyPaths({ workspaceFolder: ws, protectedGlobs: [], env: {}, home, stateDir: state }).includes(state));
});

test('symlinks are resolved: the real folder is mounted', () => {
  const { root, ws, home } = layout(['tests/a.test.js']);
  const shared = path.join(root, 'shared-settings');
  fs.mkdirSync(shared);
  fs.symlinkSync(shared, path.join(ws, '.vscode'));
  fs.symlinkSync(path.join(ws, 'tests'), path.join(ws, 'spec'));
  const link = path.join(root, 'ws-link');
  fs.symlinkSync(ws, link);
  const ro = readOnlyPaths({ workspaceFolder: link, protectedGlobs: ['spec/**'], env: {}, home });
  assert.ok(ro.includes(shared));
  assert.ok(ro.includes(path.join(ws, 'tests')));
  assert.ok(ro.includes(path.join(ws, '.alfred')), 'the workspace itself through its real path');
  assert.ok(ro.every((p) => !p.startsWith(link)));
});

test('the result lists each path once, nothing inside another, shallowest first', () => {
  const { ws, home } = layout(['.alfred/checks.toml']);
  const ro = readOnlyPaths({ workspaceFolder: ws, protectedGlobs: ['.alfred/**', '.github/hooks/alfred.json', '.github/**'], env: {}, home });
  assert.equal(new Set(ro).size, ro.length);
  for (const p of ro) assert.ok(!ro.some((q) => q !== p && p.startsWith(`${q}/`)), p);
  assert.ok(ro.includes(path.join(ws, '.github')) && !ro.includes(path.join(ws, '.github', 'hooks')));
  const depths = ro.map((p) => p.split('/').length);
  assert.deepEqual(depths, [...depths].sort((a, b) => a - b));
});
