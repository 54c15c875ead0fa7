/**
 * A disk's block device is a way below every read-only mount: written raw, the file system under a
 * protected path changes without the kernel checking the mount (`debugfs -w`). Run as root under
 * `auto` (whose /dev is the machine's), a command opened a loop and a zram device read-write. Only
 * those who can open one for writing outside (root, the disk group) can inside: elsewhere this says nothing.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { blockDevices, writableBy } from '../../../src/core/sandbox/blockDevices';
import { forms, NO_SANDBOX, PYTHON, sandboxFixture } from './helpers';

const writableHere = (p: string) => {
  try {
    fs.accessSync(p, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
};
const machine = fs.readdirSync('/dev', { withFileTypes: true }).filter((e) => e.isBlockDevice()).map((e) => path.join('/dev', e.name)).filter(writableHere);

test('the block devices this user could write are found in /dev, and nothing else', () => {
  assert.deepEqual(blockDevices().sort(), [...machine].sort());
  assert.ok(blockDevices().every((p) => fs.lstatSync(p).isBlockDevice()));
});

test('who could write a device: root always; else by its owner, group and mode, as the kernel checks', () => {
  const disk = { uid: 0, gid: 6, mode: 0o60660 };
  assert.equal(writableBy(disk, { uid: 0, groups: [0] }), true);
  assert.equal(writableBy({ ...disk, mode: 0o60440 }, { uid: 0, groups: [0] }), true, 'root whatever the mode');
  assert.equal(writableBy(disk, { uid: 1000, groups: [1000, 6] }), true, 'in the disk group');
  assert.equal(writableBy(disk, { uid: 1000, groups: [1000, 27] }), false);
  assert.equal(writableBy({ ...disk, mode: 0o60640 }, { uid: 1000, groups: [1000, 6] }), false, 'the group may only read');
  assert.equal(writableBy({ uid: 1000, gid: 1000, mode: 0o60600 }, { uid: 1000, groups: [1000] }), true, 'its owner');
  assert.equal(writableBy({ uid: 1000, gid: 6, mode: 0o60466 }, { uid: 1000, groups: [6] }), false, 'the owner\'s bits count for the owner, not the group\'s');
  assert.equal(writableBy({ ...disk, mode: 0o60662 }, { uid: 1000, groups: [1000] }), true, 'anyone');
});

test('auto: a block device this user could write outside cannot be opened for writing inside, in any form', { skip: NO_SANDBOX || (machine.length === 0 && 'no block device this user can write') }, () => {
  const f = sandboxFixture();
  if (f.plan.kind !== 'sandboxed') throw new Error(f.plan.kind);
  const open = `${PYTHON ?? 'python3'} -c "
import os, sys
for d in sys.argv[1:]:
  try:
    os.close(os.open(d, os.O_RDWR)); print('opened', d)
  except OSError as e: print('refused', d, e.errno)
" ${machine.join(' ')}`;
  for (const [form, file, args] of forms(f.plan, open, f.ws)) {
    const r = spawnSync(file, args, { cwd: f.ws, env: { ...f.env, SHELL: '/bin/sh' }, encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.stdout, machine.map((d) => `refused ${d} 13\n`).join(''), `${form}: ${r.stderr}`);
  }
});
