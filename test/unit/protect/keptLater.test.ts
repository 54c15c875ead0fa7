/**
 * The gate's paths that run later, kept in a file between hook calls without a server (fs/keptReads):
 * each change an agent could make between two calls to add such a path is seen by the next call.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, mock, test } from 'node:test';
import { rememberReads } from '../../../src/core/base/fs/keptReads';
import { runsLaterPaths } from '../../../src/core/protect/agents';

const RACY_MS = 50;
const roots: string[] = [];
after(() => {
  rememberReads(false);
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
});

function fixture() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-kept-later-')));
  roots.push(root);
  const [ws, home] = ['ws', 'home'].map((d) => path.join(root, d));
  for (const d of [ws, path.join(home, '.alfred'), path.join(home, '.config', 'shell')]) fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(home, '.bashrc'), '. ~/.config/shell/env.sh\n');
  fs.writeFileSync(path.join(root, 'gitconfig'), '[user]\n  name = A\n');
  fs.symlinkSync(path.join(root, 'gitconfig'), path.join(home, '.gitconfig'));
  const env: NodeJS.ProcessEnv = { HOME: home, PATH: `${path.join(home, '.local', 'bin')}:/usr/bin:/bin` };
  return { root, ws, home, env };
}

type Fixture = ReturnType<typeof fixture>;
const later = (f: Fixture, env = f.env) => runsLaterPaths(f.home, { env, workspaceFolder: f.ws });
const savedFile = (f: Fixture) => fs.readdirSync(path.join(f.home, '.alfred', 'run', 'sandbox')).map((n) => path.join(f.home, '.alfred', 'run', 'sandbox', n)).find((n) => n.endsWith('.later.json'));

/** Whether the paths came from the file: no start-up file was read. */
function kept(f: Fixture, env = f.env): boolean {
  const read = mock.method(fs, 'readFileSync');
  later(f, env);
  const made = read.mock.calls.filter((c) => String(c.arguments[0]).endsWith('.bashrc')).length;
  read.mock.restore();
  return made === 0;
}

/** Saved and trusted: computed, past the racy window, read back. */
async function keep(f: Fixture): Promise<void> {
  rememberReads(false, RACY_MS);
  for (let attempt = 0; attempt < 40; attempt++) {
    later(f);
    await new Promise((resolve) => setTimeout(resolve, RACY_MS + 20));
    if (kept(f)) return;
  }
  assert.fail('never kept in a file');
}

/** What a process without the file finds now. */
function fresh(f: Fixture, env = f.env): string[] {
  const file = savedFile(f);
  if (file) fs.rmSync(file);
  return later(f, env);
}

const CHANGES: ReadonlyArray<{ name: string; change: (f: Fixture) => NodeJS.ProcessEnv | void; held: (f: Fixture) => string }> = [
  { name: '~/.bashrc made to source another file', change: (f) => fs.appendFileSync(path.join(f.home, '.bashrc'), '. ~/.other.sh\n'), held: (f) => path.join(f.home, '.other.sh') },
  { name: 'a folder of the home put first on PATH', change: (f) => ({ ...f.env, PATH: `${path.join(f.home, 'bin')}:${f.env.PATH}` }), held: (f) => path.join(f.home, 'bin') },
  { name: "the global git configuration's target made to include a file", change: (f) => fs.appendFileSync(path.join(f.root, 'gitconfig'), '[include]\n  path = ~/more.gitconfig\n'), held: (f) => path.join(f.home, 'more.gitconfig') },
  {
    name: 'GIT_CONFIG_GLOBAL pointed at another file in the environment',
    change: (f) => {
      fs.writeFileSync(path.join(f.root, 'other.gitconfig'), '[core]\n  hooksPath = ~/hooks\n');
      return { ...f.env, GIT_CONFIG_GLOBAL: path.join(f.root, 'other.gitconfig') };
    },
    held: (f) => path.join(f.home, 'hooks'),
  },
];

for (const { name, change, held } of CHANGES) {
  test(`paths kept in a file, then ${name}: the next call finds them as a fresh one does`, { skip: process.platform === 'win32' }, async () => {
    const f = fixture();
    await keep(f);
    assert.ok(!later(f).includes(held(f)));
    const env = change(f) ?? f.env;
    const next = later(f, env);
    assert.ok(next.includes(held(f)), `${held(f)} is held`);
    assert.deepEqual(next, fresh(f, env));
  });
}

test('a call whose environment differs only where the paths never look keeps them', { skip: process.platform === 'win32' }, async () => {
  const f = fixture();
  await keep(f);
  assert.equal(kept(f, { ...f.env, OPENAI_API_KEY: 'sk-x', TERM: 'dumb' }), true);
  assert.ok(!fs.readFileSync(savedFile(f)!, 'utf8').includes('sk-x'));
});
