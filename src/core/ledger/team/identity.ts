/**
 * Who is spending, on what: the user (ALFRED_USER, else git's user.email), the repository (git's
 * origin without credentials, else the folder's name), the machine and the tags (ALFRED_TAGS). No
 * accounts of Alfred's own: identity is what the developer's tools already say.
 */
import type * as ChildProcess from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';

export interface TeamIdentity {
  user: string;
  repository: string;
  machine: string;
  tags: string[];
}

function gitConfig(folder: string, key: string): string | undefined {
  // Loaded here, only with a team ledger: child_process brings net and streams, which every hook
  // call's start would otherwise compile.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { spawnSync } = require('node:child_process') as typeof ChildProcess;
  const r = spawnSync('git', ['config', '--get', key], { cwd: folder, encoding: 'utf8', timeout: 5000 });
  const v = r.status === 0 ? r.stdout.trim() : '';
  return v || undefined;
}

/** `git@github.com:acme/app.git`, `https://token@github.com/acme/app` → `github.com/acme/app`. */
export function repositoryName(remote: string): string {
  const scp = /^[^@/]+@([^:/]+):(.+)$/.exec(remote);
  let hostPath = scp ? `${scp[1]}/${scp[2]}` : remote;
  try {
    if (!scp) {
      const u = new URL(remote);
      hostPath = `${u.hostname}${u.pathname}`;
    }
  } catch { /* not a URL: a local path, kept as it is */ }
  return hostPath.replace(/\.git$/, '').replace(/\/+$/, '');
}

export function teamIdentity(workspaceFolder: string, env: NodeJS.ProcessEnv): TeamIdentity {
  const remote = env.ALFRED_REPOSITORY?.trim() || gitConfig(workspaceFolder, 'remote.origin.url');
  return {
    user: env.ALFRED_USER?.trim() || gitConfig(workspaceFolder, 'user.email') || 'unknown',
    repository: remote ? repositoryName(remote) : path.basename(workspaceFolder),
    machine: env.ALFRED_MACHINE?.trim() || os.hostname(),
    tags: (env.ALFRED_TAGS ?? '').split(',').map((t) => t.trim()).filter(Boolean),
  };
}
