/**
 * The hook server keeps a sandbox plan between shell calls while nothing it read changed
 * (fs/keptReads). An agent's command runs between two calls: whatever it changes that the plan
 * depends on must be seen by the next call. Each attempt below is made after the plan was kept, and
 * the next plan must equal one computed afresh.
 */
import { afterEach, mock, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as path from 'node:path';
import { rememberReads } from '../../../src/core/base/fs/keptReads';
import { planSandbox, type PlanOptions } from '../../../src/core/sandbox/index';
import { readOnlyPaths, writableRoots } from '../../../src/core/sandbox/mounts';
import { tempRoot } from './helpers';

const RACY_MS = 50;
afterEach(() => {
  rememberReads(false);
  mock.restoreAll();
});
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, RACY_MS + 20));

function fixture(): { opts: PlanOptions; ws: string; home: string; root: string } {
  const root = tempRoot('alfred-kept-plan-');
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  for (const dir of [path.join(ws, 'src', 'deep'), path.join(ws, '.git'), path.join(home, '.cargo'), path.join(root, 'elsewhere'), path.join(root, 'a'), path.join(root, 'b')]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  fs.writeFileSync(path.join(home, '.bashrc'), '. ~/.config/shell/env.sh\n');
  fs.writeFileSync(path.join(root, 'a', 'gitconfig'), '');
  fs.writeFileSync(path.join(root, 'b', 'gitconfig'), '');
  fs.symlinkSync(path.join(root, 'a', 'gitconfig'), path.join(home, '.gitconfig'));
  const env = { HOME: home, ALFRED_HOME: path.join(home, '.alfred'), PATH: `${path.join(home, '.local', 'bin')}:/usr/bin:/bin` };
  const opts: PlanOptions = {
    role: { name: 'coder', sandbox: 'auto' }, workspaceFolder: ws, protectedGlobs: ['**/*.test.ts'], env, home,
    stateDir: path.join(home, '.alfred', 'state', 'x'), sandbox: { kind: 'bwrap', path: '/usr/bin/bwrap' },
  };
  return { opts, ws, home, root };
}

function readOnly(opts: PlanOptions): string[] {
  const plan = planSandbox(opts);
  if (plan.kind !== 'sandboxed') throw new Error(plan.kind);
  return plan.readOnly;
}

/** Whether the plan came from the kept one: no lookup was made. */
function kept(opts: PlanOptions): boolean {
  const lstat = mock.method(fs, 'lstatSync');
  readOnly(opts);
  const made = lstat.mock.callCount();
  lstat.mock.restore();
  return made === 0;
}

/**
 * Where a plan is kept between calls: in the hook server's memory, or, for hook calls without a
 * server (each a new process, as `rememberReads(false)` makes this one), in a file in Alfred's home.
 */
type Keeping = 'in memory' | 'in a file';
const KEEPINGS: readonly Keeping[] = ['in memory', 'in a file'];

/**
 * Kept from now on: computed, settled past the racy window (its own creations too), kept. The plan
 * depends on the fixture's parents too (a temporary folder other tests write in): asked again until
 * a quiet moment lets it be kept.
 */
async function keep(opts: PlanOptions, keeping: Keeping = 'in memory'): Promise<void> {
  rememberReads(keeping === 'in memory', RACY_MS);
  for (let attempt = 0; attempt < 40; attempt++) {
    readOnly(opts);
    await settle();
    if (kept(opts)) return;
  }
  assert.fail('the plan was never kept while nothing changed');
}

/** The plan a process that keeps nothing makes now. */
function fresh(opts: PlanOptions): string[] {
  rememberReads(false);
  return readOnlyPaths(opts);
}

const ATTEMPTS: ReadonlyArray<{ name: string; change: (f: ReturnType<typeof fixture>) => void; held?: (f: ReturnType<typeof fixture>) => string }> = [
  { name: 'a version manager installed (~/.rbenv)', change: (f) => fs.mkdirSync(path.join(f.home, '.rbenv')), held: (f) => path.join(f.home, '.rbenv') },
  { name: 'a new file matching a protect glob, deep in the workspace', change: (f) => fs.writeFileSync(path.join(f.ws, 'src', 'deep', 'new.test.ts'), ''), held: (f) => path.join(f.ws, 'src', 'deep', 'new.test.ts') },
  { name: 'a new *.code-workspace', change: (f) => fs.writeFileSync(path.join(f.ws, 'evil.code-workspace'), '{}'), held: (f) => path.join(f.ws, 'evil.code-workspace') },
  {
    name: '.vscode replaced by a symlink to another folder',
    change: (f) => { fs.rmSync(path.join(f.ws, '.vscode'), { recursive: true }); fs.symlinkSync(path.join(f.root, 'elsewhere'), path.join(f.ws, '.vscode')); },
    held: (f) => path.join(f.root, 'elsewhere'),
  },
  { name: '~/.bashrc edited in place to source another file', change: (f) => fs.appendFileSync(path.join(f.home, '.bashrc'), '. ~/.other.sh\n'), held: (f) => path.join(f.home, '.other.sh') },
  { name: '.git/hooks made', change: (f) => fs.mkdirSync(path.join(f.ws, '.git', 'hooks')), held: (f) => path.join(f.ws, '.git', 'hooks') },
  { name: "cargo's config.toml made", change: (f) => fs.writeFileSync(path.join(f.home, '.cargo', 'config.toml'), ''), held: (f) => path.join(f.home, '.cargo', 'config.toml') },
  { name: 'a folder of PATH in the home made', change: (f) => fs.mkdirSync(path.join(f.home, '.local', 'bin'), { recursive: true }), held: (f) => path.join(f.home, '.local', 'bin') },
  {
    name: 'a symlinked home file pointed elsewhere',
    change: (f) => { fs.rmSync(path.join(f.home, '.gitconfig')); fs.symlinkSync(path.join(f.root, 'b', 'gitconfig'), path.join(f.home, '.gitconfig')); },
    held: (f) => path.join(f.root, 'b', 'gitconfig'),
  },
  { name: 'the home folder itself replaced', change: (f) => { fs.renameSync(f.home, `${f.home}.old`); fs.mkdirSync(f.home); } },
];

for (const keeping of KEEPINGS) {
  for (const attempt of ATTEMPTS) {
    test(`plan kept ${keeping}, then ${attempt.name}: the next plan is as a fresh one`, { skip: process.platform === 'win32' }, async () => {
      const f = fixture();
      await keep(f.opts, keeping);
      attempt.change(f);
      const next = readOnly(f.opts);
      assert.deepEqual(next, fresh(f.opts));
      if (attempt.held) assert.ok(next.includes(attempt.held(f)), `${attempt.held(f)} is held`);
    });
  }
}

test('a plan kept in a file: the file holds no environment, and one that cannot be read as a plan is planned afresh', { skip: process.platform === 'win32' }, async () => {
  const f = fixture();
  const secret = 'sk-kept-plan-test-0123456789';
  const opts = { ...f.opts, env: { ...f.opts.env, OPENAI_API_KEY: secret } };
  await keep(opts, 'in a file');
  const folder = path.join(f.home, '.alfred', 'run', 'sandbox');
  const [file] = fs.readdirSync(folder).filter((n) => n.endsWith('.mounts.json')).map((n) => path.join(folder, n));
  assert.ok(file, 'the plan is kept in a file');
  const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { env: Array<[string, string | null]> };
  assert.ok(!JSON.stringify(saved).includes(secret), 'the environment is not in the file');
  assert.deepEqual(saved.env.find(([name]) => name === 'PATH'), ['PATH', f.opts.env!.PATH], 'the variables the plan read are, with their values');
  assert.ok(!saved.env.some(([name]) => name === 'OPENAI_API_KEY'));
  const planned = readOnly(opts);
  for (const broken of ['{', '{"v":1}', JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), value: { readOnly: [1] } })]) {
    fs.writeFileSync(file, broken);
    assert.deepEqual(readOnly(opts), planned, broken);
  }
});

test('a plan kept in a file is planned afresh when a variable it read changes, and kept when another one does', { skip: process.platform === 'win32' }, async () => {
  const f = fixture();
  const cargo = path.join(f.root, 'elsewhere', 'cargo');
  fs.mkdirSync(cargo);
  await keep(f.opts, 'in a file');
  assert.equal(kept({ ...f.opts, env: { ...f.opts.env, OPENAI_API_KEY: 'sk-other', TERM: 'dumb' } }), true, 'kept: the plan reads neither');
  for (const env of [{ ...f.opts.env, CARGO_HOME: cargo }, { ...f.opts.env, PATH: `${path.join(f.home, 'bin')}:${f.opts.env!.PATH}` }]) {
    const opts = { ...f.opts, env };
    assert.equal(kept(opts), false, JSON.stringify(env));
    assert.deepEqual(readOnly(opts), fresh(opts));
    rememberReads(false, RACY_MS);
  }
  assert.ok(readOnly({ ...f.opts, env: { ...f.opts.env, CARGO_HOME: cargo } }).includes(path.join(cargo, 'config.toml')), "the moved cargo's configuration is held");
});

// Outside /tmp and /var/tmp, which are writable whatever TMP says.
const OTHER_TEMP = '/dev/shm';

test('a strict plan kept in a file follows the temporary folder the caller names (TMP, when TMPDIR is unset)', { skip: !fs.existsSync(OTHER_TEMP) }, async (t: TestContext) => {
  const f = fixture();
  const [one, two] = [0, 1].map(() => fs.mkdtempSync(path.join(OTHER_TEMP, 'alfred-kept-tmp-')));
  t.after(() => { for (const d of [one!, two!]) fs.rmSync(d, { recursive: true, force: true }); });
  assert.equal(f.opts.env!.TMPDIR, undefined);
  const strictOpts = (tmp: string): PlanOptions => ({ ...f.opts, role: { name: 'coder', sandbox: 'strict' }, env: { ...f.opts.env, TMP: tmp } });
  // What it writes: the workspace, and the copies of its own in place of the temporary folder and the caches.
  const written = (opts: PlanOptions) => {
    const plan = planSandbox(opts);
    if (plan.kind !== 'sandboxed') throw new Error(plan.kind);
    return [...plan.writable ?? [], ...(plan.ownCopies ?? []).map((c) => c.target)];
  };
  await keep(strictOpts(one), 'in a file');
  assert.ok(written(strictOpts(one)).includes(one));
  const next = written(strictOpts(two));
  assert.ok(next.includes(two) && !next.includes(one), next.join(' '));
});

test('a plan kept in a file by another build of Alfred is not used: an update may hold more', { skip: process.platform === 'win32' }, async () => {
  const f = fixture();
  await keep({ ...f.opts, code: 'build a' }, 'in a file');
  assert.equal(kept({ ...f.opts, code: 'build a' }), true);
  assert.equal(kept({ ...f.opts, code: 'build b' }), false, 'planned afresh');
});

test("kept plan, then other entries of the home come and go (a shell's history lock): kept, only the entries it looked up there looked at again", { skip: process.platform === 'win32' }, async () => {
  const f = fixture();
  await keep(f.opts);
  fs.writeFileSync(path.join(f.home, '.zsh_history.LOCK'), '');
  fs.rmSync(path.join(f.home, '.zsh_history.LOCK'));
  const lstat = mock.method(fs, 'lstatSync');
  const next = readOnly(f.opts);
  const looked = lstat.mock.calls.map((c) => String(c.arguments[0]));
  lstat.mock.restore();
  // Folders above the fixture (a temporary folder other tests write in) may have changed meanwhile too.
  const above = (p: string) => f.root.startsWith(`${path.dirname(p)}${path.sep}`);
  assert.ok(looked.some((p) => p === path.join(f.home, '.bashrc')), 'the home\'s entries were looked at again');
  assert.deepEqual(looked.filter((p) => path.dirname(p) !== f.home && !above(p)), [], 'and nothing else: the plan was kept');
  assert.deepEqual(next, fresh(f.opts));
});

test('everything a plan reads is noted: each lookup by its folder, each read file or folder by itself', { skip: process.platform === 'win32' }, async () => {
  const f = fixture();
  rememberReads(true, RACY_MS);
  readOnly(f.opts); // creates what it creates: the reads are watched on the next plan
  await settle();
  // fs/keptReads notes a path with one bigint stat; every other read must be covered by one.
  const noted = new Set<string>();
  const folderOf: string[] = [];
  const itself: string[] = [];
  const spy = (name: 'lstatSync' | 'existsSync' | 'readlinkSync' | 'statSync' | 'readdirSync' | 'readFileSync' | 'accessSync', list: string[]) => {
    const original = fs[name] as (...args: unknown[]) => unknown;
    mock.method(fs, name, function (this: unknown, p: unknown, ...rest: unknown[]) {
      if (typeof p === 'string') {
        if (name === 'statSync' && (rest[0] as { bigint?: boolean } | undefined)?.bigint) noted.add(p);
        else list.push(p);
      }
      return original.call(this, p, ...rest);
    });
  };
  for (const name of ['lstatSync', 'existsSync', 'readlinkSync'] as const) spy(name, folderOf);
  for (const name of ['statSync', 'readdirSync', 'readFileSync', 'accessSync'] as const) spy(name, itself);
  readOnly({ ...f.opts, protectedGlobs: ['**/*.spec.ts'] }); // another key: computed, not kept
  mock.restoreAll();
  assert.ok(folderOf.length > 50, `the plan looked up ${folderOf.length} paths`);
  for (const p of folderOf) assert.ok(noted.has(path.dirname(p)) || noted.has(p), `${p}: its folder is noted`);
  // A missing path read whole (the servers' key folders, commandServers.ts) is noted by its folder, as a lookup is.
  for (const p of itself) assert.ok(noted.has(p) || (!fs.existsSync(p) && noted.has(path.dirname(p))), `${p}: noted`);
});

test('a plan reads the environment only through the one it is given (what a saved plan is keyed by)', { skip: process.platform === 'win32' }, (t) => {
  // Node's own os.tmpdir() and os.homedir() read the environment natively, unseen here: the plan
  // finds the temporary folder in its environment, and is given the home.
  const f = fixture();
  const read = new Set<string>();
  const real = process.env;
  t.after(() => { process.env = real; });
  process.env = new Proxy(real, {
    get: (target, name) => (typeof name === 'string' && read.add(name), Reflect.get(target, name)),
    ownKeys: (target) => (read.add('(listed)'), Reflect.ownKeys(target)),
  });
  readOnlyPaths(f.opts);
  writableRoots(f.opts);
  process.env = real;
  assert.deepEqual([...read], []);
});
