/**
 * The hook server's loopback TCP listener for the bash launcher (protocol: nativeProtocol.ts). It
 * turns each request into the same HookRequest the Unix socket's JSON carries and hands it to the
 * server's one handler. It writes `<alfred home>/run/hook.tcp` once listening and removes it on close
 * while the file is still its own; and `hook.sandboxed.tcp`, with a token and a proof of their own,
 * which the kernel sandbox shows in place of the first (sandbox/wrap.ts): a call from inside the
 * sandbox (a nested agent's hook) is decided with the server's environment, never the one it forwards.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { atomicWrite } from '../../base/fs/atomicWrite';
import { callerEnv } from './callerProcess';
import { fallbackAnswer, hasToken, MAX_HEADER_BYTES, NATIVE_MAGIC, nativeAnswer, otherVersionToken, parseNativeHeader, PORT_FILE, SANDBOXED_PORT_FILE, type NativeHeader } from './nativeProtocol';
import { HOOK_PROTOCOL_VERSION, type HookRequest, type HookResponse } from './serverProtocol';
import { randomHex } from '../../base/crypto/random';

/** A launcher sends its whole request at once; one that stalls before the end is dropped. */
const REQUEST_TIMEOUT_MS = 10_000;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export class NativeHookListener {
  private readonly server: net.Server;
  /** The launcher's: what `hook.tcp` holds. */
  private readonly caller = { token: randomHex(32), proof: randomHex(32) };
  /** The sandbox's: what `hook.sandboxed.tcp` holds. A proof of its own, so nothing inside learns the launcher's. */
  private readonly sandboxed = { token: randomHex(32), proof: randomHex(32) };
  /** What this listener wrote in each port file. */
  private written: Array<[file: string, text: string]> = [];
  readonly portFile: string;
  readonly sandboxedPortFile: string;
  /**
   * Connections whose request is not complete yet, and when each came: one sweep drops those that
   * stalled, instead of a timer set and cleared on every call (a tenth of a millisecond of each).
   */
  private readonly incomplete = new Map<net.Socket, number>();
  private sweep: NodeJS.Timeout | undefined;

  /** `onOtherVersion`: a launcher of another protocol version asked, with this listener's token. */
  constructor(home: string, private readonly serve: (request: HookRequest) => Promise<HookResponse>, private readonly requestTimeoutMs = REQUEST_TIMEOUT_MS,
    private readonly onOtherVersion?: () => void) {
    this.portFile = path.join(home, 'run', PORT_FILE);
    this.sandboxedPortFile = path.join(home, 'run', SANDBOXED_PORT_FILE);
    // Half-open: a client that shuts down its sending side after the request still gets the answer.
    this.server = net.createServer({ allowHalfOpen: true }, (socket) => this.accept(socket));
  }

  /** Listens on an ephemeral loopback port, then publishes it (temp file + rename, mode 0600). */
  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => {
        this.server.off('error', reject);
        this.server.on('error', () => undefined);
        resolve();
      });
    });
    this.sweep = setInterval(() => {
      const stalled = Date.now() - this.requestTimeoutMs;
      for (const [socket, since] of this.incomplete) if (since <= stalled) socket.destroy();
    }, Math.min(this.requestTimeoutMs / 2, 1_000));
    this.sweep.unref();
    const { port } = this.server.address() as net.AddressInfo;
    fs.mkdirSync(path.dirname(this.portFile), { recursive: true, mode: 0o700 });
    // The sandbox's first: a sandbox that finds no file of its own shows none (wrap.ts), never the launcher's.
    for (const [file, { token, proof }] of [[this.sandboxedPortFile, this.sandboxed], [this.portFile, this.caller]] as const) {
      const text = `${port} ${token} ${proof}\n`;
      // Lost in a crash, it only costs the fast path until the next start: no need to wait for the disk.
      atomicWrite(file, text, { mode: 0o600, fsync: false });
      this.written.push([file, text]);
    }
  }

  /** Writes each port file again where it no longer holds what this listener wrote. */
  republish(): void {
    for (const [file, text] of this.written) {
      let current: string | undefined;
      try { current = fs.readFileSync(file, 'utf8'); } catch { /* gone */ }
      if (current !== text) atomicWrite(file, text, { mode: 0o600, fsync: false });
    }
  }

  get port(): number | undefined {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : undefined;
  }

  /** Stops listening; each port file goes only while it is still this listener's. */
  close(): Promise<void> {
    clearInterval(this.sweep);
    for (const [file, text] of this.written) {
      try {
        if (fs.readFileSync(file, 'utf8') === text) fs.rmSync(file, { force: true });
      } catch { /* already gone */ }
    }
    this.written = [];
    return new Promise((resolve) => (this.server.listening ? this.server.close(() => resolve()) : resolve()));
  }

  private accept(socket: net.Socket): void {
    let buffer: Buffer = Buffer.alloc(0);
    // The body in the chunks it came in (joined once: a large input is not copied again on each chunk).
    const body: Buffer[] = [];
    let bodySize = 0;
    let header: NativeHeader | undefined;
    let from: 'caller' | 'sandboxed' | undefined;
    let complete = false;
    const refuse = (reason: string) => {
      complete = true;
      this.incomplete.delete(socket);
      socket.removeAllListeners('data');
      socket.end(fallbackAnswer(reason));
    };
    this.incomplete.set(socket, Date.now());
    socket.once('close', () => this.incomplete.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.on('end', () => {
      if (!complete) socket.destroy();
    });
    socket.on('data', (chunk: Buffer) => {
      if (header) {
        body.push(chunk);
        bodySize += chunk.length;
      } else {
        buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
        const firstEnd = buffer.indexOf(10);
        // Nothing runs, and nothing more is read, before the token is right.
        if (firstEnd === -1) return buffer.length > MAX_HEADER_BYTES ? refuse('not a request from the launcher') : undefined;
        const first = buffer.subarray(0, firstEnd).toString('latin1');
        from ??= hasToken(first, this.caller.token) ? 'caller' : hasToken(first, this.sandboxed.token) ? 'sandboxed' : undefined;
        if (!from) {
          // Another build's launcher that read this server's port file: the token proves it may ask
          // (the sandbox's token does not: a nested agent runs the same launcher, and may not send the server away).
          const other = otherVersionToken(first);
          if (other !== undefined && hasToken(NATIVE_MAGIC + other, this.caller.token)) {
            this.onOtherVersion?.();
            return refuse('another version of the launcher');
          }
          return refuse('not a request from the launcher');
        }
        const end = buffer.indexOf('\n\n');
        if (end === -1) return buffer.length > MAX_HEADER_BYTES ? refuse('header too long') : undefined;
        let text: string;
        try {
          text = UTF8.decode(buffer.subarray(firstEnd + 1, end));
        } catch {
          return refuse('the header is not UTF-8');
        }
        const parsed = parseNativeHeader(text.split('\n'));
        if (typeof parsed === 'string') return refuse(parsed);
        header = parsed;
        body.push(buffer.subarray(end + 2));
        bodySize = buffer.length - end - 2;
      }
      if (bodySize < header.length) return;
      complete = true;
      this.incomplete.delete(socket);
      socket.removeAllListeners('data');
      if (bodySize > header.length) return refuse('more input than its length');
      void this.answer(header, Buffer.concat(body).toString('utf8'), from === 'sandboxed').then((text) => socket.end(text));
    });
  }

  private async answer(header: NativeHeader, stdin: string, sandboxed: boolean): Promise<string> {
    let cwd: string;
    try {
      // As process.cwd() in the launcher's place would be: the physical folder. One realpath(3) call,
      // no trip through the thread pool (a context switch or two on every hook call).
      cwd = fs.realpathSync.native(header.cwd);
    } catch {
      return fallbackAnswer('cwd is not a folder here');
    }
    // As the Node client: the folder given, resolved against the cwd, is also where relative paths start.
    const processCwd = header.workspace === undefined ? cwd : path.resolve(cwd, header.workspace);
    // From inside the sandbox the pid is of another PID namespace, and the variables are not taken anyway.
    let env = header.env;
    if (header.pid !== undefined && !sandboxed) {
      const read = callerEnv(header.pid, header.event, cwd);
      if ('refused' in read) return fallbackAnswer(read.refused);
      env = read.env;
    }
    const response = await this.serve({
      v: HOOK_PROTOCOL_VERSION, event: header.event, stdin, processCwd, env,
      ...(header.workspace !== undefined ? { workspace: processCwd } : {}), ...(sandboxed ? { sandboxed: true } : {}),
      ...(header.build ? { build: header.build } : {}),
    });
    // The launcher still holds the input: it runs the command line, as the Node client does.
    if ('error' in response) return fallbackAnswer(`the hook server could not answer (${response.error})`);
    return nativeAnswer(response, response.pid, (sandboxed ? this.sandboxed : this.caller).proof);
  }
}
