/**
 * The kernel's settings are out of a sandboxed command's reach, in every mode: /proc/sys and /sys.
 * Run as root (a container, a devbox), a command under strict wrote /proc/sys/kernel/core_pattern
 * (`|<a script of the workspace>`), crashed a process of its own, and the kernel ran the script
 * outside the sandbox as root with every capability: it wrote Alfred's home, read-only inside.
 * bubblewrap covers /proc/sys only where it finds it writable before dropping root's rights, and
 * /sys is the machine's under `auto`. Only root can write them, and not in every container: elsewhere these tests say nothing.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { planSandbox } from '../../../src/core/sandbox/index';
import { forms, NO_SANDBOX, tempRoot } from './helpers';

/** The kernel's settings a root command could change, where this machine has them; each is only tested for writing (`-w`). */
const SETTINGS = [
  '/proc/sys/kernel/core_pattern', '/proc/sys/kernel/modprobe', '/proc/sys/vm/drop_caches',
  '/sys/kernel/uevent_helper', '/sys/kernel/mm/transparent_hugepage/enabled', '/sys/power/state',
].filter((p) => fs.existsSync(p));
/** Those this process can write here (root, where a container has not made them read-only already). */
const writableHere = SETTINGS.filter((p) => spawnSync('/bin/sh', ['-c', `[ -w ${p} ]`]).status === 0);

const asRoot = { skip: NO_SANDBOX || (!writableHere.includes('/proc/sys/kernel/core_pattern') && 'this process cannot write the kernel\'s settings here') };

for (const mode of ['auto', 'strict'] as const) {
  test(`${mode}: a command run as root cannot change the kernel's settings (/proc/sys, /sys), in any form`, asRoot, () => {
    const root = tempRoot('alfred-kernel-');
    const ws = path.join(root, 'ws');
    const home = path.join(root, 'home');
    fs.mkdirSync(ws, { recursive: true });
    fs.mkdirSync(home);
    const env = { ...process.env, HOME: home, ALFRED_HOME: path.join(home, '.alfred'), SHELL: '/bin/sh' };
    const plan = planSandbox({ role: { name: mode, sandbox: mode }, workspaceFolder: ws, protectedGlobs: [], env, home, tempFolders: [path.join(root, 'tmp')] });
    if (plan.kind !== 'sandboxed') throw new Error(`not sandboxed: ${plan.kind}`);
    // The same value written back: a no-op where it gets through, refused (read-only) where it does not.
    const command = `for p in ${writableHere.join(' ')}; do [ -w "$p" ] && echo "writable: $p"; done; `
      + 'v=$(cat /proc/sys/kernel/core_pattern); (printf "%s\\n" "$v" > /proc/sys/kernel/core_pattern) 2>&1 | sed "s/.*: //"';
    for (const [form, file, args] of forms(plan, command, ws)) {
      const r = spawnSync(file, args, { cwd: ws, env, encoding: 'utf8', timeout: 30_000 });
      assert.equal(`${r.stdout}${r.stderr}`, 'Read-only file system\n', `${mode}, ${form}`);
    }
  });
}
