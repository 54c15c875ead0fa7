import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { beforeEach, describe, test } from 'node:test';
import { detectSandbox, resetSandboxDetection, strictFailure, strictProbeFailure } from '../../../src/core/sandbox/detect';
import { sandboxFilter } from '../../../src/core/sandbox/seccomp';
import { PROBE_CACHE_FILE, probeKey } from '../../../src/core/sandbox/probeCache';
import { BWRAP_FLAGS, STRICT_BWRAP_FLAGS } from '../../../src/core/sandbox/wrap';

beforeEach(() => resetSandboxDetection());

const HAS_BWRAP = fs.existsSync('/usr/bin/bwrap') ? false : 'no /usr/bin/bwrap here';

test('ALFRED_SANDBOX=off forces none, before any probe', () => {
  let probes = 0;
  const found = detectSandbox({ ALFRED_SANDBOX: 'off' }, { platform: 'linux', probe: () => { probes++; return undefined; } });
  assert.deepEqual(found, { kind: 'none', why: 'turned off by ALFRED_SANDBOX=off' });
  assert.equal(probes, 0);
});

test('platforms without a supported sandbox get none, with the reason', () => {
  assert.deepEqual(detectSandbox({}, { platform: 'win32' }), { kind: 'none', why: 'no kernel sandbox is supported on win32' });
});

test('on Linux bwrap is probed once per process, with the flags every command gets', { skip: HAS_BWRAP }, () => {
  const calls: Array<[string, readonly string[]]> = [];
  const probe = (file: string, args: readonly string[]) => { calls.push([file, args]); return undefined; };
  assert.deepEqual(detectSandbox({ PATH: '/nowhere' }, { platform: 'linux', probe }), { kind: 'bwrap', path: '/usr/bin/bwrap' });
  detectSandbox({ PATH: '/nowhere' }, { platform: 'linux', probe });
  assert.equal(calls.length, 1);
  assert.deepEqual(calls[0], ['/usr/bin/bwrap', [...BWRAP_FLAGS, '--', '/bin/true']]);
});

test('a bwrap that fails its probe is none, saying why', { skip: HAS_BWRAP }, () => {
  const found = detectSandbox({}, { platform: 'linux', probe: () => 'setting up uid map: Permission denied' });
  assert.deepEqual(found, { kind: 'none', why: '/usr/bin/bwrap does not work here: setting up uid map: Permission denied' });
});

test('the system bwrap wins over one earlier on PATH', { skip: HAS_BWRAP }, () => {
  const found = detectSandbox({ PATH: `${process.cwd()}/node_modules/.bin:/usr/local/bin:/usr/bin` }, { platform: 'linux', probe: () => undefined });
  assert.deepEqual(found, { kind: 'bwrap', path: '/usr/bin/bwrap' });
});

test('without a system bwrap, the first executable file named bwrap on PATH is the one', { skip: !HAS_BWRAP && 'this machine has /usr/bin/bwrap' }, () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-path-'));
  const dirs = ['plain', 'folder', 'real', 'later'].map((name) => path.join(root, name));
  for (const dir of dirs) fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dirs[0]!, 'bwrap'), '', { mode: 0o644 }); // not executable
  fs.mkdirSync(path.join(dirs[1]!, 'bwrap')); // a folder
  fs.writeFileSync(path.join(dirs[2]!, 'bwrap'), '', { mode: 0o755 });
  fs.writeFileSync(path.join(dirs[3]!, 'bwrap'), '', { mode: 0o755 });
  const notAFolder = path.join(dirs[0]!, 'bwrap'); // a file named as a folder of PATH
  const env = { PATH: ['relative/bin', notAFolder, path.join(root, 'missing'), ...dirs].join(path.delimiter) };
  assert.deepEqual(detectSandbox(env, { platform: 'linux', probe: () => undefined }), { kind: 'bwrap', path: path.join(dirs[2]!, 'bwrap') });
  resetSandboxDetection();
  assert.deepEqual(detectSandbox({ PATH: [notAFolder, ...dirs.slice(0, 2)].join(path.delimiter) }, { platform: 'linux', probe: () => undefined }),
    { kind: 'none', why: 'bubblewrap (bwrap) is not installed; on Debian or Ubuntu: apt install bubblewrap' });
  fs.rmSync(root, { recursive: true, force: true });
});

test('macOS without /usr/bin/sandbox-exec is none', { skip: fs.existsSync('/usr/bin/sandbox-exec') && 'this machine has sandbox-exec' }, () => {
  assert.deepEqual(detectSandbox({}, { platform: 'darwin', probe: () => undefined }), { kind: 'none', why: '/usr/bin/sandbox-exec is missing' });
});

test('the real probe on this machine', { skip: (process.platform !== 'linux' || HAS_BWRAP) && 'Linux with bubblewrap only' }, () => {
  const found = detectSandbox(process.env);
  assert.equal(found.kind, 'bwrap', JSON.stringify(found));
});

describe('a probe that worked is remembered for other processes', () => {
  const folder = () => fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-probe-'));
  const counting = (answer: string | undefined) => {
    const probe = (_file: string, _args: readonly string[]) => { probe.calls++; return answer; };
    probe.calls = 0;
    return probe;
  };
  const detect = (probe: (file: string, args: readonly string[]) => string | undefined, rememberIn: string) => {
    resetSandboxDetection(); // a new process
    return detectSandbox({ PATH: '/nowhere' }, { platform: 'linux', probe, rememberIn });
  };

  test('one probe for three processes', { skip: HAS_BWRAP }, () => {
    const dir = folder();
    const probe = counting(undefined);
    for (let i = 0; i < 3; i++) assert.deepEqual(detect(probe, dir), { kind: 'bwrap', path: '/usr/bin/bwrap' });
    assert.equal(probe.calls, 1);
    const entries = JSON.parse(fs.readFileSync(path.join(dir, PROBE_CACHE_FILE), 'utf8'));
    assert.deepEqual(entries.map((e: { key: string }) => e.key), [probeKey('/usr/bin/bwrap', [...BWRAP_FLAGS, '--', '/bin/true'])]);
  });

  test('a failure is not remembered: each process probes again', { skip: HAS_BWRAP }, () => {
    const dir = folder();
    const probe = counting('setting up uid map: Permission denied');
    for (let i = 0; i < 2; i++) assert.equal(detect(probe, dir).kind, 'none');
    assert.equal(probe.calls, 2);
    assert.equal(fs.existsSync(path.join(dir, PROBE_CACHE_FILE)), false);
  });

  test('an entry for another executable, other flags, an old one or a corrupt file is probed again', { skip: HAS_BWRAP }, () => {
    const key = probeKey('/usr/bin/bwrap', [...BWRAP_FLAGS, '--', '/bin/true'])!;
    const cases = [
      [{ key: probeKey('/usr/bin/bwrap', ['--', '/bin/true']), at: Date.now() }],
      [{ key, at: Date.now() - 25 * 3600_000 }],
      [{ key, at: Date.now() + 3600_000 }],
      [{ key }],
      { key, at: Date.now() },
    ].map((c) => JSON.stringify(c)).concat(['{"key":', '']);
    for (const text of cases) {
      const dir = folder();
      fs.writeFileSync(path.join(dir, PROBE_CACHE_FILE), text);
      const probe = counting('no user namespaces');
      // A forged or stale entry never stands for a probe: this one fails, so there is no sandbox.
      assert.equal(detect(probe, dir).kind, 'none', text);
      assert.equal(probe.calls, 1, text);
    }
  });

  test('the key follows the executable (a reinstall or upgrade) and the arguments', () => {
    const dir = folder();
    const file = path.join(dir, 'bwrap');
    fs.writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 });
    const before = probeKey(file, ['--', '/bin/true']);
    assert.deepEqual(JSON.parse(before!).slice(0, 3), [file, fs.statSync(file).ino, 10]);
    assert.equal(probeKey(file, ['--', '/bin/true']), before);
    assert.notEqual(probeKey(file, ['--unshare-all', '--', '/bin/true']), before);
    fs.utimesSync(file, new Date(2020, 0, 1), new Date(2020, 0, 1));
    assert.notEqual(probeKey(file, ['--', '/bin/true']), before);
    assert.equal(probeKey(path.join(dir, 'missing'), []), undefined);
  });

  test('an injected probe is not remembered unless asked', { skip: HAS_BWRAP }, () => {
    const probe = counting(undefined);
    resetSandboxDetection();
    detectSandbox({ PATH: '/nowhere', ALFRED_HOME: folder() }, { platform: 'linux', probe });
    resetSandboxDetection();
    detectSandbox({ PATH: '/nowhere', ALFRED_HOME: folder() }, { platform: 'linux', probe });
    assert.equal(probe.calls, 2);
  });

  test('the real probe, remembered in ALFRED_HOME/run', { skip: (process.platform !== 'linux' || HAS_BWRAP) && 'Linux with bubblewrap only' }, () => {
    const home = folder();
    resetSandboxDetection();
    assert.equal(detectSandbox({ ...process.env, ALFRED_HOME: home }).kind, 'bwrap');
    assert.equal(JSON.parse(fs.readFileSync(path.join(home, 'run', PROBE_CACHE_FILE), 'utf8')).length, 1);
  });

  test('the strict sandbox\'s probe runs it as commands do (its flags and the seccomp filter), once per process; its success is remembered beside the sandbox\'s', { skip: HAS_BWRAP }, () => {
    const dir = folder();
    const filter = Buffer.from('not a real filter');
    const calls: Array<[string, readonly string[]]> = [];
    const probe = (file: string, args: readonly string[]) => { calls.push([file, args]); return undefined; };
    detect(counting(undefined), dir);
    assert.equal(strictFailure('/usr/bin/bwrap', '/a/filter.bpf', filter, {}, { probe, rememberIn: dir }), undefined);
    assert.equal(strictFailure('/usr/bin/bwrap', '/a/filter.bpf', filter, {}, { probe, rememberIn: dir }), undefined);
    assert.deepEqual(calls, [['/bin/sh', ['-c', 'exec "$@" 9< "$0"', '/a/filter.bpf', '/usr/bin/bwrap', ...STRICT_BWRAP_FLAGS, '--seccomp', '9', '--', '/bin/true']]]);
    const keys = JSON.parse(fs.readFileSync(path.join(dir, PROBE_CACHE_FILE), 'utf8')).map((e: { key: string }) => e.key);
    assert.deepEqual(keys, [probeKey('/usr/bin/bwrap', [...BWRAP_FLAGS, '--', '/bin/true']), probeKey('/usr/bin/bwrap', ['--seccomp', filter.toString('hex'), ...STRICT_BWRAP_FLAGS])]);
    resetSandboxDetection(); // another process: both remembered, neither probed again
    const again = counting('should not run');
    assert.deepEqual(detect(again, dir), { kind: 'bwrap', path: '/usr/bin/bwrap' });
    assert.equal(strictFailure('/usr/bin/bwrap', '/a/filter.bpf', filter, {}, { probe: again, rememberIn: dir }), undefined);
    assert.equal(again.calls, 0);
  });

  test('a seccomp filter bwrap cannot install is reported with bwrap\'s words, and not remembered', { skip: HAS_BWRAP }, () => {
    const dir = folder();
    const probe = counting('bwrap: prctl(PR_SET_SECCOMP): Invalid argument');
    for (let i = 0; i < 2; i++) {
      resetSandboxDetection();
      assert.equal(strictProbeFailure('/usr/bin/bwrap'), undefined, 'nothing probed yet in this process');
      assert.equal(strictFailure('/usr/bin/bwrap', '/a/filter.bpf', Buffer.from('x'), {}, { probe, rememberIn: dir }), 'bwrap: prctl(PR_SET_SECCOMP): Invalid argument');
      assert.equal(strictProbeFailure('/usr/bin/bwrap'), 'bwrap: prctl(PR_SET_SECCOMP): Invalid argument', 'for the dashboard and Doctor');
      assert.equal(strictProbeFailure('/bin/bwrap'), undefined);
    }
    assert.equal(probe.calls, 2);
  });

  test('the real filter\'s probe on this machine', { skip: (process.platform !== 'linux' || HAS_BWRAP || !sandboxFilter(process.arch)) && 'Linux with bubblewrap and a filter only' }, () => {
    const dir = folder();
    const file = path.join(dir, 'filter.bpf');
    fs.writeFileSync(file, sandboxFilter(process.arch)!);
    assert.equal(strictFailure('/usr/bin/bwrap', file, sandboxFilter(process.arch)!, { ALFRED_HOME: dir }), undefined);
    resetSandboxDetection();
    fs.writeFileSync(file, 'not a filter!!'); // 14 bytes: not whole instructions
    assert.match(strictFailure('/usr/bin/bwrap', file, Buffer.from('not a filter!!'), { ALFRED_HOME: path.join(dir, 'other') }) ?? 'none', /^bwrap: Invalid seccomp data/);
  });
});
