import { afterEach, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { exists, KeptValues, lookup, notedEnv, readdir, readLink, readText, rememberReads, wholeEnv } from '../../../../src/core/base/fs/keptReads';

afterEach(() => rememberReads(false));

const root = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-kept-'));
/** Past the racy window the tests use (50 ms): what was read is trusted to be as its stat says. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 60));

/** A kept value and how many times it was computed. */
function counted<T>(compute: () => T): { get: () => T; computed: () => number } {
  const store = new KeptValues<T>();
  let n = 0;
  return { get: () => store.get('k', () => { n++; return compute(); }), computed: () => n };
}

test('a value is kept while nothing it read changed, and computed again after each kind of change', async () => {
  const dir = root();
  fs.mkdirSync(path.join(dir, 'sub'));
  fs.writeFileSync(path.join(dir, 'config'), 'a=1');
  rememberReads(true, 50);
  const value = counted(() => [exists(path.join(dir, 'sub', 'x')), readText(path.join(dir, 'config'))]);
  await settle();
  assert.deepEqual(value.get(), [false, 'a=1']);
  assert.deepEqual(value.get(), [false, 'a=1']);
  assert.equal(value.computed(), 1, 'kept');

  fs.writeFileSync(path.join(dir, 'sub', 'x'), '');
  assert.deepEqual(value.get(), [true, 'a=1'], 'an entry added to a folder it looked in');
  await settle();
  fs.writeFileSync(path.join(dir, 'config'), 'a=2');
  assert.deepEqual(value.get(), [true, 'a=2'], 'a file it read, changed in place');
  await settle();
  const old = new Date(Date.now() - 3_600_000);
  fs.utimesSync(path.join(dir, 'config'), old, old);
  await settle();
  value.get();
  const before = value.computed();
  fs.writeFileSync(path.join(dir, 'config'), 'a=3');
  fs.utimesSync(path.join(dir, 'config'), old, old); // the same size, the mtime set back: the ctime still moved
  assert.deepEqual(value.get(), [true, 'a=3']);
  assert.equal(value.computed(), before + 1);
});

test('a file it read that was missing: kept on its folder\'s stamp alone, and computed again once the file appears, directly, through a link to nothing, or with its folder', async () => {
  const dir = root();
  fs.mkdirSync(path.join(dir, 'home'));
  rememberReads(true, 50);
  const read = (p: string) => { try { return readText(p); } catch { return undefined; } };
  const home = path.join(dir, 'home');
  const value = counted(() => [read(path.join(home, '.bashrc')), read(path.join(home, '.profile')), read(path.join(home, '.config', 'git', 'config')), read(path.join(home, '.zshrc'))]);
  fs.symlinkSync(path.join(dir, 'elsewhere'), path.join(home, '.zshrc'));
  await settle();
  assert.deepEqual(value.get(), [undefined, undefined, undefined, undefined]);
  const stats = mock.method(fs, 'statSync');
  const lstats = mock.method(fs, 'lstatSync');
  try {
    assert.deepEqual(value.get(), [undefined, undefined, undefined, undefined]);
    const statted = stats.mock.calls.map((c) => String(c.arguments[0]));
    assert.ok(statted.includes(home), 'the folder is looked at');
    assert.equal(statted.filter((p) => p.endsWith('.bashrc') || p.endsWith('.profile')).length, 0, 'the missing files themselves: not looked at while their folder is unchanged');
    assert.equal(lstats.mock.callCount(), 0);
  } finally {
    stats.mock.restore();
    lstats.mock.restore();
  }
  assert.equal(value.computed(), 1, 'kept');
  fs.writeFileSync(path.join(home, '.profile'), '. ~/.env');
  assert.deepEqual(value.get(), [undefined, '. ~/.env', undefined, undefined], 'a missing file made');
  await settle();
  fs.writeFileSync(path.join(dir, 'elsewhere'), 'source ~/x');
  assert.deepEqual(value.get(), [undefined, '. ~/.env', undefined, 'source ~/x'], 'the target of a link to nothing made');
  await settle();
  fs.mkdirSync(path.join(home, '.config', 'git'), { recursive: true });
  fs.writeFileSync(path.join(home, '.config', 'git', 'config'), '[core]');
  assert.deepEqual(value.get(), [undefined, '. ~/.env', '[core]', 'source ~/x'], 'a file made with the folders above it');
});

test('a folder it looked in, replaced by a symlink elsewhere, is seen', async () => {
  const dir = root();
  fs.mkdirSync(path.join(dir, 'a'));
  fs.mkdirSync(path.join(dir, 'b'));
  fs.writeFileSync(path.join(dir, 'b', 'planted'), '');
  rememberReads(true, 50);
  const value = counted(() => exists(path.join(dir, 'a', 'planted')));
  await settle();
  assert.equal(value.get(), false);
  fs.rmSync(path.join(dir, 'a'), { recursive: true });
  fs.symlinkSync(path.join(dir, 'b'), path.join(dir, 'a'));
  assert.equal(value.get(), true);
});

test('a kept value used inside another passes its reads on: a change under the inner one reaches the outer', async () => {
  const dir = root();
  rememberReads(true, 50);
  const inner = new KeptValues<boolean>();
  const innerValue = () => inner.get('inner', () => lookup(path.join(dir, 'inner')) !== undefined);
  innerValue(); // kept before the outer asks: the outer gets its reads from the kept value
  const outer = counted(() => innerValue());
  await settle();
  innerValue();
  assert.equal(outer.get(), false);
  assert.equal(outer.get(), false);
  assert.equal(outer.computed(), 1);
  fs.writeFileSync(path.join(dir, 'inner'), '');
  assert.equal(outer.get(), true);
});

test('a file changed just before it was read is not trusted yet: computed again until it settles', async () => {
  const dir = root();
  fs.writeFileSync(path.join(dir, 'config'), 'a=1');
  rememberReads(true, 50);
  const value = counted(() => readText(path.join(dir, 'config')));
  value.get();
  value.get();
  assert.equal(value.computed(), 2, 'the file was written just now');
  await settle();
  value.get();
  value.get();
  assert.equal(value.computed(), 3);
});

test('other entries of a folder it looked in come and go: kept, the entries it looked up checked one by one', async () => {
  const dir = root();
  fs.writeFileSync(path.join(dir, '.bashrc'), '');
  rememberReads(true, 50);
  const value = counted(() => [exists(path.join(dir, '.bashrc')), exists(path.join(dir, '.vimrc'))]);
  await settle();
  value.get();
  // A shell's history lock, made and removed: the folder's stat moved, the two entries did not.
  fs.writeFileSync(path.join(dir, '.zsh_history.LOCK'), '');
  fs.rmSync(path.join(dir, '.zsh_history.LOCK'));
  const lstat = mock.method(fs, 'lstatSync');
  assert.deepEqual(value.get(), [true, false]);
  assert.deepEqual(lstat.mock.calls.map((c) => c.arguments[0]).sort(), [path.join(dir, '.bashrc'), path.join(dir, '.vimrc')], 'only the entries looked up were looked at again');
  lstat.mock.restore();
  assert.equal(value.computed(), 1);
  assert.deepEqual(value.get(), [true, false], 'changed just now: checked again on each use, still kept');
  assert.equal(value.computed(), 1);

  fs.writeFileSync(path.join(dir, '.vimrc'), '');
  assert.deepEqual(value.get(), [true, true], 'an entry it looked up, made');
  await settle();
  fs.rmSync(path.join(dir, '.bashrc'));
  fs.symlinkSync(path.join(dir, '.vimrc'), path.join(dir, '.bashrc'));
  assert.deepEqual(value.get(), [true, true]);
  assert.equal(value.computed(), 3, 'an entry it looked up, replaced by a symlink');
  await settle();
  fs.rmSync(path.join(dir, '.bashrc'));
  fs.mkdirSync(path.join(dir, '.bashrc'));
  value.get();
  assert.equal(value.computed(), 4, 'replaced by a folder');
});

test('a folder it listed counts whole: any new entry computes again', async () => {
  const dir = root();
  rememberReads(true, 50);
  const value = counted(() => readdir(dir).map((e) => e.name));
  await settle();
  assert.deepEqual(value.get(), []);
  assert.deepEqual(value.get(), []);
  fs.writeFileSync(path.join(dir, 'new'), '');
  assert.deepEqual(value.get(), ['new']);
  assert.equal(value.computed(), 2);
});

test('a symlink it read, pointed elsewhere among other changes to its folder, is seen', async () => {
  const dir = root();
  fs.symlinkSync('a', path.join(dir, 'link'));
  rememberReads(true, 50);
  const value = counted(() => readLink(path.join(dir, 'link')));
  await settle();
  assert.equal(value.get(), 'a');
  // Replaced the way `ln -sfn` does it, the old inode freed first: the new link may get its number.
  fs.rmSync(path.join(dir, 'link'));
  fs.symlinkSync('b', path.join(dir, 'link'));
  fs.writeFileSync(path.join(dir, 'other'), '');
  assert.equal(value.get(), 'b');
});

test('off (the default, a process that asks once), every call computes', () => {
  const dir = root();
  const value = counted(() => exists(path.join(dir, 'x')));
  value.get();
  value.get();
  assert.equal(value.computed(), 2);
});

test('a store kept in every process keeps without rememberReads', async () => {
  const dir = root();
  await settle();
  const store = new KeptValues<boolean>(4, true);
  let n = 0;
  // The default racy window (2 s): a folder made long enough ago is needed.
  const old = new Date(Date.now() - 60_000);
  fs.utimesSync(dir, old, old);
  await new Promise((resolve) => setTimeout(resolve, 2_100)); // the ctime cannot be set back: wait it out
  store.get('k', () => { n++; return exists(path.join(dir, 'x')); });
  store.get('k', () => { n++; return exists(path.join(dir, 'x')); });
  assert.equal(n, 1);
});

test('saved in a file: kept by the variables it read, also inside a kept value it used; never once it listed the environment', async () => {
  const dir = root();
  rememberReads(false, 50);
  await settle();
  const file = path.join(dir, 'saved.json');
  const inner = new KeptValues<string>(4, true);
  const outer = new KeptValues<string>();
  let n = 0;
  const get = (env: NodeJS.ProcessEnv, use: (noted: NodeJS.ProcessEnv) => string) =>
    outer.get('k', () => { n++; return use(notedEnv(env)); }, { file, under: dir, valid: (v): v is string => typeof v === 'string', key: 'k', env });
  const reads = (noted: NodeJS.ProcessEnv) => `${noted.A}|${inner.get(JSON.stringify(wholeEnv(noted)), () => `${noted.B ?? ''}`)}`;
  const env = { A: '1', B: '2', SECRET: 's3cr3t' };
  assert.equal(get(env, reads), '1|2');
  assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')).env, [['A', '1'], ['B', '2']]);
  assert.equal(get({ ...env, SECRET: 'other' }, reads), '1|2');
  assert.equal(n, 1, 'kept: SECRET was not read');
  assert.equal(get({ ...env, B: '3' }, reads), '1|3');
  assert.equal(n, 2, 'B, read inside the inner value, counts');
  fs.rmSync(file);
  assert.equal(get(env, (noted) => Object.keys(noted).join()), 'A,B,SECRET');
  assert.equal(fs.existsSync(file), false, 'a value that listed the environment is not saved');
  const elsewhere = path.join(dir, 'missing', 'run', 'saved.json');
  outer.get('k', () => 'v', { file: elsewhere, under: path.join(dir, 'missing'), valid: (v): v is string => typeof v === 'string', key: 'k', env });
  assert.equal(fs.existsSync(path.join(dir, 'missing')), false, 'nothing is made outside the folder it is saved under');
});
