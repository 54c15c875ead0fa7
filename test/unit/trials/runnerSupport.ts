/** A git repository made from test/fixtures/trials/add-repo, and the fake provider the trial suites name. */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';
import type { ProviderConfig } from '../../../src/core/models/providers/types';

export const FIXTURE = path.resolve(__dirname, '../../fixtures/trials/add-repo');
export const BUILTIN_ROLES = path.resolve(__dirname, '../../../roles');
export const BUILTIN_PACKS = path.resolve(__dirname, '../../../packs');

const roots: string[] = [];
after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

const GIT_ENV = {
  ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com',
  GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull,
};

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: GIT_ENV, encoding: 'utf8' }).trim();
}

/** A temporary root with `repo/` (the fixture, committed) and room for trial worktrees and homes. */
export function fixtureRepo(): { root: string; repo: string; trialsRoot: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-trials-')));
  roots.push(root);
  const repo = path.join(root, 'repo');
  fs.cpSync(FIXTURE, repo, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'fixture');
  return { root, repo, trialsRoot: path.join(root, 'trials') };
}

export function fakeProvider(url: string): ProviderConfig {
  return { name: 'fake', protocol: 'openai', baseUrl: `${url}/v1`, key: { kind: 'none' }, models: [{ id: 'fake-model' }] };
}

export const FIX_EDIT = { path: 'src/add.js', oldString: 'a - b', newString: 'a + b' };

export const editCall = (id: string) => ({ id, name: 'ctx_edit', arguments: [JSON.stringify(FIX_EDIT)] });
