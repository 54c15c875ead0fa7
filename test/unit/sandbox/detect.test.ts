import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { beforeEach, test } from 'node:test';
import { detectSandbox, resetSandboxDetection } from '../../../src/core/sandbox/detect';
import { BWRAP_FLAGS } from '../../../src/core/sandbox/wrap';

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

test('macOS without /usr/bin/sandbox-exec is none', { skip: fs.existsSync('/usr/bin/sandbox-exec') && 'this machine has sandbox-exec' }, () => {
  assert.deepEqual(detectSandbox({}, { platform: 'darwin', probe: () => undefined }), { kind: 'none', why: '/usr/bin/sandbox-exec is missing' });
});

test('the real probe on this machine', { skip: (process.platform !== 'linux' || HAS_BWRAP) && 'Linux with bubblewrap only' }, () => {
  const found = detectSandbox(process.env);
  assert.equal(found.kind, 'bwrap', JSON.stringify(found));
});
