/**
 * The seccomp filter of `sandbox = "strict"`, run here as the kernel runs it: a small interpreter of
 * the classic BPF instructions the filter uses, over the `struct seccomp_data` of each system call.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sandboxFilter } from '../../../src/core/sandbox/seccomp';

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const X86_64 = 0xc000003e;
const AARCH64 = 0xc00000b7;
const I386 = 0x40000003;

/** What the filter answers for one system call (args as 64-bit values). */
function run(program: Buffer, call: { arch: number; nr: number; args?: bigint[] }): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(call.nr, 0);
  data.writeUInt32LE(call.arch, 4);
  (call.args ?? []).forEach((a, i) => data.writeBigUInt64LE(a, 16 + 8 * i));
  let acc = 0;
  for (let pc = 0; pc * 8 < program.length;) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    switch (code) {
      case 0x20: acc = data.readUInt32LE(k); pc++; break; // ld [k]
      case 0x15: pc += 1 + (acc === k ? jt : jf); break; // jeq #k
      case 0x35: pc += 1 + (acc >= k ? jt : jf); break; // jge #k
      case 0x06: return k; // ret #k
      default: throw new Error(`opcode ${code.toString(16)} at ${pc}`);
    }
  }
  throw new Error('ran off the end of the program');
}

test('x86-64: socket(AF_UNIX), io_uring_setup and the key rings\' calls fail with EPERM; other sockets, socketpair and the rest run; another ABI runs nothing', () => {
  const f = sandboxFilter('x64')!;
  const unix = 1n;
  assert.equal(run(f, { arch: X86_64, nr: 41, args: [unix, 1n, 0n] }), EPERM, 'socket(AF_UNIX, SOCK_STREAM)');
  assert.equal(run(f, { arch: X86_64, nr: 41, args: [(1n << 32n) | unix, 1n, 0n] }), EPERM, 'the kernel reads the domain as an int: the high half does not hide it');
  assert.equal(run(f, { arch: X86_64, nr: 41, args: [2n, 1n, 0n] }), ALLOW, 'socket(AF_INET)');
  assert.equal(run(f, { arch: X86_64, nr: 41, args: [10n, 2n, 0n] }), ALLOW, 'socket(AF_INET6)');
  assert.equal(run(f, { arch: X86_64, nr: 53, args: [unix, 1n, 0n] }), ALLOW, 'socketpair(AF_UNIX): a command\'s own processes');
  assert.equal(run(f, { arch: X86_64, nr: 42 }), ALLOW, 'connect on a socket it has');
  assert.equal(run(f, { arch: X86_64, nr: 425 }), EPERM, 'io_uring_setup: io_uring opens sockets without socket()');
  for (const [nr, name] of [[248, 'add_key'], [249, 'request_key'], [250, 'keyctl']] as const) assert.equal(run(f, { arch: X86_64, nr }), EPERM, `${name}: the user's key rings`);
  assert.equal(run(f, { arch: X86_64, nr: 247 }), ALLOW, 'waitid, just before them');
  assert.equal(run(f, { arch: X86_64, nr: 0 }), ALLOW, 'read');
  assert.equal(run(f, { arch: X86_64, nr: 59 }), ALLOW, 'execve');
  assert.equal(run(f, { arch: X86_64, nr: 0x40000000 + 41, args: [unix] }), EPERM, 'the x32 ABI');
  assert.equal(run(f, { arch: I386, nr: 102 }), EPERM, 'a 32-bit program\'s socketcall');
  assert.equal(run(f, { arch: I386, nr: 3 }), EPERM, 'a 32-bit program runs nothing');
  assert.equal(run(f, { arch: AARCH64, nr: 198, args: [unix] }), EPERM, 'another architecture\'s numbers');
});

test('arm64: the same with its own numbers', () => {
  const f = sandboxFilter('arm64')!;
  assert.equal(run(f, { arch: AARCH64, nr: 198, args: [1n, 1n, 0n] }), EPERM, 'socket(AF_UNIX)');
  assert.equal(run(f, { arch: AARCH64, nr: 198, args: [2n, 1n, 0n] }), ALLOW, 'socket(AF_INET)');
  assert.equal(run(f, { arch: AARCH64, nr: 199, args: [1n, 1n, 0n] }), ALLOW, 'socketpair(AF_UNIX)');
  assert.equal(run(f, { arch: AARCH64, nr: 425 }), EPERM, 'io_uring_setup');
  for (const [nr, name] of [[217, 'add_key'], [218, 'request_key'], [219, 'keyctl']] as const) assert.equal(run(f, { arch: AARCH64, nr }), EPERM, name);
  assert.equal(run(f, { arch: AARCH64, nr: 248 }), ALLOW, 'x86-64\'s add_key number is another call here');
  assert.equal(run(f, { arch: AARCH64, nr: 41, args: [1n] }), ALLOW, 'x86-64\'s socket number is another call here');
  assert.equal(run(f, { arch: AARCH64, nr: 221 }), ALLOW, 'execve');
  assert.equal(run(f, { arch: X86_64, nr: 41, args: [2n] }), EPERM, 'another architecture runs nothing');
});

test('no filter for an architecture Alfred has none for', () => {
  assert.equal(sandboxFilter('riscv64'), undefined);
  assert.equal(sandboxFilter('ia32'), undefined);
});
