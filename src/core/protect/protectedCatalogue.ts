/**
 * The protected-path catalogue: every file and folder that sets an agent's rules or runs later outside
 * the sandbox, as lists (workspace- or home-relative) and the joins of those lists to a home. Edit
 * tools are refused on these paths and the shell sandbox mounts them read-only. Pure: what exists in a
 * home is asked by homeProbes.ts.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { GOVERNED_AGENTS } from './agentTable';

/** Alfred's own rule files in the workspace: roles (its own and lean-ctx's), checks, packs. */
const ALFRED_WORKSPACE_PATHS: readonly string[] = ['.alfred', '.lean-ctx'];

/**
 * What an edit tool may not write of the workspace's git repository: the files git runs code from
 * later, outside any sandbox (`core.fsmonitor`, aliases, hooks), and `.git` itself, which in a
 * worktree or a submodule is a file naming the git folder (pointed elsewhere, git would read a
 * configuration of the agent's). Wherever the repository keeps its configuration and hooks, the
 * sandbox holds them from shell commands (protect/repositoryCode.ts).
 */
export const REPOSITORY_CODE_PATHS: readonly string[] = ['.git/config', '.git/config.worktree', '.git/hooks'];
export const GIT_ENTRY = '.git';
/** GnuPG's configuration files, in `~/.gnupg` or where `GNUPGHOME` moves it. */
const GNUPG_FILES: readonly string[] = ['gpg-agent.conf', 'gpg.conf', 'scdaemon.conf', 'dirmngr.conf', 'common.conf'];

/**
 * Home files and folders whose content runs later, outside any sandbox, home-relative: the shells'
 * start-up files (a new terminal, the agent's next one included, runs them), git's user
 * configuration (hooks path, aliases, `core.fsmonitor`), the editors' extensions and remote server
 * (Copilot Chat, which runs the hooks, is one of those extensions), and the rest listed below. Held
 * read-only where they exist, never created: an empty `~/.bash_profile` would stop bash from reading
 * `~/.profile`.
 */
const HOME_CODE_PATHS: readonly string[] = [
  '.bashrc', '.bash_profile', '.bash_login', '.profile', '.bash_logout',
  '.zshenv', '.zprofile', '.zshrc', '.zlogin', '.zlogout', '.config/fish', '.gitconfig', '.config/git',
  '.vscode/extensions', '.vscode-insiders/extensions', '.vscode-oss/extensions', '.vscode-server', '.vscode-server-insiders',
  '.local/share/code-server/extensions',
  // Package managers' user configuration names programs they run: yarn's `yarnPath`, pnpm's and bun's.
  '.yarnrc', '.yarnrc.yml', '.config/pnpm', '.bunfig.toml',
  // Maven's start script sources ~/.mavenrc; Go's `go env -w` writes ~/.config/go/env (macOS: under
  // Library/Application Support; GOFLAGS=-exec runs the test binaries through a program of its
  // choosing); macOS keeps Python's user site in Library/Python.
  '.mavenrc', '.config/go', 'Library/Application Support/go', 'Library/Python',
  // The shells' frameworks, whose every file a new terminal sources (oh-my-zsh's plugins and themes by name).
  '.oh-my-zsh', '.oh-my-bash', '.bash_it', '.zprezto', '.zinit', '.antigen', '.zplug', '.local/share/zinit',
  // A desktop session's start-up files set the environment the editor starts with, its PATH too;
  // its menu's launchers (`code.desktop` among them) say what a click runs.
  '.pam_environment', '.xprofile', '.xsessionrc', '.local/share/applications',
  // The folder Fedora's `~/.bashrc` sources every file of (made when missing as what it sources is: startupSources.ts).
  '.bashrc.d',
  // Editors and a terminal multiplexer the user runs later load their configuration as code (a
  // `.vimrc` line can run a shell command at the next start; tmux runs `run-shell` lines). A missing
  // one is not made: an empty `.vimrc` turns Vim's defaults off.
  '.vimrc', '.vim', '.config/nvim', '.emacs', '.emacs.el', '.emacs.d', '.config/emacs', '.tmux.conf', '.config/tmux',
  // Programs other tools run from their configuration: kubectl's credential plugins (`exec`), the AWS
  // CLI's `credential_process`, Docker's credential helpers.
  '.kube/config', '.aws/config', '.docker/config.json',
  // Where the checks' `pip install`, `uv sync`, conda, Maven or NuGet fetch packages from: an index of the agent's serves its code.
  '.config/pip', '.pip', '.config/uv', '.condarc', '.m2/settings.xml', '.nuget/NuGet/NuGet.Config', '.config/NuGet',
  // What a language runs at every start, the checks' runs included (R's `.Rprofile` and user library,
  // Julia's `startup.jl` and packages, IPython's startup scripts, which Jupyter kernels run), or a REPL the user opens.
  '.Rprofile', '.Renviron', 'R', '.julia/config', '.julia/packages', '.ipython/profile_default/startup',
  '.ipython/profile_default/ipython_config.py', '.jupyter', '.irbrc', '.pryrc',
  // Which folders' `.envrc` (direnv) or `mise.toml` (mise) the user's shell runs on entering them:
  // an entry of the agent's would run its own the next time the user opens a terminal there.
  '.local/share/direnv', '.config/direnv', '.local/state/mise', '.config/mise',
  // GnuPG's configuration names programs its agent runs when git signs a commit (`pinentry-program`,
  // `scdaemon-program`) or gpg runs (`photo-viewer`); its keys and sockets stay writable.
  ...GNUPG_FILES.map((f) => `.gnupg/${f}`),
];

/** The shells' start-up files among HOME_CODE_PATHS: what they source is held too (startupSources.ts). */
export const STARTUP_FILES: readonly string[] = ['.bashrc', '.bash_profile', '.bash_login', '.profile', '.zshenv', '.zprofile', '.zshrc', '.zlogin'];


/**
 * Toolchains' folders in the home that hold code the acceptance checks (or the user's next terminal)
 * run, with the variable that moves each and what in it is held ('' the whole folder): held where
 * they exist; created empty only where `made` says (toolchainConfigToMake) and for the user site's
 * default place (HOME_CONFIG_PATHS).
 * - Python's user site (`lib` under the user base): a `.pth` line in it runs at every start of
 *   Python. Measured: a planted `import os; os._exit(0)` made a failing `python3 run_tests.py` pass
 *   `alfred check`.
 * - Cargo's configuration names programs cargo runs (`build.rustc-wrapper`; a target's `runner` runs
 *   the tests), and `.profile` sources its `env`; rustup's toolchains are what ~/.cargo/bin's
 *   proxies run.
 * - Version managers: the runtimes they installed (what `npm test`, `pytest` or `bundle exec` run)
 *   and the scripts the shells source (`nvm.sh`, `asdf.sh`, `sdkman-init.sh`).
 * - Gradle's init scripts run in every build, and `gradle.properties` can add a Java agent to it.
 */
export const TOOLCHAIN_FOLDERS: ReadonlyArray<{ folder: string; variable?: string; held: readonly string[]; made?: Made }> = [
  { folder: '.local', variable: 'PYTHONUSERBASE', held: ['lib'] },
  // Cargo reads the legacy `config` before `config.toml`: where that exists, an empty `config.toml` would only add a warning.
  { folder: '.cargo', variable: 'CARGO_HOME', held: ['config.toml', 'config', 'env'], made: { path: 'config.toml', kind: 'file', unless: 'config' } },
  { folder: '.rustup', variable: 'RUSTUP_HOME', held: [''] },
  { folder: '.nvm', variable: 'NVM_DIR', held: [''] },
  { folder: '.local/share/fnm', variable: 'FNM_DIR', held: [''] },
  { folder: '.volta', variable: 'VOLTA_HOME', held: ['tools'] },
  { folder: '.pyenv', variable: 'PYENV_ROOT', held: [''] },
  { folder: '.rbenv', variable: 'RBENV_ROOT', held: [''] },
  { folder: '.asdf', variable: 'ASDF_DATA_DIR', held: [''] },
  { folder: '.sdkman', variable: 'SDKMAN_DIR', held: [''] },
  { folder: '.gradle', variable: 'GRADLE_USER_HOME', held: ['init.d', 'init.gradle', 'init.gradle.kts', 'gradle.properties'], made: { path: 'init.d', kind: 'folder' } },
];

/** What of a toolchain's folder is made empty where the folder exists (`unless` that exists instead). */
export interface Made {
  path: string;
  kind: 'file' | 'folder';
  unless?: string;
}


/**
 * Home files and folders whose content names what a program run later executes, which an empty one
 * does not change, home-relative: npm's user configuration (its `script-shell` or `node-options`
 * would run the acceptance checks' `npm test` through a program of the agent's: measured, a failing
 * suite then passes), ssh's (a `ProxyCommand` runs at the next `git push`; an `authorized_keys` line
 * lets someone log in), the desktop's autostart entries, systemd's user units and the environment it
 * gives a session (`environment.d`: a PATH there reaches the editor, and the checks it runs), and
 * Python's user site's parent (`~/.local/lib`: Python adds `python3.N/site-packages` there to every
 * run once it exists). Created empty when missing, so that a command cannot create them, and held
 * read-only.
 */
export const HOME_CONFIG_PATHS: { readonly files: readonly string[]; readonly folders: readonly string[] } = {
  files: ['.npmrc'],
  folders: ['.ssh', '.config/autostart', '.config/systemd/user', '.config/environment.d', '.local/lib'],
};

/**
 * What of Alfred's own installation no agent may write: the built-in roles, the code that every hook
 * call and the editor run (`dist/`), the packs and the manifest that names the code. The whole folder
 * when it lies apart from the workspace (an installed extension); these four when one holds the
 * other (Alfred's own repository opened as the workspace, the rest of which an agent may work on).
 */
export function installationPaths(installation: string, workspaceFolder: string): string[] {
  const root = path.resolve(installation);
  const ws = path.resolve(workspaceFolder);
  const overlaps = root === ws || ws.startsWith(root + path.sep) || root.startsWith(ws + path.sep);
  return overlaps ? ['roles', 'dist', 'packs', 'package.json'].map((p) => path.join(root, p)) : [root];
}


let lastFixed: { home: string; paths: readonly string[] } | undefined;

/**
 * `path.join(home, p)` for the lists' paths, which are already normal (`a/b`, no `.`, `..` or
 * doubled slash; agents.test.ts checks): on POSIX joined as text, since a hook process joins some
 * three hundred of them at start, and path.join normalizes each again (a millisecond and more, cold).
 */
function inHome(home: string): (p: string) => string {
  if (path.sep !== '/' || !path.isAbsolute(home)) return (p) => path.join(home, p);
  const base = path.join(home).replace(/\/+$/, '');
  return (p) => `${base}/${p}`;
}

/** The lists' paths in `home`: the gate and the sandbox both ask on every shell call, a hook process once each. */
export function fixedPaths(home: string): readonly string[] {
  if (lastFixed?.home !== home) {
    const at = inHome(home);
    const listed = [...HOME_CODE_PATHS, ...HOME_CONFIG_PATHS.files, ...HOME_CONFIG_PATHS.folders].map(at);
    const toolchains = TOOLCHAIN_FOLDERS.flatMap(({ folder, held }) => held.map((p) => at(p ? `${folder}/${p}` : folder)));
    lastFixed = { home, paths: [...listed, ...toolchains] };
  }
  return lastFixed.paths;
}

/**
 * The same configuration where the environment moves it (held where it exists, never created):
 * `XDG_CONFIG_HOME` for the entries under `~/.config` (git, fish, pnpm, go, autostart, systemd's),
 * the toolchains' own variables for their folders, and npm's, git's and Go's variables for their user
 * configuration files, `GNUPGHOME` for GnuPG's, and the variables that move the cloud tools' and
 * package indexes' configuration (`KUBECONFIG`, `AWS_CONFIG_FILE`, `DOCKER_CONFIG`, `PIP_CONFIG_FILE`,
 * `UV_CONFIG_FILE`, `CONDARC`). Relative values name no fixed file.
 */
export function relocatedConfiguration(env: NodeJS.ProcessEnv, home: string): string[] {
  const out: string[] = [];
  const absolute = (value: string | undefined): string | undefined => (value && path.isAbsolute(value) ? path.resolve(value) : undefined);
  const xdg = absolute(env.XDG_CONFIG_HOME);
  if (xdg && xdg !== path.join(path.resolve(home), '.config')) {
    const underConfig = [...HOME_CODE_PATHS, ...HOME_CONFIG_PATHS.folders].filter((p) => p.startsWith('.config/'));
    out.push(...underConfig.map((p) => path.join(xdg, p.slice('.config/'.length))));
  }
  for (const { variable, held } of TOOLCHAIN_FOLDERS) {
    const moved = absolute(variable && env[variable]);
    if (moved) out.push(...held.map((p) => path.join(moved, p)));
  }
  for (const name of ['NPM_CONFIG_USERCONFIG', 'npm_config_userconfig', 'GIT_CONFIG_GLOBAL', 'GOENV', 'AWS_CONFIG_FILE', 'PIP_CONFIG_FILE', 'UV_CONFIG_FILE', 'CONDARC']) {
    const file = absolute(env[name]);
    if (file) out.push(file);
  }
  // KUBECONFIG is a list of files; DOCKER_CONFIG a folder.
  out.push(...(env.KUBECONFIG ?? '').split(path.delimiter).flatMap((file) => absolute(file) ?? []));
  const docker = absolute(env.DOCKER_CONFIG);
  if (docker) out.push(path.join(docker, 'config.json'));
  const gnupg = absolute(env.GNUPGHOME);
  if (gnupg) out.push(...GNUPG_FILES.map((f) => path.join(gnupg, f)));
  return out;
}
/** Workspace files VS Code reads settings from, wherever they are. */
export const WORKSPACE_SETTINGS_GLOBS: readonly string[] = ['**/*.code-workspace'];
/**
 * code-server's machine settings, home-relative: its remote window reads machine-scoped settings such
 * as `alfred.providers` there, not from the user settings (a remote server's are under
 * `.vscode-server`, held whole). The folder appears only once such a setting was written.
 */
export const CODE_SERVER_MACHINE_FOLDER = '.local/share/code-server/Machine';
/** VS Code's user settings folders (desktop, Insiders, remote servers, code-server), home-relative. */
const EDITOR_USER_FOLDERS: readonly string[] = [
  '.config/Code/User', '.config/Code - Insiders/User', '.config/VSCodium/User', '.vscode-server/data/User',
  '.local/share/code-server/User', CODE_SERVER_MACHINE_FOLDER, 'Library/Application Support/Code/User', 'AppData/Roaming/Code/User',
];

function unique(list: readonly string[]): string[] {
  return [...new Set(list)];
}

/** Workspace-relative folders and files (with `/`) that only the user changes. */
export const GOVERNANCE_WORKSPACE_PATHS: readonly string[] = unique([
  ...ALFRED_WORKSPACE_PATHS,
  ...GOVERNED_AGENTS.flatMap((a) => [a.hookFile, ...a.workspacePaths]),
]).filter((p, _, all) => !all.some((q) => q !== p && p.startsWith(`${q}/`)));

/** governanceHomePaths by home and Alfred's home: it is asked on every tool call, and some sixty joins cost more than a lookup. */
const governanceHomeKept = new Map<string, readonly string[]>();

/** Absolute paths outside the workspace that only the user changes: Alfred's home, agents' user config, VS Code's user settings. */
export function governanceHomePaths(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string[] {
  // A relative ALFRED_HOME is resolved against the process's folder.
  const key = `${home}\0${env.ALFRED_HOME ?? ''}\0${env.ALFRED_HOME && !path.isAbsolute(env.ALFRED_HOME) ? process.cwd() : ''}`;
  let kept = governanceHomeKept.get(key);
  if (!kept) {
    const alfredHome = env.ALFRED_HOME ? path.resolve(env.ALFRED_HOME) : undefined;
    kept = unique([
      path.join(home, '.alfred'),
      ...(alfredHome ? [alfredHome] : []),
      path.join(home, '.lean-ctx'),
      ...GOVERNED_AGENTS.flatMap((a) => a.homePaths.map((p) => path.join(home, p))),
      ...EDITOR_USER_FOLDERS.map((p) => path.join(home, p)),
    ]);
    if (governanceHomeKept.size >= 16) governanceHomeKept.clear();
    governanceHomeKept.set(key, kept);
  }
  return [...kept];
}
