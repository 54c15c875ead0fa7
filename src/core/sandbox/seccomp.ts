/**
 * The seccomp filter bubblewrap installs under `sandbox = "strict"` (`--seccomp`): a command cannot
 * open a Unix socket. Hiding socket files does not reach the servers that listen on an abstract
 * address (an X server's `@/tmp/.X11-unix/X0`: a command would type into the user's terminal
 * through it) or on a path Alfred does not know; refusing `socket(AF_UNIX, …)` reaches them all.
 * `socketpair` and pipes still work: they connect a command's own processes only. io_uring is
 * refused too, since it opens sockets without the `socket` system call. So are the kernel's key
 * rings (`add_key`, `request_key`, `keyctl`): they are the user's, not the sandbox's, shared with
 * every process of theirs (tried: a key a command added stayed in the user's ring). Only x86-64 and
 * arm64: elsewhere there is no filter (sandboxFilter answers undefined).
 *
 * The program is classic BPF, as the kernel takes it (`struct sock_filter[]`, little-endian: the byte
 * order of both architectures).
 * Pure: no file-system access.
 */

/** The descriptor the filter is read from: the launching shell opens the file there for bwrap. */
export const SECCOMP_FD = 9;

interface Arch {
  audit: number;
  socket: number;
  /** add_key, request_key, keyctl. */
  keyRings: readonly number[];
  x32: boolean;
}

/** The architectures with a filter, by Node's name: the kernel's audit value for each, and the numbers of the calls refused there. */
const ARCHES: Readonly<Record<string, Arch>> = {
  x64: { audit: 0xc000003e, socket: 41, keyRings: [248, 249, 250], x32: true },
  arm64: { audit: 0xc00000b7, socket: 198, keyRings: [217, 218, 219], x32: false },
};
/** io_uring_setup: the same number on both. */
const IO_URING_SETUP = 425;
/** On x86-64, the x32 ABI's system calls carry this bit: refused, like any other ABI's. */
const X32_SYSCALL_BIT = 0x40000000;
const AF_UNIX = 1;

// struct seccomp_data: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6] (the first one's low half at 16, little-endian).
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;

// Classic BPF opcodes.
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
/** SECCOMP_RET_ERRNO with EPERM: the call fails as "Operation not permitted", the command goes on. */
const RET_EPERM = 0x00050000 | 1;

type Label = 'allow' | 'deny';
type Step =
  | { load: number }
  | { jumpIf: 'eq' | 'ge'; k: number; then: Label | 'next'; otherwise: Label | 'next' }
  | { ret: Label };

/** Built once per architecture: a strict plan asks for it on every shell call. */
const built = new Map<string, Buffer>();

/** The filter for `arch` (process.arch), or undefined where Alfred has none. Shared: not to be changed. */
export function sandboxFilter(arch: string): Buffer | undefined {
  const a = ARCHES[arch];
  if (!a) return undefined;
  let filter = built.get(arch);
  if (!filter) built.set(arch, (filter = build(a)));
  return filter;
}

function build(a: Arch): Buffer {
  const steps: Step[] = [
    { load: ARCH },
    // Another ABI (a 32-bit program on x86-64) numbers its system calls otherwise: all refused.
    { jumpIf: 'eq', k: a.audit, then: 'next', otherwise: 'deny' },
    { load: NR },
    ...(a.x32 ? [{ jumpIf: 'ge', k: X32_SYSCALL_BIT, then: 'deny', otherwise: 'next' } as const] : []),
    { jumpIf: 'eq', k: IO_URING_SETUP, then: 'deny', otherwise: 'next' },
    ...a.keyRings.map((k) => ({ jumpIf: 'eq', k, then: 'deny', otherwise: 'next' } as const)),
    { jumpIf: 'eq', k: a.socket, then: 'next', otherwise: 'allow' },
    // The domain is an int: the kernel reads the low half of the argument, as this does.
    { load: ARG0_LOW },
    { jumpIf: 'eq', k: AF_UNIX, then: 'deny', otherwise: 'allow' },
    { ret: 'allow' },
    { ret: 'deny' },
  ];
  return assemble(steps);
}

/** Eight bytes a step (u16 code, u8 jt, u8 jf, u32 k); jumps count the steps they skip. */
function assemble(steps: readonly Step[]): Buffer {
  const at = (label: Label) => steps.findIndex((s) => 'ret' in s && s.ret === label);
  const out = Buffer.alloc(steps.length * 8);
  steps.forEach((step, i) => {
    const skip = (to: Label | 'next') => (to === 'next' ? 0 : at(to) - i - 1);
    const [code, jt, jf, k] = 'load' in step ? [LD_W_ABS, 0, 0, step.load]
      : 'ret' in step ? [RET_K, 0, 0, step.ret === 'allow' ? RET_ALLOW : RET_EPERM]
        : [step.jumpIf === 'eq' ? JEQ_K : JGE_K, skip(step.then), skip(step.otherwise), step.k];
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}
