/**
 * The resident hook server: `alfred hook <Event>` answered by a process that is already running (the
 * extension host, or `alfred serve`), so an agent's tool call does not pay for a cold Node start of
 * the whole command line. Listens on `<alfred home>/run/hook.sock` (a named pipe on Windows), one
 * request per connection (src/core/integrations/hooks/serverProtocol.ts), each answered by runHook exactly as the
 * command line would. Except on Windows it also listens on a loopback TCP port for the bash launcher's
 * fast path (nativeListener.ts); both listeners hand their requests to one handler, `serve`.
 * Requests run concurrently: the ledger lock serializes charges.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { rememberReads } from '../../base/fs/keptReads';
import { holdLocksBetweenUses } from '../../base/state/lock';
import { alfredHome } from '../../base/state/paths';
import type { HookRunOptions } from './handlers/types';
import { HarnessCache, type OpenHarness } from './harnessCache';
import { NativeHookListener } from './nativeListener';
import { hookOptionsFromEnv, runHook } from './run';
import type { ServerBuild } from './serverBuild';
import { FORWARDED_ENV, HOOK_PROTOCOL_VERSION, hookSocketPath, MAX_REQUEST_BYTES, type BuildOf, type HookRequest, type HookResponse } from './serverProtocol';
import { randomHex } from '../../base/crypto/random';
import { sha256Hex } from '../../base/crypto/sha256';
import { useNodeCrypto } from '../../base/crypto/nodeCrypto';

export interface HookServerOptions {
  /**
   * Opens a folder's harness (relative to `cwd`), reading roles from `env`; kept while its role files
   * are unchanged. Its traces go through `traceLater` (HarnessOptions), written once the answer is sent.
   */
  openHarness: OpenHarness;
  /** The server's environment (default process.env); its ALFRED_HOME decides where it listens. */
  env?: NodeJS.ProcessEnv;
  /** Options of every run (the extension passes its VS Code version). */
  options?: HookRunOptions;
  /** What this server runs: a caller that names another build is not answered (serverBuild.ts). */
  build?: ServerBuild;
  /**
   * Called when a caller of another build or protocol version asks, before it is refused: a server
   * started on demand leaves the place to one of the caller's build (close() at once removes the
   * socket and port files, so the caller finds none and starts its own).
   */
  onOtherBuild?: (why: string) => void;
}

export type HookServerStart = { kind: 'listening'; server: HookServer } | { kind: 'busy'; socketPath: string };


/** Where the server of this environment's alfred home listens. */
export function defaultHookSocketPath(env: NodeJS.ProcessEnv = process.env): string {
  return hookSocketPath(alfredHome(env), process.platform, sha256Hex);
}

/**
 * Listens, taking over a stale socket file (one nobody answers on); `busy` when another live server
 * holds it, which is left alone. Other failures (a path too long for a socket, no permission) throw.
 */
export async function startHookServer(opts: HookServerOptions): Promise<HookServerStart> {
  const env = opts.env ?? process.env;
  const home = alfredHome(env);
  const socketPath = hookSocketPath(home, process.platform, sha256Hex);
  const server = new HookServer(socketPath, home, opts);
  if (process.platform === 'win32') {
    // A named pipe disappears with its process: "in use" always means alive.
    return (await server.listen(socketPath)) ? { kind: 'listening', server } : { kind: 'busy', socketPath };
  }
  const dir = path.dirname(socketPath);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  if (fs.existsSync(socketPath) && (await answers(socketPath))) return { kind: 'busy', socketPath };
  // Bound under a name of its own, then linked into place: Node removes a socket's bound path when it
  // closes, which must never be the shared name once another server may own it.
  const own = path.join(dir, `hook.${process.pid}.${randomHex(4)}.sock`);
  await server.listen(own);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        fs.linkSync(own, socketPath);
        return { kind: 'listening', server: await server.listenNative() };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
          fs.renameSync(own, socketPath); // no hard links here: replace the name instead
          return { kind: 'listening', server: await server.listenNative() };
        }
        const found = inodeOf(socketPath);
        if (attempt > 0 || (await answers(socketPath))) {
          await server.close();
          return { kind: 'busy', socketPath };
        }
        // Stale: its server is gone. Removed only while it is still the file found stale: another
        // server starting at the same time may have taken the name meanwhile.
        if (inodeOf(socketPath) === found) fs.rmSync(socketPath, { force: true });
      }
    }
  } finally {
    fs.rmSync(own, { force: true });
  }
}

function inodeOf(file: string): number | undefined {
  return fs.statSync(file, { throwIfNoEntry: false })?.ino;
}

/** Whether something accepts connections on the socket (a busy server still accepts: the kernel queues). */
function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    const done = (alive: boolean) => {
      socket.destroy();
      resolve(alive);
    };
    socket.setTimeout(1000, () => done(true));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * How long the serving process keeps a state folder's lock after a use (base/state/lock.ts): as long as the
 * lock allows, since another process that wants it asks and gets it at once. An agent's tool calls a
 * few seconds apart then take it once, not each time (a mkdir, a stat and an rmdir, each a journaled
 * metadata write: about 0.7 ms of a fast-path call in the hook benchmark).
 */
const LOCK_LEASE_MS = 5_000;

export class HookServer {
  private readonly server: net.Server;
  private inode: number | undefined;
  private closed: Promise<void> | undefined;
  private readonly harnesses: HarnessCache;
  private native: NativeHookListener | undefined;
  /**
   * The server's environment, copied once: spreading process.env asks the process for every variable
   * (a tenth of a millisecond on each call), and an extension host's environment does not change.
   */
  private readonly env: NodeJS.ProcessEnv;
  /** Requests being answered, and when the last one ended (or the server started): idleFor(). */
  private active = 0;
  private lastUse = Date.now();

  constructor(readonly socketPath: string, private readonly home: string, private readonly opts: HookServerOptions) {
    this.server = net.createServer((socket) => this.accept(socket));
    this.harnesses = new HarnessCache(opts.openHarness);
    this.env = { ...(opts.env ?? process.env) };
    // A server stays: Node's crypto is worth loading once (see base/crypto/nodeCrypto.ts).
    useNodeCrypto();
  }

  /** True when listening; false when the address is in use. */
  listen(at: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(false) : reject(err));
      this.server.once('error', onError);
      this.server.listen(at, () => {
        this.server.off('error', onError);
        // A connection's failure is that connection's; the listener itself has nothing left to report.
        this.server.on('error', () => undefined);
        if (process.platform !== 'win32') {
          fs.chmodSync(at, 0o600);
          this.inode = fs.statSync(at).ino;
        }
        resolve(true);
      });
    });
  }

  /**
   * Also answers the bash launcher over loopback TCP, once this server owns the socket (so a server
   * that finds a live one never touches its port file). Without it the Node client still works: a
   * failure here is not the server's.
   */
  async listenNative(): Promise<this> {
    // Once serving: one hook call takes the state lock two or three times (decision, trace, usage),
    // and each shell call walks the workspace for its sandbox plan.
    holdLocksBetweenUses(LOCK_LEASE_MS);
    rememberReads(true);
    const native = new NativeHookListener(this.home, (request) => this.serve(request), undefined, () => this.otherBuild('another version of the launcher'));
    try {
      await native.listen();
      this.native = native;
    } catch {
      await native.close();
    }
    return this;
  }

  /**
   * Writes the fast path's port files again where they are no longer this server's: a server that
   * started at the same time and lost the socket may have written them last, then removed them.
   */
  republish(): void {
    if (this.ownsSocket()) this.native?.republish();
  }

  /** The loopback port of the launcher's fast path, if it listens. */
  get nativePort(): number | undefined {
    return this.native?.port;
  }

  /** Still reachable: listening, and the socket file is still this server's (not removed or taken over). */
  ownsSocket(): boolean {
    if (!this.server.listening) return false;
    if (this.inode === undefined) return true;
    try {
      return fs.statSync(this.socketPath).ino === this.inode;
    } catch {
      return false;
    }
  }

  /** Milliseconds since the last request ended; 0 while one is being answered. */
  idleFor(): number {
    return this.active > 0 ? 0 : Date.now() - this.lastUse;
  }

  /** Stops listening and removes the socket file if it is still this server's; requests under way finish. */
  close(): Promise<void> {
    holdLocksBetweenUses(0);
    rememberReads(false);
    const native = this.native?.close();
    this.closed ??= new Promise<void>((resolve) => {
      if (process.platform !== 'win32' && this.ownsSocket()) fs.rmSync(this.socketPath, { force: true });
      if (!this.server.listening) return resolve();
      this.server.close(() => resolve());
    }).then(() => native);
    return this.closed;
  }

  private accept(socket: net.Socket): void {
    const chunks: Buffer[] = [];
    let size = 0;
    const reply = (response: HookResponse) => socket.end(`${JSON.stringify(response)}\n`);
    // A client that connects and never sends is dropped; once the request is in, it may take its time.
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    const onData = (chunk: Buffer) => {
      const newline = chunk.indexOf(10);
      chunks.push(newline === -1 ? chunk : chunk.subarray(0, newline));
      size += chunk.length;
      if (newline === -1 && size <= MAX_REQUEST_BYTES) return;
      socket.off('data', onData);
      socket.setTimeout(0);
      if (newline === -1) return reply({ error: `request larger than ${MAX_REQUEST_BYTES} bytes` });
      void this.answer(Buffer.concat(chunks).toString('utf8')).then(reply);
    };
    socket.on('data', onData);
  }

  private answer(line: string): Promise<HookResponse> {
    let request: HookRequest;
    try {
      const data = JSON.parse(line) as { v?: unknown } | null;
      if (typeof data?.v === 'number' && data.v !== HOOK_PROTOCOL_VERSION) this.otherBuild(`another protocol version (${data.v})`);
      request = parseRequest(data);
    } catch (err) {
      return Promise.resolve({ error: `bad request: ${(err as Error).message}` });
    }
    return this.serve(request);
  }

  private otherBuild(why: string): void {
    this.opts.onOtherBuild?.(why);
  }

  /** The one handler of both listeners: runHook, as the command line would run it for this caller. */
  private async serve(request: HookRequest): Promise<HookResponse> {
    const other = this.opts.build?.differs(request.build);
    if (other) {
      // From inside the sandbox it runs the same launcher file: a nested agent may not send the server away.
      if (!request.sandboxed) this.otherBuild(other);
      return { error: `this hook server runs ${other}` };
    }
    this.active++;
    try {
      return await this.decide(request);
    } finally {
      this.active--;
      this.lastUse = Date.now();
    }
  }

  private async decide(request: HookRequest): Promise<HookResponse> {
    // From inside the kernel sandbox, the caller's variables are not taken (HookRequest.sandboxed).
    const env = requestEnv(this.env, this.home, request.sandboxed ? undefined : request.env);
    try {
      const result = await runHook({
        event: request.event,
        stdin: request.stdin,
        ...(request.workspace !== undefined ? { workspace: request.workspace } : {}),
        processCwd: request.processCwd,
        openHarness: (folder) => this.harnesses.get(folder, env, request.processCwd),
        options: { ...this.opts.options, ...hookOptionsFromEnv(env) },
      });
      return { ...result, pid: process.pid };
    } catch (err) {
      return { error: (err as Error).message };
    }
  }
}

/**
 * The server's environment as the caller would have it: this server's alfred home (the one whose
 * socket the caller found), and the caller's FORWARDED_ENV (set or unset) in place of the server's own
 * — unless `forwarded` is undefined (a call from inside the sandbox): then the server's own.
 */
export function requestEnv(base: NodeJS.ProcessEnv, home: string, forwarded: HookRequest['env'] | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, ALFRED_HOME: home };
  if (!forwarded) return env;
  for (const key of FORWARDED_ENV) {
    delete env[key];
    if (typeof forwarded[key] === 'string') env[key] = forwarded[key];
  }
  return env;
}

function parseRequest(data: unknown): HookRequest {
  const r = data as Record<string, unknown> | null;
  if (typeof r !== 'object' || r === null) throw new Error('not an object');
  if (r.v !== HOOK_PROTOCOL_VERSION) throw new Error(`protocol version ${String(r.v)}, expected ${HOOK_PROTOCOL_VERSION}`);
  if (typeof r.event !== 'string' || typeof r.stdin !== 'string') throw new Error('event and stdin must be strings');
  if (typeof r.processCwd !== 'string' || !path.isAbsolute(r.processCwd)) throw new Error('processCwd must be an absolute path');
  if (r.workspace !== undefined && typeof r.workspace !== 'string') throw new Error('workspace must be a string');
  const env = (typeof r.env === 'object' && r.env !== null ? r.env : {}) as Record<string, unknown>;
  const forwarded: HookRequest['env'] = {};
  for (const key of FORWARDED_ENV) if (typeof env[key] === 'string') forwarded[key] = env[key];
  const b = r.build as Record<string, unknown> | undefined;
  if (b !== undefined && (typeof b !== 'object' || b === null || typeof b.runtime !== 'string' || typeof b.cli !== 'string')) throw new Error('build must name a runtime and a cli');
  const build: BuildOf | undefined = b ? { runtime: b.runtime as string, cli: b.cli as string } : undefined;
  return {
    v: HOOK_PROTOCOL_VERSION, event: r.event, stdin: r.stdin, processCwd: r.processCwd, env: forwarded,
    ...(typeof r.workspace === 'string' ? { workspace: r.workspace } : {}), ...(build ? { build } : {}),
  };
}
