/**
 * ctx_shell: a command run by the platform shell in the workspace, stdin closed, stdout and stderr
 * interleaved as they arrive and bounded (head and tail kept). A timeout or a cancel stops the
 * whole process tree and is reported as such, not as a failure of the command. Given a sandbox
 * plan, the command runs in the kernel sandbox, or not at all when the role requires one and there
 * is none.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { SandboxPlan } from '../../sandbox/index';
import { type OpResult, ToolError } from './errors';
import { invalidateIgnoreRules } from './ignoreRules';
import { statForRead } from './read';
import { displayPath, resolveWorkspacePath } from './workspacePath';

export interface ShellInput {
  command: string;
  cwd?: string;
  timeoutSeconds?: number;
}

export interface ShellOptions {
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  defaultTimeoutSeconds?: number;
  maxOutputBytes?: number;
  /** planSandbox's answer: `sandboxed` runs the command inside, `refused` runs nothing. Absent: no sandbox, as before. */
  sandbox?: SandboxPlan;
  /** A line closing the result (why the command ran without a sandbox); the caller decides how often. */
  note?: string;
}

const IS_WINDOWS = process.platform === 'win32';
const KILL_GRACE_MS = 2000;
/** How long pipes may stay open after the shell exited (a background child holding them). */
const CLOSE_GRACE_MS = 1000;
// CSI (colours, cursor moves), OSC (titles, links) and two-character escapes: noise to a model.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** Keeps the first and last halves of `max` bytes of a stream, counting what falls between. */
export class BoundedOutput {
  private readonly head: Buffer[] = [];
  private readonly tail: Buffer[] = [];
  private headBytes = 0;
  private tailBytes = 0;
  total = 0;

  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const headRoom = Math.ceil(this.max / 2) - this.headBytes;
    if (headRoom > 0) {
      const part = chunk.subarray(0, headRoom);
      this.head.push(part);
      this.headBytes += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    const tailMax = Math.floor(this.max / 2);
    while (this.tailBytes > tailMax) {
      const first = this.tail[0] as Buffer;
      const excess = this.tailBytes - tailMax;
      if (first.length <= excess) this.tail.shift();
      else this.tail[0] = first.subarray(excess);
      this.tailBytes -= Math.min(first.length, excess);
    }
  }

  get dropped(): number {
    return this.total - this.headBytes - this.tailBytes;
  }

  text(): string {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    if (this.dropped === 0) return Buffer.concat([head, tail]).toString('utf8');
    return `${head.toString('utf8')}\n… [${this.dropped} bytes of output dropped] …\n${tail.toString('utf8')}`;
  }
}

/** Stops the command and everything it started: its process group on POSIX, its tree on Windows. */
function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (IS_WINDOWS) {
    spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => child.kill());
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

interface Outcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}

export async function shellOp(workspaceFolder: string, input: ShellInput, options: ShellOptions = {}): Promise<OpResult> {
  // Before anything else, so nothing at all runs where the role requires a sandbox there is not.
  if (options.sandbox?.kind === 'refused') throw new ToolError(options.sandbox.reason, 'spawn-failed');
  const sandboxed = options.sandbox?.kind === 'sandboxed' ? options.sandbox : undefined;
  const cwd = resolveWorkspacePath(workspaceFolder, input.cwd ?? '');
  const shownCwd = displayPath(cwd.rel);
  if (!(await statForRead(cwd.abs, shownCwd)).isDirectory()) {
    throw new ToolError(`cwd ${shownCwd} is not a folder.`, 'not-directory');
  }
  const argv = sandboxed ? sandboxed.argv(input.command, cwd.abs) : ['/bin/sh', '-c', input.command];
  const timeoutSeconds = input.timeoutSeconds ?? options.defaultTimeoutSeconds ?? 120;
  const output = new BoundedOutput(options.maxOutputBytes ?? 1024 * 1024);
  const env = options.env ?? process.env;
  const started = Date.now();
  let timedOut = false;
  const cancelledBeforeStart = options.signal?.aborted ?? false;
  let cancelled = cancelledBeforeStart;

  const outcome: Outcome = cancelledBeforeStart ? { exitCode: null, signal: null } : await new Promise<Outcome>((resolve, reject) => {
    const child = IS_WINDOWS
      ? spawn(env.ComSpec ?? 'cmd.exe', ['/d', '/s', '/c', `"${input.command}"`], {
          cwd: cwd.abs, env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true, windowsVerbatimArguments: true,
        })
      : spawn(argv[0], argv.slice(1), { cwd: cwd.abs, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const timers: NodeJS.Timeout[] = [];
    let exited: Outcome | undefined;
    let done = false;

    const finish = (result: Outcome) => {
      if (done) return;
      done = true;
      timers.forEach(clearTimeout);
      options.signal?.removeEventListener('abort', onAbort);
      // Whatever of the group outlived a stop (a child ignoring SIGTERM) goes now.
      if (timedOut || cancelled) killTree(child, 'SIGKILL');
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(result);
    };
    const stop = () => {
      killTree(child, 'SIGTERM');
      timers.push(setTimeout(() => killTree(child, 'SIGKILL'), KILL_GRACE_MS));
      // A process that cannot be stopped must not hang the tool call.
      timers.push(setTimeout(() => finish(exited ?? { exitCode: null, signal: null }), KILL_GRACE_MS + 3000));
    };
    const onAbort = () => {
      if (done || timedOut) return;
      cancelled = true;
      stop();
    };

    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (e) => {
      if (done) return;
      done = true;
      timers.forEach(clearTimeout);
      options.signal?.removeEventListener('abort', onAbort);
      reject(new ToolError(`The command could not be started: ${e.message}`, 'spawn-failed'));
    });
    child.on('exit', (exitCode, signal) => {
      if (done) return;
      exited = { exitCode, signal };
      timers.push(setTimeout(() => finish(exited as Outcome), CLOSE_GRACE_MS));
    });
    child.on('close', (exitCode, signal) => finish({ exitCode, signal }));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    timers.push(setTimeout(() => {
      if (done || cancelled) return;
      timedOut = true;
      stop();
    }, timeoutSeconds * 1000));
  });
  invalidateIgnoreRules(workspaceFolder); // the command may have changed any .gitignore

  const durationMs = Date.now() - started;
  const text = output.text().replace(ANSI, '').replace(/\n+$/, '');
  let status: string;
  if (timedOut) status = `timed out after ${timeoutSeconds} s (the command was stopped; its exit code is unknown)`;
  else if (cancelled) status = cancelledBeforeStart ? 'cancelled before it started' : 'cancelled (the command was stopped)';
  else if (outcome.exitCode === null) status = `killed by signal ${outcome.signal ?? 'unknown'}`;
  else status = `exit code: ${outcome.exitCode}`;
  return {
    text: `$ ${input.command}\n${text === '' ? '(no output)' : text}\n${status}${options.note ? `\n(${options.note})` : ''}`,
    data: {
      sandboxed: sandboxed !== undefined,
      exitCode: timedOut || cancelled ? null : outcome.exitCode,
      signal: outcome.signal,
      timedOut,
      cancelled,
      durationMs,
      outputBytes: output.total,
      droppedBytes: output.dropped,
      cwd: cwd.rel,
    },
  };
}
