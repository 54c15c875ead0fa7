/**
 * Runs a real agent client headless (Claude Code, Codex, the Copilot CLI, Gemini CLI), installed from
 * npm as a dev dependency, against a scripted model on loopback, in a workspace with the hook files
 * Alfred installs and a home of its own. Every switch that would reach the network otherwise
 * (telemetry, update checks, sign-in) is off; the model is the only endpoint and it is on 127.0.0.1.
 *
 * Each client runs in its most permissive mode (Claude Code's bypassPermissions, Codex without its own
 * sandbox or approvals, Copilot's and Gemini's allow-all), so that only Alfred's hooks stand between
 * the model's calls and the disk: what a case leaves there is Alfred's doing.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { installHookFile, installLauncher, type ClientId } from './hookFiles';

const ROOT = path.resolve(__dirname, '../../..');
const BIN = path.join(ROOT, 'node_modules', '.bin');

/** The version each runner was written and checked against (the fixtures are named with it). */
const versionOf = (pkg: string): string => (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
export const CLIENT_VERSIONS: Record<ClientId, string> = {
  claude: versionOf('@anthropic-ai/claude-code'),
  codex: versionOf('@openai/codex'),
  'copilot-cli': versionOf('@github/copilot'),
  gemini: versionOf('@google/gemini-cli'),
};

export const CLIENT_PACKAGES: Record<ClientId, string> = {
  claude: 'claude-code', codex: 'codex', 'copilot-cli': 'copilot-cli', gemini: 'gemini-cli',
};

export interface ClientRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ClientSession {
  client: ClientId;
  /** The model endpoint, `http://127.0.0.1:PORT`. */
  modelUrl: string;
  workspace: string;
  home: string;
  /** The role the hooks decide as (ALFRED_ROLE in the client's environment, which its hooks inherit). */
  role: string;
  prompt?: string;
  /** Variables added last (e.g. PATH with the folders a case expects). */
  env?: Record<string, string>;
  /** Extra arguments (e.g. Claude Code's --resume). */
  args?: string[];
  timeoutMs?: number;
  /** A command the client runs under, e.g. strace to list its connections. */
  wrap?: string[];
}

const KEY = 'sk-scripted-0000';

/** Puts the launcher and the client's hook file in place, and the client's own settings in the home. */
export function prepareClient(client: ClientId, workspace: string, home: string, modelUrl: string): void {
  installLauncher(home);
  installHookFile(client, workspace);
  if (client === 'codex') {
    const codexHome = path.join(home, '.codex');
    fs.mkdirSync(codexHome, { recursive: true });
    // A custom provider on the Responses API; the workspace trusted (without trust Codex ignores
    // .codex/hooks.json); no update check, no analytics, no feedback upload.
    fs.writeFileSync(path.join(codexHome, 'config.toml'), [
      'model = "gpt-5.5"', 'model_provider = "scripted"', 'check_for_update_on_startup = false',
      '[analytics]', 'enabled = false', '[feedback]', 'enabled = false', '[otel]', 'exporter = "none"',
      // Plugins sync a curated list from GitHub at start; updates are looked for in the background.
      '[features]', 'plugins = false', 'remote_plugin = false', 'plugin_sharing = false', 'in_app_updates = false',
      '[model_providers.scripted]', 'name = "scripted"', `base_url = "${modelUrl}/v1"`, 'wire_api = "responses"', 'env_key = "SCRIPTED_API_KEY"',
      `[projects."${workspace}"]`, 'trust_level = "trusted"', '',
    ].join('\n'));
  }
  if (client === 'gemini') {
    fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      telemetry: { enabled: false },
    }));
  }
}

/** The command line and environment of one headless run. */
function invocation(s: ClientSession): { cmd: string; args: string[]; env: Record<string, string> } {
  const prompt = s.prompt ?? 'Run the steps you are given.';
  switch (s.client) {
    case 'claude':
      return {
        cmd: path.join(BIN, 'claude'),
        args: ['-p', prompt, '--output-format', 'json', '--model', 'claude-sonnet-4-5', '--permission-mode', 'bypassPermissions', ...(s.args ?? [])],
        env: {
          ANTHROPIC_BASE_URL: s.modelUrl, ANTHROPIC_API_KEY: KEY, DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1',
          DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_NON_ESSENTIAL_MODEL_CALLS: '1',
          // bypassPermissions refuses to start as root unless told it is in a sandbox.
          IS_SANDBOX: '1',
        },
      };
    case 'codex':
      return {
        cmd: path.join(BIN, 'codex'),
        args: ['exec', '--dangerously-bypass-hook-trust', '--dangerously-bypass-approvals-and-sandbox', '--skip-git-repo-check', '--color', 'never', ...(s.args ?? []), prompt],
        env: { CODEX_HOME: path.join(s.home, '.codex'), SCRIPTED_API_KEY: KEY, CODEX_DISABLE_UPDATE_CHECK: '1' },
      };
    case 'copilot-cli':
      return {
        cmd: path.join(BIN, 'copilot'),
        args: ['-p', prompt, '-s', '--no-auto-update', '--allow-all-tools', '--allow-all-paths', '--trust-folder', ...(s.args ?? [])],
        env: {
          COPILOT_OFFLINE: 'true', COPILOT_PROVIDER_BASE_URL: `${s.modelUrl}/v1`, COPILOT_PROVIDER_API_KEY: KEY, COPILOT_MODEL: 'gpt-4.1',
        },
      };
    case 'gemini':
      return {
        cmd: path.join(BIN, 'gemini'),
        args: ['-p', prompt, '-m', 'gemini-2.5-flash', '--yolo', '-o', 'json', ...(s.args ?? [])],
        env: { GOOGLE_GEMINI_BASE_URL: s.modelUrl, GEMINI_API_KEY: KEY, GEMINI_CLI_TRUST_WORKSPACE: 'true', GEMINI_TELEMETRY_ENABLED: 'false' },
      };
  }
}

/** The environment every client starts with: nothing of the caller's but PATH and the locale. */
function baseEnv(s: ClientSession): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: s.home, USER: process.env.USER ?? 'root', LANG: 'C.UTF-8', TERM: 'dumb',
    TMPDIR: process.env.TMPDIR ?? '/tmp', SHELL: '/bin/bash', CI: '1', NO_COLOR: '1', NO_PROXY: '127.0.0.1,localhost',
    ALFRED_ROLE: s.role,
    // A command that gets through must not fetch anything either (`npx alfred …` would install a
    // package of that name from the registry and run it): npm and pip are kept offline.
    npm_config_offline: 'true', npm_config_registry: 'http://127.0.0.1:9/', PIP_NO_INDEX: '1',
  };
}

/**
 * As root, a session runs in a mount namespace of its own where /dev/null is a mount point: a command
 * that gets through may otherwise replace the machine's /dev/null with a file (Gemini CLI runs its
 * shell commands with GIT_CONFIG_GLOBAL=/dev/null, so `git config --global` renames a file onto it).
 */
function guardDevices(): string[] {
  if (process.getuid?.() !== 0 || !fs.existsSync('/usr/bin/unshare')) return [];
  return ['/usr/bin/unshare', '--mount', '--propagation', 'private', '--', '/bin/sh', '-c', 'mount --bind /dev/null /dev/null && exec "$@"', 'sh'];
}

/** Runs one headless session to its end (or its timeout, which kills it). */
export function runClient(s: ClientSession): Promise<ClientRun> {
  const { cmd, args, env } = invocation(s);
  return new Promise((resolve) => {
    const [head, ...rest] = [...(s.wrap ?? []), ...guardDevices(), cmd, ...args];
    // stdin: an empty pipe, closed at once (a client given a stdin with data reads it as part of the prompt).
    const child = spawn(head!, rest, { cwd: s.workspace, env: { ...baseEnv(s), ...env, ...s.env }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    child.stdin.end();
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } }, s.timeoutMs ?? 180_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      // What the client left running (a background shell of its own) ends with it.
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* none left */ }
      resolve({ code, stdout, stderr });
    });
  });
}
