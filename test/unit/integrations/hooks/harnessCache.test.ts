import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { rememberReads } from '../../../../src/core/base/fs/keptReads';
import type { Harness } from '../../../../src/core/harness/harness';
import { HarnessCache } from '../../../../src/core/integrations/hooks/harnessCache';
import { roleFolders } from '../../../../src/core/rules/roles/loader';

after(() => rememberReads(false));

/** A workspace, a home and built-in roles, and a cache whose harnesses only say what they read. */
function setUp() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-harness-cache-'));
  const [ws, home, builtin] = ['ws', 'home', 'builtin'].map((d) => path.join(root, d));
  for (const d of [ws, path.join(home, '.alfred', 'roles'), builtin]) fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(builtin, 'coder.toml'), '[role]\nname = "coder"\n');
  fs.writeFileSync(path.join(home, '.alfred', 'roles', 'mine.toml'), '[role]\nname = "mine"\ninherits = "coder"\n');
  let opened = 0;
  const cache = new HarnessCache(async (folder) => {
    opened++;
    return { workspaceFolder: folder, roleFolders: () => roleFolders({ workspaceFolder: folder, homeDir: home, builtinDir: builtin }) } as unknown as Harness;
  });
  const get = async () => {
    await cache.get(ws, {}, ws);
    return opened;
  };
  return { ws, home, builtin, get };
}

test('a harness is kept while its role folders and files, team file, settings file and folder are unchanged, and opened again after each change', async () => {
  rememberReads(false, 0);
  const { ws, home, builtin, get } = setUp();
  assert.equal(await get(), 1);
  assert.equal(await get(), 1);
  // What it did not read: a file in the workspace, a note beside the role files.
  fs.writeFileSync(path.join(ws, 'notes.md'), 'x');
  fs.writeFileSync(path.join(home, '.alfred', 'state.txt'), 'x');
  assert.equal(await get(), 1, 'kept: nothing it read changed');

  const changes: Array<[string, () => void]> = [
    ['a role file rewritten in place', () => fs.writeFileSync(path.join(home, '.alfred', 'roles', 'mine.toml'), '[role]\nname = "mine"\ninherits = "reviewer"\n')],
    ['a user role file added', () => fs.writeFileSync(path.join(home, '.alfred', 'roles', 'other.toml'), '[role]\nname = "other"\n')],
    ['a built-in role file removed', () => fs.rmSync(path.join(builtin, 'coder.toml'))],
    ['a project role folder made', () => fs.mkdirSync(path.join(ws, '.alfred', 'roles'), { recursive: true })],
    ['a project role file added', () => fs.writeFileSync(path.join(ws, '.alfred', 'roles', 'p.toml'), '[role]\nname = "p"\n')],
    ['the settings file made', () => {
      fs.mkdirSync(path.join(ws, '.vscode'));
      fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), '{}');
    }],
    ['the settings file removed', () => fs.rmSync(path.join(ws, '.vscode', 'settings.json'))],
    ["the team's budgets file made", () => fs.writeFileSync(path.join(ws, '.alfred', 'team.toml'), 'team = "a"\n')],
    ["the team's budgets file edited in place", () => fs.appendFileSync(path.join(ws, '.alfred', 'team.toml'), '[[budget]]\nname = "b"\n')],
    ['the workspace folder replaced', () => {
      fs.renameSync(ws, `${ws}.old`);
      fs.cpSync(`${ws}.old`, ws, { recursive: true });
    }],
  ];
  let expected = 1;
  for (const [what, change] of changes) {
    change();
    // Even with no racy window, a change within the current millisecond is not trusted yet.
    await new Promise((resolve) => setTimeout(resolve, 3));
    expected++;
    assert.equal(await get(), expected, `opened again after: ${what}`);
    assert.equal(await get(), expected, `then kept: ${what}`);
  }
});

test('a role file changed a moment ago is read again on every call until its time can be trusted', async () => {
  rememberReads(false);
  const { home, get } = setUp();
  fs.writeFileSync(path.join(home, '.alfred', 'roles', 'mine.toml'), '[role]\nname = "mine"\n');
  assert.deepEqual([await get(), await get(), await get()], [1, 2, 3]);
});

test('a role folder that cannot be listed does not stop the harness: it is kept, and opened again once the folder changes', async (t) => {
  rememberReads(false, 0);
  const { home, get } = setUp();
  const roles = path.join(home, '.alfred', 'roles');
  const readdir = fs.readdirSync;
  t.mock.method(fs, 'readdirSync', (dir: fs.PathLike, ...rest: unknown[]) => {
    if (String(dir) === roles) throw Object.assign(new Error(`EACCES: permission denied, scandir '${roles}'`), { code: 'EACCES' });
    return (readdir as (...a: unknown[]) => unknown)(dir, ...rest);
  });
  await new Promise((resolve) => setTimeout(resolve, 3));
  assert.deepEqual([await get(), await get()], [1, 1]);
  fs.chmodSync(roles, 0o700);
  await new Promise((resolve) => setTimeout(resolve, 3));
  assert.equal(await get(), 2, 'a change to the folder itself (here its mode) opens it again');
});
