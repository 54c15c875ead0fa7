/**
 * The terminal agents installed on this machine (found on PATH) and their versions (`--version`),
 * against the versions Alfred was tested with (agentTable.ts): a newer client may have renamed a
 * tool, moved a field or changed what a hook answer does, so Alfred says so.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GOVERNED_AGENTS, type AgentId } from './agentTable';

export interface ClientVersion {
  id: AgentId;
  label: string;
  program: string;
  testedWith: string;
  /** Where it was found on PATH; undefined when it is not installed. */
  path?: string;
  /** What `--version` printed (its first version number); undefined when it printed none. */
  version?: string;
  /** `newer`: installed and newer than tested; `same-or-older`; `unknown`: no version read. */
  verdict: 'not-installed' | 'newer' | 'same-or-older' | 'unknown';
}

/** `a` compared with `b`, both `x.y.z` (missing parts are 0): negative, 0 or positive. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The first version number in a `--version` output: `codex-cli 0.169.0`, `2.1.328 (Claude Code)`, `GitHub Copilot CLI 1.0.102.` */
export function versionIn(output: string): string | undefined {
  return /\b(\d+\.\d+\.\d+)\b/.exec(output)?.[1];
}

export function verdictOf(testedWith: string, found: { path?: string; version?: string }): ClientVersion['verdict'] {
  if (!found.path) return 'not-installed';
  if (!found.version) return 'unknown';
  return compareVersions(found.version, testedWith) > 0 ? 'newer' : 'same-or-older';
}

/** `program` on the search path, as a shell would find it (executable files only); undefined when none. */
export function onPath(program: string, env: NodeJS.ProcessEnv): string | undefined {
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (env.PATH ?? env.Path ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    for (const ext of exts) {
      const file = path.join(dir, program + ext);
      try {
        fs.accessSync(file, fs.constants.X_OK);
        if (fs.statSync(file).isFile()) return file;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

function runVersion(file: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    // No network, no update check: a version is all that is asked (the Copilot CLI unpacks itself on a first run).
    execFile(file, ['--version'], { env: { ...env, COPILOT_OFFLINE: 'true', NO_UPDATE_NOTIFIER: '1' }, timeout: timeoutMs, windowsHide: true },
      (_err, stdout, stderr) => resolve(`${stdout ?? ''}\n${stderr ?? ''}`));
  });
}

/** The npm packages the agents install from: their package.json says the version without running anything. */
const PACKAGES: Readonly<Record<string, string>> = {
  claude: '@anthropic-ai/claude-code', codex: '@openai/codex', copilot: '@github/copilot', gemini: '@google/gemini-cli',
};

/** The version in the package.json of the npm package a program on PATH belongs to (its link followed), if it is one. */
export function packageVersion(file: string, program: string): string | undefined {
  let dir: string;
  try {
    dir = path.dirname(fs.realpathSync(file));
  } catch {
    return undefined;
  }
  for (let i = 0; i < 4; i++, dir = path.dirname(dir)) {
    try {
      const data = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (data.name === PACKAGES[program] && typeof data.version === 'string') return versionIn(data.version);
    } catch {
      // no package.json here
    }
  }
  return undefined;
}

/**
 * Every terminal agent's installed version, asked in parallel: from its npm package where it is one
 * (no process started: the Copilot CLI unpacks some 200 MB on its first run), else its `--version`
 * within `timeoutMs`.
 */
export async function clientVersions(env: NodeJS.ProcessEnv = process.env, timeoutMs = 10_000): Promise<ClientVersion[]> {
  return Promise.all(GOVERNED_AGENTS.filter((a) => a.cli).map(async (a): Promise<ClientVersion> => {
    const { program, testedWith } = a.cli!;
    const file = onPath(program, env);
    const version = file ? packageVersion(file, program) ?? versionIn(await runVersion(file, env, timeoutMs)) : undefined;
    return { id: a.id, label: a.label, program, testedWith, ...(file ? { path: file } : {}), ...(version ? { version } : {}), verdict: verdictOf(testedWith, { path: file, version }) };
  }));
}

/** The sentence for a client, in English (the command line's doctor). */
export function clientVersionEnglish(c: ClientVersion): string {
  switch (c.verdict) {
    case 'not-installed': return `${c.program} not found on PATH (tested with ${c.testedWith})`;
    case 'unknown': return `${c.path}: --version printed no version (tested with ${c.testedWith})`;
    case 'newer': return `${c.version} at ${c.path} is newer than ${c.testedWith}, the version Alfred was tested with: its hook inputs or answers may have changed`;
    case 'same-or-older': return `${c.version} at ${c.path} (tested with ${c.testedWith})`;
  }
}
