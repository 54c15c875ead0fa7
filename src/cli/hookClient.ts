/**
 * The hook path's client: `alfred hook <Event>` asks the resident hook server (the extension host, or
 * `alfred serve`; src/core/integrations/hooks/server.ts) and prints its answer, so a tool call costs a bare Node
 * start plus a round trip. Any failure (no server, refused, slow, a bad answer) hands the input back
 * for the in-process command line, exactly as without a server, saying whether none serves there
 * (the launcher then starts one for the calls to come: serverStart.ts). Each request names the build
 * this process runs, so that a server of another build does not answer it (core/integrations/hooks/serverBuild.ts).
 *
 * Every hook call loads this, bundled as CommonJS (named imports become plain requires): only fs
 * and path, net once a socket is there (os when HOME is unset, crypto for Windows' pipe name).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { readStdin, writeLine as print } from './fdIo';
import { canonicalHookEvent } from '../core/integrations/hooks/events';
import { forwardedEnv, HOOK_PROTOCOL_VERSION, hookSocketPath, isHookAnswer, type HookRequest } from '../core/integrations/hooks/serverProtocol';

/** A server on this machine accepts at once; past this there is none worth waiting for (Windows pipes). */
const CONNECT_TIMEOUT_MS = 200;
/**
 * Longer than the ledger lock's longest wait (~12 s), shorter than an agent's 30 s hook timeout. Only
 * a server hung after it charged a call would see that call charged again by the fallback.
 */
const ANSWER_TIMEOUT_MS = 15_000;
/**
 * Stop, by each agent's name for it (Claude Code's Stop, the Copilot CLI's agentStop, Gemini CLI's
 * AfterAgent), runs the workspace's acceptance checks, which must see the agent's environment: never served.
 */
const runsInProcess = (event: string): boolean => canonicalHookEvent(event) === 'Stop';

export type ClientOutcome =
  | { served: true }
  /**
   * `stdin` is what was read already, for the command line to use instead of reading again; `home`,
   * the alfred home whose server was asked, when none serves there (serverStart.ts may start one).
   */
  | { served: false; stdin?: string; home?: string };

const debug = (message: string): void => {
  if (process.env.ALFRED_HOOK_DEBUG) print(2, `alfred hook: ${message}`);
};

/** The request, or undefined for a command line the server does not take (help, unknown flags, Stop). */
function requestFor(argv: readonly string[]): Omit<HookRequest, 'stdin'> | undefined {
  const [command, event, ...rest] = argv;
  if (command !== 'hook' || !event || event.startsWith('-') || runsInProcess(event) || process.env.ALFRED_HOOK_SERVER === 'off') return undefined;
  let workspace = process.env.ALFRED_WORKSPACE;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--workspace' && rest[i + 1] !== undefined && !rest[i + 1]!.startsWith('-')) workspace = rest[++i];
    else if (arg.startsWith('--workspace=')) workspace = arg.slice('--workspace='.length);
    else return undefined;
  }
  const env = forwardedEnv(process.env);
  const cwd = process.cwd();
  // As the command line: the folder given, else this process's folder (where a relative input cwd starts).
  const processCwd = workspace === undefined ? cwd : resolve(cwd, workspace);
  // The build this process runs, as the launcher started it: only a server of the same build answers.
  const build = { runtime: process.argv0, cli: process.argv[1] ?? '' };
  return { v: HOOK_PROTOCOL_VERSION, event, processCwd, env, build, ...(workspace !== undefined ? { workspace: processCwd } : {}) };
}

const load = createRequire(__filename);

/** os.homedir() without loading `os`: it answers HOME (USERPROFILE on Windows) when set. */
function homedir(): string {
  return process.env[process.platform === 'win32' ? 'USERPROFILE' : 'HOME'] || (load('node:os') as typeof import('node:os')).homedir();
}

/** As src/core/base/state/paths.ts `alfredHome`, which this file cannot load (it loads crypto). */
const alfredHome = (): string => (process.env.ALFRED_HOME ? resolve(process.env.ALFRED_HOME) : join(homedir(), '.alfred'));

function socketPath(home: string): string {
  const sha256Hex = (text: string) => (load('node:crypto') as typeof import('node:crypto')).createHash('sha256').update(text).digest('hex');
  return hookSocketPath(home, process.platform, sha256Hex);
}

/** What asking gave: the answer line, or undefined on any failure; `none` when no server listens there. */
interface Asked {
  answer: unknown;
  none?: true;
}

/**
 * The server's answer line, or undefined on any failure. A Unix socket connects or fails at once; a
 * Windows pipe whose instances are all busy waits, hence a connect timeout there.
 */
function ask(request: HookRequest, path: string): Promise<Asked> {
  const windows = process.platform === 'win32';
  // No server: answered without loading net (about a tenth of a Node start) or a turn of the loop.
  if (!windows && !existsSync(path)) {
    debug('no answer from the hook server (ENOENT); running in this process');
    return Promise.resolve({ answer: undefined, none: true });
  }
  const { connect } = load('node:net') as typeof import('node:net');
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (value: unknown, why?: string, none?: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (why) {
        socket.destroy();
        debug(`no answer from the hook server (${why}); running in this process`);
      }
      // Answered: the server ends the connection, and the process exits as soon as it has printed.
      done(none ? { answer: value, none: true } : { answer: value });
    };
    const answerTimeout = () => setTimeout(() => finish(undefined, 'answer timeout'), ANSWER_TIMEOUT_MS);
    let timer = windows ? setTimeout(() => finish(undefined, 'connect timeout'), CONNECT_TIMEOUT_MS) : answerTimeout();
    const socket = connect(path);
    if (windows) {
      socket.once('connect', () => {
        clearTimeout(timer);
        timer = answerTimeout();
      });
    }
    socket.write(`${JSON.stringify(request)}\n`);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (chunk.indexOf(10) === -1) return;
      try {
        finish(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        finish(undefined, 'unreadable answer');
      }
    });
    // Nothing listens there: a stale socket file, or no pipe.
    socket.once('error', (err: NodeJS.ErrnoException) => finish(undefined, err.code ?? err.message, err.code === 'ECONNREFUSED' || err.code === 'ENOENT'));
    socket.once('close', () => finish(undefined, 'closed before answering'));
  });
}

/** Answers the hook through the server when one answers; otherwise says so, with the input read. */
export async function hookViaServer(argv: readonly string[]): Promise<ClientOutcome> {
  const request = requestFor(argv);
  if (!request) return { served: false };
  const stdin = await readStdin();
  const home = alfredHome();
  const path = socketPath(home);
  const { answer, none } = await ask({ ...request, stdin }, path);
  if (!isHookAnswer(answer)) {
    if (answer !== undefined) debug(`the hook server could not answer (${String((answer as { error?: unknown })?.error)}); running in this process`);
    // A server of another build that refused removed its socket as it left (server.ts, onOtherBuild).
    const gone = none || (answer !== undefined && process.platform !== 'win32' && !existsSync(path));
    return { served: false, stdin, ...(gone ? { home } : {}) };
  }
  debug(`answered by the hook server (pid ${answer.pid})`);
  const flushed = (!answer.stdout || print(1, answer.stdout)) && (!answer.stderr || print(2, answer.stderr));
  // Everything is written: exit now rather than tear the socket and the loop down (a millisecond or two).
  if (flushed) process.exit(answer.exitCode);
  process.exitCode = answer.exitCode;
  return { served: true };
}
