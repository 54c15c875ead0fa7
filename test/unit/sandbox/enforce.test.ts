/**
 * The kernel holds protected paths whatever the command: every way to write, remove, rename or link
 * a protected file fails inside bubblewrap, while the rest of the workspace, the network and the
 * folder the command runs in stay as they were. Skipped where there is no sandbox.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { execFile } from 'node:child_process';
import { planSandbox } from '../../../src/core/sandbox/index';
import { NO_SANDBOX, ORIGINAL, PYTHON, runIn, sandboxFixture, type SandboxFixture } from './helpers';

const kernel = { skip: NO_SANDBOX };
const EROFS = /Read-only file system|EROFS/;

/** The protected file is still there, unchanged, and so is its folder. */
function unchanged(f: SandboxFixture, what: string): void {
  assert.equal(f.read('tests/x.test.js'), ORIGINAL, `${what}: tests/x.test.js changed`);
  assert.deepEqual(fs.readdirSync(path.join(f.ws, 'tests')), ['x.test.js'], `${what}: tests/ changed`);
}

test('python3 -c cannot open a protected file for writing; the file is unchanged', { skip: NO_SANDBOX || (!PYTHON && 'python3 is not installed') }, () => {
  const f = sandboxFixture();
  const r = runIn(f, `${PYTHON} -c "open('tests/x.test.js','w')"`);
  assert.notEqual(r.status, 0);
  assert.match(r.out, /OSError: \[Errno 30\] Read-only file system: 'tests\/x.test.js'/);
  unchanged(f, 'python3');
});

test('node -e cannot write a protected file', kernel, () => {
  const f = sandboxFixture();
  const r = runIn(f, `${JSON.stringify(process.execPath)} -e "require('fs').writeFileSync('tests/x.test.js', 'hacked')"`);
  assert.notEqual(r.status, 0);
  assert.match(r.out, /EROFS/);
  unchanged(f, 'node -e');
});

test('shell writes, removals, renames, links, archives and eval all fail on protected paths', kernel, () => {
  const f = sandboxFixture();
  fs.writeFileSync(path.join(f.root, 'evil.test.js'), 'hacked\n');
  execFileSync('tar', ['-cf', path.join(f.root, 'evil.tar'), '-C', f.root, 'evil.test.js']);
  const attempts: Array<[string, string]> = [
    ['bash -c', `bash -c 'echo hacked > tests/x.test.js'`],
    ['append', 'echo hacked >> tests/x.test.js'],
    ['eval', `eval 'echo hacked > tests/x.test.js'`],
    ['rm -rf', 'rm -rf tests'],
    ['rm -f', 'rm -f tests/x.test.js'],
    ['mv folder', 'mv tests t2'],
    ['mv file', 'mv tests/x.test.js src/x.js'],
    ['mv over', 'echo hacked > src/y.js && mv src/y.js tests/x.test.js'],
    ['cp over', `cp ${f.root}/evil.test.js tests/x.test.js`],
    ['new file', 'echo hacked > tests/new.test.js'],
    ['sed -i', `sed -i 's/original/hacked/' tests/x.test.js`],
    ['truncate', 'truncate -s 0 tests/x.test.js'],
    ['chmod', 'chmod 000 tests/x.test.js'],
    ['touch', 'touch -d 2000-01-01 tests/x.test.js'],
    ['find -delete', 'find tests -name "*.js" -delete'],
    ['symlink swap', 'ln -sf /dev/null tests/x.test.js'],
    ['tar -x', `tar -xf ${f.root}/evil.tar --transform 's,^evil,tests/x,' --overwrite`],
    ['rsync-style replace', `${JSON.stringify(process.execPath)} -e "const fs=require('fs');fs.writeFileSync('src/t','hacked');fs.renameSync('src/t','tests/x.test.js')"`],
  ];
  for (const [what, command] of attempts) {
    const r = runIn(f, command);
    assert.notEqual(r.status, 0, `${what} should fail: ${r.out}`);
    unchanged(f, what);
  }
});

test('a hard link cannot carry a protected file out of its mount (EXDEV or EROFS)', kernel, () => {
  const f = sandboxFixture();
  const r = runIn(f, 'ln tests/x.test.js src/h.js');
  assert.notEqual(r.status, 0);
  assert.match(r.out, /Invalid cross-device link|Read-only file system/);
  assert.equal(fs.existsSync(path.join(f.ws, 'src', 'h.js')), false);
  unchanged(f, 'ln');
});

test('git checkout cannot overwrite a protected file from another commit', kernel, () => {
  const f = sandboxFixture();
  const gitEnv = { ...f.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: f.ws, env: gitEnv, stdio: 'pipe' });
  git('init', '-q');
  git('add', 'tests');
  git('commit', '-qm', 'original');
  fs.writeFileSync(path.join(f.root, 'weak'), 'assert.ok(1);\n');
  const weak = git('hash-object', '-w', path.join(f.root, 'weak')).toString().trim();
  git('update-index', '--cacheinfo', `100644,${weak},tests/x.test.js`);
  git('commit', '-qm', 'weakened');
  git('reset', '-q', 'HEAD~1', '--', 'tests'); // the index back at the original; HEAD holds the weak test
  const r = runIn(f, 'git -c core.fsmonitor=false checkout HEAD -- tests/x.test.js');
  assert.notEqual(r.status, 0, r.out);
  unchanged(f, 'git checkout');
});

test('.vscode, created empty beforehand, cannot be written; nor can the other governance folders', kernel, () => {
  const f = sandboxFixture();
  for (const dir of ['.vscode', '.github/hooks', '.claude', '.codex']) {
    assert.deepEqual(fs.readdirSync(path.join(f.ws, dir)), [], `${dir} exists, empty, before any command`);
    const r = runIn(f, `echo '{}' > ${dir}/settings.json`);
    assert.notEqual(r.status, 0);
    assert.match(r.out, EROFS);
    assert.equal(fs.existsSync(path.join(f.ws, dir, 'settings.json')), false);
  }
  const roles = runIn(f, 'echo "[role]" > .alfred/roles/mine.toml; echo x > .alfred/checks.toml');
  assert.notEqual(roles.status, 0);
  assert.equal(f.read('.alfred/roles/mine.toml'), '[role]\nname = "mine"\n');
});

test('Alfred home, the state folder and ~/.alfred cannot be written', kernel, () => {
  const f = sandboxFixture();
  for (const target of [path.join(f.alfredHome, 'bin', 'alfred'), path.join(f.stateDir, 'ledger.json'), path.join(f.home, '.alfred', 'roles', 'coder.toml')]) {
    const r = runIn(f, `mkdir -p "$(dirname '${target}')" && echo hacked > '${target}'`);
    assert.notEqual(r.status, 0, target);
    assert.match(r.out, EROFS);
    assert.equal(fs.existsSync(target), false, target);
  }
  assert.notEqual(runIn(f, `rm -rf '${f.alfredHome}'`).status, 0);
  assert.ok(fs.existsSync(f.stateDir));
});

test('folders above a protected path cannot be renamed away (a new .github/hooks would be free)', kernel, () => {
  const f = sandboxFixture();
  for (const command of ['mv .github gh', `mv '${f.ws}' '${f.ws}2'`, `mv '${f.root}' '${f.root}2'`, `mv '${f.home}' '${f.home}2'`]) {
    const r = runIn(f, command);
    assert.notEqual(r.status, 0, command);
    assert.match(r.out, /Device or resource busy/, command);
  }
  assert.ok(fs.existsSync(path.join(f.ws, '.github', 'hooks')));
});

test('no way around the mounts: another process\'s /proc root, umount, a nested user namespace', kernel, () => {
  const f = sandboxFixture();
  const target = path.join(f.ws, 'tests', 'x.test.js');
  for (const command of [
    `echo hacked > /proc/$PPID/root${target}`,
    `echo hacked > /proc/1/root${target}`,
    `echo hacked > /proc/$PPID/cwd/tests/x.test.js`,
    'umount tests || exit 1; echo hacked > tests/x.test.js',
    `unshare -Urm sh -c 'umount ${target.replace(/\/x\.test\.js$/, '')}; echo hacked > ${target}'`,
  ]) {
    runIn(f, command);
    unchanged(f, command);
  }
  // Processes outside the sandbox are out of sight, so none of their /proc links can be followed.
  const seen = runIn(f, 'ls /proc | grep -c "^[0-9]"');
  assert.ok(Number(seen.out.trim()) < 10, `processes seen inside: ${seen.out}`);
});

test('the rest of the workspace stays writable, in the folder the command was given', kernel, () => {
  const f = sandboxFixture();
  const r = runIn(f, 'echo ok > src/ok.js && mkdir -p build/out && echo done > build/out/a && rm src/index.js && pwd -P');
  assert.equal(r.status, 0, r.out);
  assert.equal(r.out.trim(), f.ws);
  assert.equal(f.read('src/ok.js'), 'ok\n');
  assert.equal(fs.existsSync(path.join(f.ws, 'src', 'index.js')), false);
  assert.equal(runIn(f, 'pwd -P', path.join(f.ws, 'src')).out.trim(), path.join(f.ws, 'src'));
  // Protected files stay readable.
  assert.equal(runIn(f, 'cat tests/x.test.js').out, ORIGINAL);
});

test('the network is unchanged: same network namespace, a local server answers', kernel, async () => {
  const f = sandboxFixture();
  assert.equal(runIn(f, 'readlink /proc/self/ns/net').out.trim(), fs.readlinkSync('/proc/self/ns/net'));
  const server = http.createServer((_, res) => res.end('pong'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const port = (server.address() as { port: number }).port;
    if (f.plan.kind !== 'sandboxed') throw new Error('not sandboxed');
    const [file, ...args] = f.plan.argv(`${JSON.stringify(process.execPath)} -e "fetch('http://127.0.0.1:${port}').then(r => r.text()).then(console.log)"`, f.ws);
    const { stdout } = await promisify(execFile)(file!, args, { env: f.env });
    assert.equal(stdout.trim(), 'pong');
  } finally {
    server.close();
  }
});

test('a command cannot plant code that git runs later outside the sandbox (.git/config, .git/hooks); commits still work', kernel, () => {
  const f = sandboxFixture();
  const gitEnv = { ...f.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' };
  execFileSync('git', ['init', '-q'], { cwd: f.ws, env: gitEnv, stdio: 'pipe' });
  const plan = planSandbox({ role: { name: 'coder', sandbox: 'auto' }, workspaceFolder: f.ws, protectedGlobs: ['tests/**'], stateDir: f.stateDir, env: f.env, home: f.home });
  assert.equal(plan.kind, 'sandboxed');
  const run = (command: string) => {
    const [file, ...args] = (plan as Extract<typeof plan, { kind: 'sandboxed' }>).argv(command, f.ws);
    return spawnSync(file!, args, { cwd: f.ws, env: gitEnv, encoding: 'utf8', timeout: 30_000 });
  };
  const config = fs.readFileSync(path.join(f.ws, '.git', 'config'), 'utf8');
  assert.notEqual(run('git config core.fsmonitor "touch /tmp/pwned-by-fsmonitor"').status, 0);
  assert.notEqual(run('printf "#!/bin/sh\\ntouch /tmp/pwned\\n" > .git/hooks/pre-commit').status, 0);
  assert.equal(fs.readFileSync(path.join(f.ws, '.git', 'config'), 'utf8'), config);
  assert.equal(fs.existsSync(path.join(f.ws, '.git', 'hooks', 'pre-commit')), false);
  const commit = run('git add src && git commit -qm work && git log --oneline | wc -l');
  assert.equal(commit.status, 0, commit.stderr);
  assert.equal(commit.stdout.trim(), '1');
});

test('Alfred\'s own installation (built-in roles, the code hooks run, the manifest) is read-only to a command; a workspace inside it keeps its own files writable', kernel, () => {
  const f = sandboxFixture();
  const installation = path.join(f.root, 'extensions', 'alfred-harness.alfred-harness-0.1.0');
  fs.mkdirSync(path.join(installation, 'roles'), { recursive: true });
  fs.mkdirSync(path.join(installation, 'dist', 'cli'), { recursive: true });
  fs.writeFileSync(path.join(installation, 'roles', 'coder.toml'), '[role]\nname = "coder"\n');
  fs.writeFileSync(path.join(installation, 'dist', 'cli', 'alfred-hook.cjs'), 'exports.main = 1;\n');
  const plan = planSandbox({ role: { name: 'coder', sandbox: 'auto' }, workspaceFolder: f.ws, protectedGlobs: [], stateDir: f.stateDir, env: f.env, home: f.home, installation });
  const run = (p: typeof plan, command: string, cwd = f.ws) => {
    if (p.kind !== 'sandboxed') throw new Error(p.kind);
    const [file, ...args] = p.argv(command, cwd);
    return spawnSync(file!, args, { cwd, env: f.env, encoding: 'utf8', timeout: 30_000 });
  };
  const node = JSON.stringify(process.execPath);
  const loosen = `${node} -e "const f=require('fs'),d=process.argv[1];f.writeFileSync(d+'/roles/coder.toml','[limits]\\nmax_shell_invocations = 99999\\n');f.writeFileSync(d+'/dist/cli/alfred-hook.cjs','')" ${JSON.stringify(installation)}`;
  assert.match(`${run(plan, loosen).stderr}`, /EROFS/);
  assert.equal(fs.readFileSync(path.join(installation, 'roles', 'coder.toml'), 'utf8'), '[role]\nname = "coder"\n');
  assert.equal(fs.readFileSync(path.join(installation, 'dist', 'cli', 'alfred-hook.cjs'), 'utf8'), 'exports.main = 1;\n');
  // Alfred's own repository opened as the workspace: its roles and code are held, the rest is the agent's to change.
  const repoPlan = planSandbox({ role: { name: 'coder', sandbox: 'auto' }, workspaceFolder: installation, protectedGlobs: [], stateDir: f.stateDir, env: f.env, home: f.home, installation });
  assert.notEqual(run(repoPlan, `echo x > roles/coder.toml`, installation).status, 0);
  assert.equal(run(repoPlan, `mkdir -p src && echo 1 > src/new.ts`, installation).status, 0);
  assert.equal(fs.readFileSync(path.join(installation, 'src', 'new.ts'), 'utf8'), '1\n');
});
