import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { planSandbox, type PlanOptions } from '../../../src/core/sandbox/index';
import type { SandboxMode } from '../../../src/core/rules/roles/types';
import { tempRoot } from './helpers';
import { workspaceId } from '../../../src/core/base/state/paths';
import { sandboxFilter } from '../../../src/core/sandbox/seccomp';

function options(sandbox: PlanOptions['sandbox'], mode: SandboxMode): PlanOptions {
  const root = tempRoot('alfred-plan-');
  fs.mkdirSync(path.join(root, 'ws'));
  fs.mkdirSync(path.join(root, 'home'));
  // The seccomp filter's probe (strict) answers "it works" without running bwrap: planning is what is tested here.
  return { role: { name: 'r', sandbox: mode }, workspaceFolder: path.join(root, 'ws'), protectedGlobs: [], env: {}, home: path.join(root, 'home'), sandbox, probe: () => undefined };
}

const NONE = { kind: 'none', why: 'bubblewrap (bwrap) is not installed' } as const;
const BWRAP = { kind: 'bwrap', path: '/usr/bin/bwrap' } as const;

test('required without a sandbox: refused, naming the role, the setting and why', () => {
  const plan = planSandbox(options(NONE, 'required'));
  assert.equal(plan.kind, 'refused');
  assert.match(plan.kind === 'refused' ? plan.reason : '', /role "r" requires a kernel sandbox \(sandbox = "required"\).*bubblewrap \(bwrap\) is not installed/);
});

test('strict without a sandbox: refused as required is; with one, the workspace is writable, and each temporary folder and cache that exists is the workspace\'s own copy', () => {
  const refused = planSandbox(options(NONE, 'strict'));
  assert.match(refused.kind === 'refused' ? refused.reason : '', /role "r" requires a kernel sandbox \(sandbox = "strict"\)/);
  const opts = options(BWRAP, 'strict');
  const temp = path.join(path.dirname(opts.workspaceFolder), 'tmp');
  fs.mkdirSync(temp);
  fs.mkdirSync(path.join(opts.home!, '.npm'));
  fs.writeFileSync(path.join(opts.home!, '.yarn'), 'not a folder\n');
  const plan = planSandbox({ ...opts, tempFolders: [temp, path.join(temp, 'inner'), 'relative'] });
  assert.equal(plan.kind, 'sandboxed');
  if (plan.kind !== 'sandboxed') return;
  assert.deepEqual(plan.writable, [opts.workspaceFolder]);
  const own = path.join(opts.home!, '.alfred', 'sandbox-copies', workspaceId(opts.workspaceFolder));
  const npm = path.join(opts.home!, '.npm');
  assert.deepEqual(plan.ownCopies, [{ source: path.join(own, temp), target: temp }, { source: path.join(own, npm), target: npm }]);
  assert.equal(fs.statSync(path.join(own, npm)).mode & 0o777, 0o700, 'made, for the user alone');
  // A temporary folder that holds the home stays writable as it is: a copy would hide the home.
  const holding = planSandbox({ ...opts, tempFolders: [path.dirname(opts.workspaceFolder)] });
  if (holding.kind !== 'sandboxed') throw new Error(holding.kind);
  assert.deepEqual(holding.writable, [path.dirname(opts.workspaceFolder)]);
  assert.deepEqual(holding.ownCopies, [{ source: path.join(own, npm), target: npm }]);
  const argv = plan.argv('make', opts.workspaceFolder);
  assert.ok(argv.join(' ').includes(` --bind ${path.join(own, npm)} ${npm} `));
  // Where Alfred has a seccomp filter (x86-64, arm64), a small sh opens it on descriptor 9, then becomes bwrap, which reads it there.
  const filter = path.join(opts.home!, '.alfred', 'bin', 'alfred-sandbox.bpf');
  const bytes = sandboxFilter(process.arch);
  const head = bytes ? ['/bin/sh', '-c', 'exec "$@" 9< "$0"', filter, BWRAP.path] : [BWRAP.path];
  assert.deepEqual(argv.slice(0, head.length), head);
  assert.deepEqual(fs.existsSync(filter) && fs.readFileSync(filter), bytes ?? false, 'the filter is saved beside the sandbox script');
  const seccomp = argv.indexOf('--seccomp');
  assert.deepEqual(bytes ? [argv[seccomp + 1], seccomp < argv.indexOf('--')] : seccomp, bytes ? ['9', true] : -1);
  assert.deepEqual(argv.slice(head.length, head.length + 6), ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-pid'], 'the whole tree read-only, a /dev of the command\'s own');
  assert.ok(argv.join(' ').includes(` --bind ${opts.workspaceFolder} ${opts.workspaceFolder} `));
  assert.ok(argv.join(' ').includes(` --ro-bind ${path.join(opts.workspaceFolder, '.alfred')} ${path.join(opts.workspaceFolder, '.alfred')} `), 'a protected path in the workspace stays read-only');
  assert.ok(!argv.includes(path.join(opts.home!, '.npmrc')), 'what lies outside the writable folders is read-only already: not mounted again');
});

test('strict where bubblewrap cannot install the seccomp filter: refused with bwrap\'s words, before any command runs', { skip: !sandboxFilter(process.arch) && `no filter for ${process.arch}` }, () => {
  const plan = planSandbox({ ...options(BWRAP, 'strict'), probe: () => 'bwrap: prctl(PR_SET_SECCOMP): Invalid argument' });
  assert.deepEqual(plan, {
    kind: 'refused',
    reason: 'Shell commands are refused: role "r" has sandbox = "strict", and bubblewrap cannot set up the strict sandbox here (bwrap: prctl(PR_SET_SECCOMP): Invalid argument).',
  });
  assert.equal(planSandbox({ ...options(BWRAP, 'auto'), probe: () => 'never asked' }).kind, 'sandboxed', 'only strict has the filter');
});

test('auto without a sandbox: runs unsandboxed, with the note the agent is told', () => {
  assert.deepEqual(planSandbox(options(NONE, 'auto')), {
    kind: 'unsandboxed', why: 'unavailable',
    note: 'no kernel sandbox here (bubblewrap (bwrap) is not installed): protected paths are guarded by best-effort parsing only',
  });
});

test('off: unsandboxed even where a sandbox exists, and nothing is created in the workspace', () => {
  const opts = options(BWRAP, 'off');
  const plan = planSandbox(opts);
  assert.equal(plan.kind, 'unsandboxed');
  assert.equal(plan.kind === 'unsandboxed' && plan.why, 'role-off');
  assert.deepEqual(fs.readdirSync(opts.workspaceFolder), []);
});

test('auto or required with a sandbox: the read-only list, and argv and line built from it', () => {
  for (const mode of ['auto', 'required'] as const) {
    const opts = options(BWRAP, mode);
    const plan = planSandbox(opts);
    assert.equal(plan.kind, 'sandboxed');
    if (plan.kind !== 'sandboxed') return;
    assert.ok(plan.readOnly.includes(path.join(opts.workspaceFolder, '.alfred')));
    const argv = plan.argv('make', opts.workspaceFolder);
    assert.equal(argv[0], '/usr/bin/bwrap');
    assert.deepEqual(argv.slice(-6), ['--chdir', opts.workspaceFolder, '--', '/bin/sh', '-c', 'make']);
    for (const p of plan.readOnly) assert.ok(plan.line('make', '/x').includes(` --ro-bind ${p} ${p} `), p);
    assert.match(plan.line('make'), /\/\.alfred\/bin\/alfred-sandbox [0-9a-f]{16} 'make'$/);
    assert.ok(plan.line('make', '/x').endsWith(`--chdir /x -- "\${SHELL:-/bin/sh}" -c 'make'`));
  }
});

test('ALFRED_SANDBOX=off with required refuses; with auto runs unsandboxed', () => {
  const required = options(undefined, 'required');
  assert.equal(planSandbox({ ...required, env: { ALFRED_SANDBOX: 'off' } }).kind, 'refused');
  const auto = options(undefined, 'auto');
  const plan = planSandbox({ ...auto, env: { ALFRED_SANDBOX: 'off' } });
  assert.match(plan.kind === 'unsandboxed' ? plan.note : '', /ALFRED_SANDBOX=off/);
});
