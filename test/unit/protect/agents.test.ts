import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { GOVERNED_AGENTS, commandSearchFolders, governedAgent, toolInstallations, runsLaterPaths, type AgentId } from '../../../src/core/protect/agents';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { commands: Array<{ command: string }> };
};
const contributed = new Set(manifest.contributes.commands.map((c) => c.command));

test('every governed agent\'s govern and stop commands are contributed by the manifest', () => {
  const missing = GOVERNED_AGENTS.flatMap((a) => [a.commands.govern, a.commands.stop]).filter((id) => !contributed.has(id));
  assert.deepEqual(missing, []);
});

test('agents that share a hook file share its commands, and agents with their own file have their own', () => {
  const byFile = new Map<string, string>();
  const byCommands = new Map<string, string>();
  for (const a of GOVERNED_AGENTS) {
    const commands = `${a.commands.govern} ${a.commands.stop}`;
    assert.equal(byFile.get(a.hookFile) ?? commands, commands, `${a.id} shares ${a.hookFile} but not its commands`);
    assert.equal(byCommands.get(commands) ?? a.hookFile, a.hookFile, `${a.id} shares commands with an agent of another hook file`);
    byFile.set(a.hookFile, commands);
    byCommands.set(commands, a.hookFile);
  }
  assert.deepEqual(governedAgent('copilot-cli').commands, { govern: 'alfred.governCopilot', stop: 'alfred.stopGoverningCopilot' });
  assert.deepEqual(governedAgent('codex').commands, { govern: 'alfred.governCodex', stop: 'alfred.stopGoverningCodex' });
});

test('an unknown agent is an error, not a silent first row', () => {
  assert.throws(() => governedAgent('cursor' as AgentId), /unknown agent cursor/);
});

test('the command search folders held are PATH\'s folders in the home, not the home itself nor any folder of the workspace\'s, in PATH\'s order, each once', () => {
  const home = '/home/ana';
  const ws = '/home/ana/src/app';
  const searchPath = [
    '/home/ana/.local/bin', '/usr/local/bin', '/home/ana/.cargo/bin', '/usr/bin', '/home/ana', '/home/ana/src',
    '/home/ana/src/app/node_modules/.bin', 'bin', '', '/home/ana/.local/bin/', '/home/anabel/bin', '/home/ana/.nvm/versions/node/v22.11.0/bin',
  ].join(path.delimiter);
  assert.deepEqual(commandSearchFolders(searchPath, home, ws), ['/home/ana/.local/bin', '/home/ana/.cargo/bin', '/home/ana/.nvm/versions/node/v22.11.0/bin']);
  assert.deepEqual(commandSearchFolders(undefined, home, ws), []);
  assert.deepEqual(commandSearchFolders(searchPath, '/', ws), [], 'a home at the root (HOME=/) holds no folder of PATH: they would all be the home\'s');
  // With the environment: what runs later is the fixed list and these.
  const all = runsLaterPaths(home, { env: { PATH: searchPath }, workspaceFolder: ws });
  assert.deepEqual(all.slice(0, runsLaterPaths(home).length), runsLaterPaths(home));
  assert.deepEqual(all.slice(runsLaterPaths(home).length), ['/home/ana/.local/bin', '/home/ana/.cargo/bin', '/home/ana/.nvm/versions/node/v22.11.0/bin']);
  assert.deepEqual(runsLaterPaths(home, { env: { Path: '/home/ana/bin' }, workspaceFolder: ws }).at(-1), '/home/ana/bin', 'a copy of Windows\' environment spells it Path');
  // The home opened as the workspace: its folders of PATH stay the user's, as its start-up files do.
  assert.deepEqual(commandSearchFolders(searchPath, home, home), [
    '/home/ana/.local/bin', '/home/ana/.cargo/bin', '/home/ana/src', '/home/ana/src/app/node_modules/.bin', '/home/ana/.nvm/versions/node/v22.11.0/bin',
  ]);
  assert.deepEqual(commandSearchFolders(searchPath, home, `${home}/`), commandSearchFolders(searchPath, home, home), 'however the home is spelled');
});

test('a Node installation among the command search folders is held whole (npm\'s code and its global npmrc are beside its bin); another bin folder is not', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-agents-'));
  try {
    const nvm = path.join(home, '.nvm', 'versions', 'node', 'v22.11.0');
    fs.mkdirSync(path.join(nvm, 'bin'), { recursive: true });
    fs.writeFileSync(path.join(nvm, 'bin', 'node'), '');
    fs.mkdirSync(path.join(nvm, 'lib', 'node_modules', 'npm'), { recursive: true });
    const local = path.join(home, '.local');
    fs.mkdirSync(path.join(local, 'bin'), { recursive: true });
    fs.writeFileSync(path.join(local, 'bin', 'node'), '', { mode: 0o755 }); // a node, but no lib/node_modules beside it
    const onlyBin = path.join(home, 'tools', 'bin');
    fs.mkdirSync(path.join(home, 'tools', 'lib', 'node_modules'), { recursive: true }); // node_modules, but no node
    assert.deepEqual(toolInstallations([path.join(nvm, 'bin'), path.join(local, 'bin'), onlyBin, path.join(home, '.cargo', 'bin')]), [nvm]);
    const searchPath = [path.join(local, 'bin'), path.join(nvm, 'bin')].join(path.delimiter);
    assert.deepEqual(runsLaterPaths(home, { env: { PATH: searchPath }, workspaceFolder: path.join(home, 'ws') }).slice(-3), [path.join(local, 'bin'), path.join(nvm, 'bin'), nvm]);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test('configuration the environment moves is held where it is moved: XDG_CONFIG_HOME for what is under ~/.config, npm\'s and git\'s own variables', () => {
  const home = '/home/ana';
  const ws = '/home/ana/src/app';
  const plain = runsLaterPaths(home, { env: {}, workspaceFolder: ws });
  const moved = runsLaterPaths(home, {
    env: { XDG_CONFIG_HOME: '/home/ana/.xdg', NPM_CONFIG_USERCONFIG: '/home/ana/dotfiles/npmrc', GIT_CONFIG_GLOBAL: 'gitconfig' },
    workspaceFolder: ws,
  });
  assert.deepEqual(moved.slice(0, plain.length), plain);
  assert.deepEqual(moved.slice(plain.length), [
    '/home/ana/.xdg/fish', '/home/ana/.xdg/git', '/home/ana/.xdg/pnpm', '/home/ana/.xdg/go', '/home/ana/.xdg/nvim', '/home/ana/.xdg/emacs',
    '/home/ana/.xdg/tmux', '/home/ana/.xdg/pip', '/home/ana/.xdg/uv', '/home/ana/.xdg/NuGet', '/home/ana/.xdg/direnv', '/home/ana/.xdg/mise',
    '/home/ana/.xdg/autostart', '/home/ana/.xdg/systemd/user',
    '/home/ana/.xdg/environment.d', '/home/ana/dotfiles/npmrc',
  ]);
  assert.deepEqual(runsLaterPaths(home, { env: { XDG_CONFIG_HOME: '/home/ana/.config/' }, workspaceFolder: ws }), plain, 'XDG_CONFIG_HOME at its default adds nothing');
  // Editors' and tmux's configuration, the cloud tools' program hooks, the package indexes' configuration.
  for (const p of ['.vimrc', '.vim', '.config/nvim', '.emacs.d', '.tmux.conf', '.kube/config', '.aws/config', '.docker/config.json', '.config/pip', '.config/uv', '.condarc',
    '.m2/settings.xml', '.Rprofile', 'R', '.julia/config', '.ipython/profile_default/startup', '.local/share/direnv', '.local/state/mise']) {
    assert.ok(plain.includes(path.join(home, p)), p);
  }
  assert.ok(!plain.includes(path.join(home, '.kube')) && !plain.includes(path.join(home, '.docker')), 'their caches stay writable');
  assert.ok(!plain.includes(path.join(home, '.m2')) && !plain.includes(path.join(home, '.julia')), 'Maven\'s repository and Julia\'s compiled caches stay writable');
  assert.deepEqual(runsLaterPaths(home, {
    env: { KUBECONFIG: `/home/ana/k/a.yaml${path.delimiter}rel.yaml${path.delimiter}/home/ana/k/b.yaml`, AWS_CONFIG_FILE: '/home/ana/aws.cfg', DOCKER_CONFIG: '/home/ana/dk', PIP_CONFIG_FILE: '/etc/pip.conf' },
    workspaceFolder: ws,
  }).slice(plain.length), ['/home/ana/aws.cfg', '/etc/pip.conf', '/home/ana/k/a.yaml', '/home/ana/k/b.yaml', '/home/ana/dk/config.json']);
  // A listed folder that holds the workspace (the user's nvim configuration opened to work on) is the agent's work; what lies in the workspace stays held.
  const inNvim = runsLaterPaths(home, { env: {}, workspaceFolder: '/home/ana/.config/nvim/lua' });
  assert.ok(!inNvim.includes(path.join(home, '.config', 'nvim')) && inNvim.includes(path.join(home, '.vimrc')));
  assert.ok(runsLaterPaths(home, { env: {}, workspaceFolder: home }).includes(path.join(home, '.bashrc')), 'the home opened as the workspace: its start-up files stay held');
  // GnuPG's configuration (its agent's pinentry-program runs when git signs), not its keys.
  for (const f of ['gpg-agent.conf', 'gpg.conf', 'scdaemon.conf', 'dirmngr.conf', 'common.conf']) assert.ok(plain.includes(path.join(home, '.gnupg', f)), f);
  assert.ok(!plain.includes(path.join(home, '.gnupg')), 'the keyring stays writable');
  assert.deepEqual(runsLaterPaths(home, { env: { GNUPGHOME: '/home/ana/keys' }, workspaceFolder: ws }).slice(plain.length), [
    '/home/ana/keys/gpg-agent.conf', '/home/ana/keys/gpg.conf', '/home/ana/keys/scdaemon.conf', '/home/ana/keys/dirmngr.conf', '/home/ana/keys/common.conf',
  ]);
});

test('toolchains\' code in the home is held, and where their own variables move it: Python\'s user site, cargo\'s configuration, the version managers\' runtimes, Go\'s env file', () => {
  const home = '/home/ana';
  const ws = '/home/ana/src/app';
  const fixed = runsLaterPaths(home);
  for (const p of ['.local/lib', '.cargo/config.toml', '.cargo/config', '.cargo/env', '.rustup', '.nvm', '.pyenv', '.rbenv', '.asdf', '.sdkman', '.volta/tools', '.config/go', '.mavenrc', '.gradle/init.d', '.gradle/gradle.properties', '.oh-my-zsh', '.bash_it']) {
    assert.ok(fixed.includes(path.join(home, p)), `${p} is held`);
  }
  assert.ok(!fixed.includes(path.join(home, '.cargo')) && !fixed.includes(path.join(home, '.cargo', 'registry')), 'cargo\'s downloads stay writable: builds fetch there');
  assert.ok(!fixed.includes(path.join(home, '.gradle')), 'Gradle\'s caches stay writable');
  const plain = runsLaterPaths(home, { env: {}, workspaceFolder: ws });
  const moved = runsLaterPaths(home, {
    env: { PYTHONUSERBASE: '/opt/ana/py', CARGO_HOME: '/opt/ana/cargo', NVM_DIR: '/opt/ana/nvm/', GOENV: '/home/ana/dotfiles/go.env', RUSTUP_HOME: 'rustup' },
    workspaceFolder: ws,
  });
  assert.deepEqual(moved.slice(0, plain.length), plain);
  assert.deepEqual(moved.slice(plain.length), [
    '/opt/ana/py/lib', '/opt/ana/cargo/config.toml', '/opt/ana/cargo/config', '/opt/ana/cargo/env', '/opt/ana/nvm', '/home/ana/dotfiles/go.env',
  ], 'a relative value (RUSTUP_HOME=rustup) names no fixed folder');
});

test('what the shells\' start-up files source is held with them: an installer\'s line names it', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-agents-'));
  try {
    const search = { env: {}, workspaceFolder: path.join(home, 'ws') };
    const before = runsLaterPaths(home, search);
    fs.writeFileSync(path.join(home, '.profile'), '[ -f "$HOME/.ghcup/env" ] && . "$HOME/.ghcup/env"\n');
    fs.writeFileSync(path.join(home, '.zshrc'), 'source ~/.config/zsh/aliases.zsh\n. ~/ws/env.sh\n');
    const after = runsLaterPaths(home, search);
    assert.deepEqual(after.slice(0, before.length), before);
    assert.deepEqual(after.slice(before.length), [path.join(home, '.ghcup', 'env'), path.join(home, '.config', 'zsh', 'aliases.zsh')], 'the workspace\'s own script is the agent\'s work');
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test('a folder of PATH outside the home counts when the user owns it (Homebrew\'s), and the installation it belongs to is held whole; a folder another user owns does not, nor any for root', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-agents-'));
  try {
    const home = path.join(root, 'home');
    const brew = path.join(root, 'opt', 'homebrew');
    // The tests may run as root, who owns everything: the user here is then another uid, given the
    // folders it owns, and the system's folder is made and given to root. Run as a user, that folder
    // is one root already owns.
    const asRoot = process.getuid!() === 0;
    const me = asRoot ? 4242 : process.getuid!();
    const system = asRoot ? path.join(root, 'usr', 'bin') : '/usr/bin';
    for (const dir of [home, path.join(brew, 'bin'), path.join(brew, 'lib', 'python3.12', 'site-packages'), ...(asRoot ? [system] : [])]) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(brew, 'bin', 'python3'), '');
    if (asRoot) {
      fs.chownSync(path.join(brew, 'bin'), me, me);
      fs.chownSync(system, 0, 0);
    }
    assert.equal(fs.statSync(system).uid, 0);
    const searchPath = [path.join(brew, 'bin'), system, '/'].join(path.delimiter);
    const ws = path.join(home, 'ws');
    assert.deepEqual(commandSearchFolders(searchPath, home, ws, { uid: me }), [path.join(brew, 'bin')]);
    assert.deepEqual(toolInstallations([path.join(brew, 'bin')]), [brew], 'python3 beside lib/python3.12: its site-packages too');
    assert.deepEqual(commandSearchFolders(searchPath, home, ws, { uid: 0 }), [], 'root: no folder outside the home');
    assert.deepEqual(commandSearchFolders(searchPath, home, ws, null), [], 'no user (Windows): none');
    assert.deepEqual(commandSearchFolders(searchPath, home, path.join(brew, 'bin', 'ws'), { uid: me }), [], 'a folder that holds the workspace is the agent\'s work');
    // Missing, it counts where the user could make it: below a folder of theirs, not another user's.
    const missing = [path.join(brew, 'bin', 'later', 'bin'), path.join(system, 'later')].join(path.delimiter);
    assert.deepEqual(commandSearchFolders(missing, home, ws, { uid: me }), [path.join(brew, 'bin', 'later', 'bin')]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('the fixed paths are joined as path.join joins them: every listed path is already normal', () => {
  for (const home of ['/home/ana', '/home/ana/', '/home//ana', '/']) {
    const fixed = runsLaterPaths(home);
    assert.ok(fixed.length >= 100, `${fixed.length}`);
    for (const p of fixed) assert.equal(p, path.join(p), `${home}: ${p}`);
    assert.ok(fixed.every((p) => p.startsWith(path.join(home, '/').replace(/\/?$/, '/'))), home);
  }
});
