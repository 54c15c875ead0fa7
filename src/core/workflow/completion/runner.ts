/**
 * Runs acceptance checks one after the other, each in its folder with its timeout, output captured
 * and bounded, the whole process group stopped at the timeout (tools/ops/shell.ts does the process
 * work). A timeout is "timed out", never "failed": the command's verdict is unknown.
 */
import { isToolError } from '../../tools/ops/errors';
import { shellOp } from '../../tools/ops/shell';
import type { CheckSpec } from '../../protect/checksFile';

export type CheckStatus = 'passed' | 'failed' | 'timed out' | 'cancelled' | 'error' | 'skipped';

export interface CheckResult {
  name: string;
  run: string;
  cwd: string;
  required: boolean;
  timeoutS: number;
  status: CheckStatus;
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  /** The end of the output (stdout and stderr interleaved), at most OUTPUT_TAIL_CHARS. */
  outputTail: string;
  outputBytes: number;
  /** The ALFRED_OPERATION_ID the command saw. */
  operationId: string;
  /** Why it could not run (status `error`). */
  error?: string;
}

/** Kept in memory while a check runs (head and tail halves). */
export const MAX_OUTPUT_BYTES = 1024 * 1024;
/** Kept in the completion record. */
export const OUTPUT_TAIL_CHARS = 8000;

export interface RunChecksOptions {
  workspaceFolder: string;
  /** Base environment (default process.env); each check's `env` and ALFRED_OPERATION_ID go on top. */
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Prefix of each check's operation id: `<prefix>.<index>`. */
  operationPrefix: string;
  onStart?: (check: CheckSpec, index: number, total: number) => void;
  onResult?: (result: CheckResult, index: number, total: number) => void | Promise<void>;
}

export async function runChecks(checks: readonly CheckSpec[], opts: RunChecksOptions): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const [i, check] of checks.entries()) {
    const operationId = `${opts.operationPrefix}.${i + 1}`;
    const result = opts.signal?.aborted
      ? skipped(check, operationId)
      : await runOne(check, operationId, opts, () => opts.onStart?.(check, i, checks.length));
    results.push(result);
    await opts.onResult?.(result, i, checks.length);
  }
  return results;
}

function base(check: CheckSpec, operationId: string): Omit<CheckResult, 'status' | 'exitCode' | 'signal' | 'durationMs' | 'outputTail' | 'outputBytes'> {
  return { name: check.name, run: check.run, cwd: check.cwd, required: check.required, timeoutS: check.timeoutS, operationId };
}

function skipped(check: CheckSpec, operationId: string): CheckResult {
  return { ...base(check, operationId), status: 'skipped', exitCode: null, signal: null, durationMs: 0, outputTail: '', outputBytes: 0 };
}

async function runOne(check: CheckSpec, operationId: string, opts: RunChecksOptions, started: () => void): Promise<CheckResult> {
  started();
  // A check is a top-level run, as from a terminal: a parent's `node --test` marker would make a
  // `node --test` check skip its files and pass without running them.
  const { NODE_TEST_CONTEXT: _nested, ...inherited } = opts.env ?? process.env;
  const env = { ...inherited, ...check.env, ALFRED_OPERATION_ID: operationId };
  const t0 = Date.now();
  try {
    // shellOp takes whole seconds for its own callers; a check may ask for a fraction.
    const r = await shellOp(opts.workspaceFolder, { command: check.run, cwd: check.cwd, timeoutSeconds: check.timeoutS }, {
      env, signal: opts.signal, maxOutputBytes: MAX_OUTPUT_BYTES,
    });
    const d = r.data as { exitCode: number | null; signal: string | null; timedOut: boolean; cancelled: boolean; durationMs: number; outputBytes: number };
    const status: CheckStatus = d.timedOut ? 'timed out' : d.cancelled ? 'cancelled' : d.exitCode === 0 ? 'passed' : 'failed';
    return {
      ...base(check, operationId), status, exitCode: d.exitCode, signal: d.signal, durationMs: d.durationMs,
      outputTail: tail(outputOf(r.text, check.run)), outputBytes: d.outputBytes,
    };
  } catch (err) {
    const message = isToolError(err) ? err.message : `could not run: ${(err as Error).message}`;
    return { ...base(check, operationId), status: 'error', exitCode: null, signal: null, durationMs: Date.now() - t0, outputTail: '', outputBytes: 0, error: message };
  }
}

/** shellOp's text is `$ command`, the output, then one status line; the record keeps the output. */
function outputOf(text: string, command: string): string {
  const head = `$ ${command}\n`;
  const body = text.startsWith(head) ? text.slice(head.length) : text;
  const cut = body.lastIndexOf('\n');
  const output = cut === -1 ? '' : body.slice(0, cut);
  return output === '(no output)' ? '' : output;
}

/** The last `max` characters, starting at a line when one starts near the cut. */
export function tail(text: string, max = OUTPUT_TAIL_CHARS): string {
  if (text.length <= max) return text;
  let kept = text.slice(text.length - max);
  const nl = kept.indexOf('\n');
  if (nl !== -1 && nl < 200) kept = kept.slice(nl + 1);
  return `[… ${text.length - kept.length} characters cut …]\n${kept}`;
}
