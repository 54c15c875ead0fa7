/**
 * Writes are allowlisted under every sandboxed mode: the workspace, the temporary folders and download
 * caches (as copies of the workspace's own), the role's allow_write paths; everything else in the home
 * is read-only whatever it is called, and the catalogue still holds inside the allowed places.
 * Real bubblewrap processes; what is on disk afterwards is what counts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { planSandbox } from '../../../src/core/sandbox/index';
import { NO_SANDBOX, tempRoot } from './helpers';

function setup(allowWrite: string[] = [], sandbox: 'auto' | 'required' = 'auto') {
  const root = tempRoot('alfred-allowlist-');
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  const temp = path.join(root, 'tmp');
  for (const dir of [ws, path.join(home, 'notes'), path.join(home, 'projects', 'data'), temp]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(home, 'notes', 'todo.txt'), 'milk\n');
  fs.writeFileSync(path.join(home, '.bashrc'), 'alias ll="ls -l"\n');
  const env = { ...process.env, HOME: home, ALFRED_HOME: path.join(home, '.alfred'), TMPDIR: temp };
  // The test's root lies in /tmp: only its own temporary folder is the command's, so the home is not held by one.
  const plan = planSandbox({ role: { name: 'r', sandbox, allowWrite }, workspaceFolder: ws, protectedGlobs: [], env, home, tempFolders: [temp] });
  if (plan.kind !== 'sandboxed') throw new Error(plan.kind);
  const run = (command: string) => {
    const [file, ...args] = plan.argv(command, ws);
    return spawnSync(file!, args, { cwd: ws, env, encoding: 'utf8', timeout: 30_000 });
  };
  return { root, ws, home, temp, run };
}

test('auto: a file in the home named by no list is unchanged, a new one is not made; the workspace and temp are written', { skip: NO_SANDBOX }, () => {
  const f = setup();
  const r = f.run(`echo pwned > ${f.home}/notes/todo.txt; echo new > ${f.home}/notes/new.txt; mkdir ${f.home}/made; echo ok > ${f.ws}/out.txt; echo t > "$TMPDIR/t"; cat "$TMPDIR/t"`);
  assert.match(r.stderr, /Read-only file system/);
  assert.equal(r.stdout, 't\n');
  assert.equal(fs.readFileSync(path.join(f.home, 'notes', 'todo.txt'), 'utf8'), 'milk\n');
  assert.deepEqual([fs.existsSync(path.join(f.home, 'notes', 'new.txt')), fs.existsSync(path.join(f.home, 'made'))], [false, false]);
  assert.equal(fs.readFileSync(path.join(f.ws, 'out.txt'), 'utf8'), 'ok\n');
  // The temporary folder the command wrote is its own copy: the real one is untouched.
  assert.equal(fs.existsSync(path.join(f.temp, 't')), false);
});

test('allow_write opens a folder of the home, and the catalogue still holds within it', { skip: NO_SANDBOX }, () => {
  const f = setup(['~/projects/data', '~', '/nonexistent/alfred-allow']);
  const r = f.run(`echo d > ${f.home}/projects/data/d.txt && echo n > ${f.home}/notes/todo.txt && echo pwned >> ${f.home}/.bashrc`);
  assert.notEqual(r.status, 0);
  assert.equal(fs.readFileSync(path.join(f.home, 'projects', 'data', 'd.txt'), 'utf8'), 'd\n');
  // `~` whole: what the catalogue names (a start-up file) stays read-only.
  assert.equal(fs.readFileSync(path.join(f.home, 'notes', 'todo.txt'), 'utf8'), 'n\n');
  assert.equal(fs.readFileSync(path.join(f.home, '.bashrc'), 'utf8'), 'alias ll="ls -l"\n');
  assert.match(r.stderr, /\.bashrc: Read-only file system/);
});

test('a home that a writable temporary folder holds (a home in /tmp) is read-only again but for the workspace in it', { skip: NO_SANDBOX }, () => {
  const root = tempRoot('alfred-home-in-tmp-');
  const home = path.join(root, 'home');
  const ws = path.join(home, 'code', 'ws');
  fs.mkdirSync(ws, { recursive: true });
  fs.writeFileSync(path.join(home, 'keep.txt'), 'keep\n');
  const env = { ...process.env, HOME: home, ALFRED_HOME: path.join(home, '.alfred') };
  const plan = planSandbox({ role: { name: 'r', sandbox: 'auto' }, workspaceFolder: ws, protectedGlobs: [], env, home, tempFolders: [root] });
  if (plan.kind !== 'sandboxed') throw new Error(plan.kind);
  const [file, ...args] = plan.argv(`echo w > ${ws}/w.txt; echo r > ${root}/r.txt; echo pwned > ${home}/keep.txt`, ws);
  spawnSync(file!, args, { cwd: ws, env, encoding: 'utf8', timeout: 30_000 });
  assert.deepEqual([fs.readFileSync(path.join(ws, 'w.txt'), 'utf8'), fs.readFileSync(path.join(root, 'r.txt'), 'utf8'), fs.readFileSync(path.join(home, 'keep.txt'), 'utf8')], ['w\n', 'r\n', 'keep\n']);
});
