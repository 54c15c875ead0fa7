/**
 * The hook server's second wire format, spoken by the bash launcher (`~/.alfred/bin/alfred`, written
 * from launcherScripts in install.ts) with shell builtins only, so a hook call costs no Node start.
 *
 * Request, over loopback TCP: header lines `key value`, then an empty line, then `length` bytes of
 * hook input:
 *   alfred-hook 5 <token>
 *   event <Event>
 *   cwd <the launcher's $PWD>
 *   workspace <ALFRED_WORKSPACE>          (only when set)
 *   runtime <the launcher's runtime>      (the build it runs: a server of another build does not answer)
 *   cli <the launcher's command line file>
 *   pid <the launcher's pid>              (where /proc is: the server reads its environment there)
 *   env ALFRED_ROLE=<value>               (elsewhere: one line per FORWARDED_ENV variable that is set)
 *   length <bytes>
 * Answer: a first line of ANSWER_HEAD_BYTES, `<exitCode> <pid> <proof> <length>\n` with the numbers
 * zero-padded, then `length` bytes: stdout as the command line prints it, an RS byte (\036), stderr
 * (RS replaced by a space) — or `fallback <reason>\n` when the hook was not run and the launcher
 * must run the command line itself. With the lengths known, the launcher reads exactly the answer
 * and is done, not waiting for the connection's end (which comes after whatever work the server
 * still had queued in that turn, the ledger's write among them). The port, the token and the proof are in
 * `<alfred home>/run/hook.tcp` (0600): only its reader can ask, and only the server can answer.
 */
import { canonicalHookEvent } from './events';
import { FORWARDED_ENV, MAX_REQUEST_BYTES, type BuildOf, type ForwardedEnv } from './serverProtocol';
import { useNodeCrypto } from '../../base/crypto/nodeCrypto';

/**
 * 7: the launcher names its build (runtime and cli lines; 6 did not); 6: the launcher's pid in place of its variables where /proc is (callerProcess.ts); 5: FORWARDED_ENV
 * names where Jupyter and VS Code's servers keep their keys (4 did not); 4 named where tmux, screen,
 * the user's runtime folder and Docker keep their sockets (3 did not; 2 forwarded the role variables alone).
 */
export const NATIVE_MAGIC = 'alfred-hook 7 ';
export { PORT_FILE, SANDBOXED_PORT_FILE } from '../../base/state/paths';
/** A header is a few paths and names; anything longer is not the launcher. */
export const MAX_HEADER_BYTES = 64 * 1024;
export const RS = '\x1e';

export interface NativeHeader {
  event: string;
  /** The launcher's $PWD, as it gave it (the server resolves symlinks). */
  cwd: string;
  workspace?: string;
  env: ForwardedEnv;
  /** The launcher's pid, sent instead of `env` lines: its environment is read from /proc. */
  pid?: number;
  /** Bytes of hook input after the header. */
  length: number;
  /** The launcher's build (runtime and cli lines). */
  build?: BuildOf;
}

const FORWARDED: ReadonlySet<string> = new Set(FORWARDED_ENV);
const KEYS = new Set(['event', 'cwd', 'workspace', 'pid', 'env', 'length', 'runtime', 'cli']);

/** Whether the first line carries exactly `token`, compared in constant time. */
export function hasToken(firstLine: string, token: string): boolean {
  if (!firstLine.startsWith(NATIVE_MAGIC)) return false;
  const given = Buffer.from(firstLine.slice(NATIVE_MAGIC.length));
  const expected = Buffer.from(token);
  return given.length === expected.length && useNodeCrypto().timingSafeEqual(given, expected);
}

/**
 * The token of a first line in another version of this protocol (`alfred-hook <n> <token>`): a
 * launcher of another build that read this server's port file. Undefined for anything else.
 */
export function otherVersionToken(firstLine: string): string | undefined {
  const m = /^alfred-hook (\d{1,6}) ([0-9a-f]{64})$/.exec(firstLine);
  return m && `alfred-hook ${m[1]} ` !== NATIVE_MAGIC ? m[2] : undefined;
}

/**
 * The header after its first line (already checked with hasToken), without the empty line that ends
 * it. A string is the reason it is refused: an unknown or repeated key (a newline smuggled in a value
 * shows up as one), a NUL, a missing field.
 */
export function parseNativeHeader(lines: readonly string[]): NativeHeader | string {
  const seen = new Set<string>();
  const env: ForwardedEnv = {};
  const fields: Record<string, string> = {};
  for (const line of lines) {
    if (line.includes('\0')) return 'a NUL in the header';
    const space = line.indexOf(' ');
    const key = space === -1 ? line : line.slice(0, space);
    const value = space === -1 ? '' : line.slice(space + 1);
    if (!KEYS.has(key)) return `unknown header line "${key.slice(0, 40)}"`;
    if (key === 'env') {
      const eq = value.indexOf('=');
      const name = value.slice(0, eq);
      if (eq === -1 || !FORWARDED.has(name)) return `env ${name.slice(0, 40)} is not forwarded`;
      if (seen.has(`env ${name}`)) return `env ${name} given twice`;
      seen.add(`env ${name}`);
      env[name as keyof ForwardedEnv] = value.slice(eq + 1);
      continue;
    }
    if (seen.has(key)) return `${key} given twice`;
    seen.add(key);
    fields[key] = value;
  }
  const { event, cwd, workspace, pid, length, runtime, cli } = fields;
  if (!event) return 'no event';
  // As the launcher: Stop's checks run in the agent's own process and environment, never here.
  if (canonicalHookEvent(event) === 'Stop') return 'Stop runs in the agent\'s process';
  if (!cwd || !cwd.startsWith('/')) return 'cwd must be an absolute path';
  if (length === undefined || !/^\d{1,10}$/.test(length) || Number(length) > MAX_REQUEST_BYTES) return 'length must be a byte count';
  if (pid !== undefined && !/^[1-9]\d{0,9}$/.test(pid)) return 'pid must be a process id';
  // One source of the caller's variables, never a mix.
  if (pid !== undefined && Object.keys(env).length > 0) return 'both pid and env lines';
  if ((runtime === undefined) !== (cli === undefined)) return 'runtime and cli go together';
  return {
    event, cwd, env, length: Number(length), ...(workspace !== undefined ? { workspace } : {}), ...(pid !== undefined ? { pid: Number(pid) } : {}),
    ...(runtime !== undefined && cli !== undefined ? { build: { runtime, cli } } : {}),
  };
}

const asLine = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);
const padded = (n: number, width: number): string => String(n).padStart(width, '0');

/** The answer's first line, `<exit code:3> <pid:10> <proof:64> <length:10>\n`, in bytes. */
export const ANSWER_HEAD_BYTES = 91;

/** The bytes the launcher prints: stdout and stderr as the command line prints them (src/cli/io.ts). */
export function nativeAnswer(result: { stdout: string; stderr: string; exitCode: number }, pid: number, proof: string): string {
  const out = result.stdout ? asLine(result.stdout) : '';
  // The launcher splits on the last RS: stdout may hold one, stderr may not.
  const err = result.stderr ? asLine(result.stderr).replaceAll(RS, ' ') : '';
  const body = `${out}${RS}${err}`;
  return `${padded(result.exitCode, 3)} ${padded(pid, 10)} ${proof} ${padded(Buffer.byteLength(body), 10)}\n${body}`;
}

export const fallbackAnswer = (reason: string): string => `fallback ${reason.replace(/[\r\n]+/g, ' ')}\n`;
