/**
 * Which kernel sandbox this machine offers for shell commands (ARCHITECTURE.md, Protected paths hold against
 * any command): bubblewrap on Linux, sandbox-exec on macOS. Nothing is ever installed or downloaded;
 * bubblewrap comes from the system (Debian's `bubblewrap`). `ALFRED_SANDBOX=off` in the environment
 * forces "none", for debugging (a role with `sandbox = "required"` then refuses shell).
 */
import type * as ChildProcess from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { alfredHome } from '../base/state/paths';
import { probeKey, rememberedSuccess, rememberSuccess } from './probeCache';
import { BWRAP_FLAGS, STRICT_BWRAP_FLAGS } from './wrap';
import { SECCOMP_FD } from './seccomp';
import type { AvailableSandbox, Sandbox } from './types';

/** Bubblewrap starts in a few milliseconds; a probe that takes longer is a broken install. */
const PROBE_TIMEOUT_MS = 3000;
const SANDBOX_EXEC = '/usr/bin/sandbox-exec';
// System locations first: a `bwrap` earlier on PATH (a folder the agent can write, say) must not be
// able to stand in for the real one and run every command unconfined.
const SYSTEM_BWRAP = ['/usr/bin/bwrap', '/bin/bwrap'];

/** One probe per executable and process: the answer does not change while Alfred runs. */
const probed = new Map<string, Sandbox>();

export interface DetectOptions {
  platform?: NodeJS.Platform;
  /** Runs `file args` and says whether it worked, or why not; injected by tests. */
  probe?: (file: string, args: readonly string[]) => string | undefined;
  /**
   * Where a probe that worked is remembered for other processes (probeCache.ts). Default: the run
   * folder of ALFRED_HOME, with the real probe only; an injected probe is remembered only here.
   */
  rememberIn?: string;
}

export function detectSandbox(env: NodeJS.ProcessEnv = process.env, options: DetectOptions = {}): Sandbox {
  if (env.ALFRED_SANDBOX === 'off') return { kind: 'none', why: 'turned off by ALFRED_SANDBOX=off' };
  const platform = options.platform ?? process.platform;
  const probe = options.probe ?? runProbe;
  const rememberIn = options.rememberIn ?? (options.probe ? undefined : path.join(alfredHome(env), 'run'));
  if (platform === 'darwin') {
    if (!isExecutable(SANDBOX_EXEC)) return { kind: 'none', why: `${SANDBOX_EXEC} is missing` };
    // An empty allow-everything profile: it fails only where sandbox-exec itself cannot run.
    return cached(`sandbox-exec:${SANDBOX_EXEC}`, () => probeSandbox(probe, SANDBOX_EXEC, ['-p', '(version 1)(allow default)', '/usr/bin/true'], 'sandbox-exec', rememberIn));
  }
  if (platform !== 'linux') return { kind: 'none', why: `no kernel sandbox is supported on ${platform}` };
  const bwrap = findBwrap(env);
  if (!bwrap) return { kind: 'none', why: 'bubblewrap (bwrap) is not installed; on Debian or Ubuntu: apt install bubblewrap' };
  // Probed with the flags every command gets, so a kernel that refuses one of them (no user or PID
  // namespaces for this user) is found here once, not by every command.
  return cached(`bwrap:${bwrap}`, () => probeSandbox(probe, bwrap, [...BWRAP_FLAGS, '--', '/bin/true'], 'bwrap', rememberIn));
}

/** Forgets the probes (tests, or after the user installed bubblewrap). */
export function resetSandboxDetection(): void {
  probed.clear();
  filtersProbed.clear();
}

/** One probe of the strict sandbox per bwrap, filter and process. */
const filtersProbed = new Map<string, string | undefined>();

/** Why a probe of the strict sandbox with `bwrap` failed in this process, if one did (the dashboard and Doctor say so). */
export function strictProbeFailure(bwrap: string): string | undefined {
  for (const [key, failure] of filtersProbed) if (failure !== undefined && (JSON.parse(key) as string[])[0] === bwrap) return failure;
  return undefined;
}

/**
 * Why bwrap cannot set up the strict sandbox here (sandbox = "strict": its flags, wrap.ts, with the
 * seccomp filter `filter` saved in `file`, seccomp.ts); undefined when it can. A kernel or container
 * that refuses seccomp filters (or a /dev of the command's own) would otherwise fail every strict
 * command with bwrap's own message. Run as commands run it: a small sh opens the file on the
 * filter's descriptor, then becomes bwrap. Remembered as the sandbox's probe is.
 */
export function strictFailure(bwrap: string, file: string, filter: Buffer, env: NodeJS.ProcessEnv, options: DetectOptions = {}): string | undefined {
  const probe = options.probe ?? runProbe;
  const rememberIn = options.rememberIn ?? (options.probe ? undefined : path.join(alfredHome(env), 'run'));
  const hex = filter.toString('hex');
  const cacheKey = JSON.stringify([bwrap, file, hex]);
  if (filtersProbed.has(cacheKey)) return filtersProbed.get(cacheKey);
  const key = rememberIn === undefined ? undefined : probeKey(bwrap, ['--seccomp', hex, ...STRICT_BWRAP_FLAGS]);
  let failure: string | undefined;
  if (key === undefined || !rememberedSuccess(rememberIn!, key)) {
    failure = probe('/bin/sh', ['-c', `exec "$@" ${SECCOMP_FD}< "$0"`, file, bwrap, ...STRICT_BWRAP_FLAGS, '--seccomp', String(SECCOMP_FD), '--', '/bin/true']);
    if (failure === undefined && key !== undefined) rememberSuccess(rememberIn!, key);
  }
  filtersProbed.set(cacheKey, failure);
  return failure;
}

function cached(key: string, make: () => Sandbox): Sandbox {
  let found = probed.get(key);
  if (!found) {
    found = make();
    probed.set(key, found);
  }
  return found;
}

function probeSandbox(probe: NonNullable<DetectOptions['probe']>, file: string, args: readonly string[], kind: AvailableSandbox['kind'], rememberIn: string | undefined): Sandbox {
  const key = rememberIn === undefined ? undefined : probeKey(file, args);
  if (key !== undefined && rememberedSuccess(rememberIn!, key)) return { kind, path: file };
  const failure = probe(file, args);
  if (failure !== undefined) return { kind: 'none', why: `${file} does not work here: ${failure}` };
  if (key !== undefined) rememberSuccess(rememberIn!, key);
  return { kind, path: file };
}

function runProbe(file: string, args: readonly string[]): string | undefined {
  // Loaded only when a probe runs (rarely: it is remembered): child_process brings net and streams
  // with it, which a hook call would otherwise compile at every start.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { spawnSync } = require('node:child_process') as typeof ChildProcess;
  // stdout piped, not ignored: where /dev/null is not writable, 'ignore' fails the spawn itself.
  const r = spawnSync(file, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: PROBE_TIMEOUT_MS, encoding: 'utf8' });
  if (r.error) return (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT' ? `no answer within ${PROBE_TIMEOUT_MS} ms` : r.error.message;
  if (r.status === 0) return undefined;
  const said = (r.stderr ?? '').trim().split('\n')[0];
  return said ? said : r.signal ? `killed by ${r.signal}` : `exit code ${r.status}`;
}

function findBwrap(env: NodeJS.ProcessEnv): string | undefined {
  const onPath = (env.PATH ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d)).map((d) => path.join(d, 'bwrap'));
  // Each place once: PATH often names /usr/bin and /bin again, or a folder twice.
  return [...new Set([...SYSTEM_BWRAP, ...onPath])].find(isExecutable);
}

/**
 * A file that exists is looked at first, without an exception: where bwrap is not installed the hook
 * server asks on every shell call, and an accessSync that throws for each folder of PATH cost 0.1 ms.
 */
function isExecutable(file: string): boolean {
  try {
    if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false; // not executable, or a file where PATH names a folder
  }
}
