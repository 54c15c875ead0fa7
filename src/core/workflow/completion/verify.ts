/**
 * verifyCompletion: the harness decides "done" itself (ARCHITECTURE.md, The harness decides "done"). It
 * identifies the snapshot, runs the checks, reads their exit codes, snapshots again, and appends a
 * completion record; accepted only when every required check passed on that same snapshot.
 * Used by "Alfred: Verify Completion", `alfred check`, `@alfred /done` and the Stop hook.
 */
import type { Actor, RecordEvents } from '../../base/actor';
import type { HarnessFingerprint, SessionConfiguration } from '../../models/fingerprint/fingerprint';
import { loadChecksFile, type ChecksProblem } from '../../protect/checksFile';
import { appendCompletion, environmentVersions, type CompletionRecord } from './record';
import { runChecks, type CheckResult } from './runner';
import { sameSnapshot, shortId, takeSnapshot, type Snapshot } from './snapshot';
import { randomUuid } from '../../base/crypto/random';
import { alfredHome } from '../../base/state/paths';
import { downloadCaches } from '../../protect/downloadCaches';

/** What verifying uses of the harness: the workspace and state folders, the user's home and its environment (where Alfred's home is), Alfred's version, who acts now, the event log. */
export interface CompletionHost {
  readonly workspaceFolder: string;
  readonly stateDir: string;
  readonly homeDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly version: string;
  actor(): Actor;
  record: RecordEvents;
  /** The harness configuration now, with what the caller knows of its session's, kept in the record. */
  fingerprint(known?: SessionConfiguration): HarnessFingerprint;
}

export interface VerifyOptions {
  /** Who asks: `command`, `cli`, `chat`, `hook:Stop`, … (kept in the record). */
  trigger: string;
  /** Stops the running check (its process group) and skips the rest; the record says so. */
  signal?: AbortSignal;
  onProgress?: (progress: VerifyProgress) => void;
  /** VS Code's version, for the record's environment. */
  vscodeVersion?: string;
  /** The agent's session id, when the caller has one (hook input, chat). */
  agentSession?: string;
  /** Base environment of the checks (default process.env). */
  env?: NodeJS.ProcessEnv;
  /**
   * The configuration the session whose work is checked ran under (its model, endpoint, pack,
   * persona, handoff), as the caller knows it: what it leaves out is `n/a` in the record's fingerprint.
   * A function is called only when there are checks to run.
   */
  configuration?: SessionConfiguration | (() => SessionConfiguration);
}

export type VerifyProgress =
  | { step: 'snapshot'; when: 'before' | 'after' }
  | { step: 'check'; name: string; index: number; total: number }
  | { step: 'checked'; result: CheckResult; index: number; total: number };

export type VerifyOutcome =
  | { kind: 'no-checks'; accepted: false; reason: string; checksFile: string }
  | { kind: 'invalid'; accepted: false; reason: string; checksFile: string; problems: ChecksProblem[] }
  | { kind: 'recorded'; accepted: boolean; reason: string; record: CompletionRecord };

export async function verifyCompletion(harness: CompletionHost, opts: VerifyOptions): Promise<VerifyOutcome> {
  const config = loadChecksFile(harness.workspaceFolder);
  if (config.problems.length > 0) {
    const list = config.problems.map((p) => `${p.path}${p.key ? ` (${p.key})` : ''}: ${p.message}`).join('; ');
    return { kind: 'invalid', accepted: false, checksFile: config.path, problems: config.problems, reason: `The checks file has problems, so nothing was run: ${list}` };
  }
  if (config.checks.length === 0) {
    const reason = config.exists
      ? `${config.path} declares no [[check]]: nothing proves the work done.`
      : `No acceptance checks: create ${config.path} with [[check]] tables (name, run) to let Alfred verify completion.`;
    return { kind: 'no-checks', accepted: false, checksFile: config.path, reason };
  }

  const id = randomUuid();
  const t0 = Date.now();
  const { role, session } = harness.actor();
  // Taken before the checks run: the configuration that was asked to decide.
  const fingerprint = harness.fingerprint(typeof opts.configuration === 'function' ? opts.configuration() : opts.configuration ?? {});
  opts.onProgress?.({ step: 'snapshot', when: 'before' });
  // Not the work, where they lie in the workspace (the home opened as one): Alfred's own folders,
  // which it writes while the checks run, and the download caches the checks' tools write.
  const own = [alfredHome(harness.env), harness.stateDir, ...downloadCaches(harness.homeDir)];
  const before = await takeSnapshot(harness.workspaceFolder, own);
  const checks = await runChecks(config.checks, {
    workspaceFolder: harness.workspaceFolder,
    env: opts.env,
    signal: opts.signal,
    operationPrefix: `completion-${id}`,
    onStart: (check, index, total) => opts.onProgress?.({ step: 'check', name: check.name, index, total }),
    onResult: async (result, index, total) => {
      opts.onProgress?.({ step: 'checked', result, index, total });
      await harness.record([{
        type: 'CheckRun', completion: id, check: result.name, status: result.status, exitCode: result.exitCode,
        durationMs: result.durationMs, required: result.required, trigger: opts.trigger,
      }]);
    },
  });
  opts.onProgress?.({ step: 'snapshot', when: 'after' });
  const after = await takeSnapshot(harness.workspaceFolder, own);
  const stable = sameSnapshot(before, after);
  const { accepted, reason } = verdict(checks, stable, before, after);

  const record: CompletionRecord = {
    version: 1, id, ts: new Date().toISOString(), workspace: harness.workspaceFolder, accepted, reason,
    evaluator: 'exit-codes', role, session, ...(opts.agentSession ? { agentSession: opts.agentSession } : {}),
    trigger: opts.trigger, snapshot: { before, after, stable }, checks,
    environment: environmentVersions(harness.version, opts.vscodeVersion), durationMs: Date.now() - t0, fingerprint,
  };
  await appendCompletion(harness.stateDir, record);
  await harness.record([{
    type: 'CompletionRecorded', completion: id, accepted, reason, snapshot: after.id, snapshotKind: after.kind,
    stable, trigger: opts.trigger, checks: checks.map((c) => ({ name: c.name, status: c.status, exitCode: c.exitCode })),
  }]);
  return { kind: 'recorded', accepted, reason, record };
}

function verdict(checks: readonly CheckResult[], stable: boolean, before: Snapshot, after: Snapshot): { accepted: boolean; reason: string } {
  const required = checks.filter((c) => c.required);
  const bad = required.filter((c) => c.status !== 'passed');
  const problems: string[] = [];
  if (bad.length > 0) problems.push(`required ${bad.length === 1 ? 'check' : 'checks'} ${bad.map(describeFailure).join('; ')}`);
  if (!stable) {
    problems.push(`the workspace changed while the checks ran (snapshot ${shortId(before)} before, ${shortId(after)} after), so the results belong to no single snapshot`);
  }
  if (required.length === 0) problems.push('no check is required (required = false on every check): nothing proves the work done');
  if (problems.length > 0) return { accepted: false, reason: `Not accepted: ${problems.join('; and ')}.` };
  return { accepted: true, reason: `Accepted: every required check passed (${required.map((c) => `"${c.name}"`).join(', ')}) on snapshot ${shortId(after)}, unchanged while they ran.` };
}

export function describeFailure(c: CheckResult): string {
  switch (c.status) {
    case 'failed': return `"${c.name}" failed (exit code ${c.exitCode === null ? `none, signal ${c.signal ?? 'unknown'}` : c.exitCode})`;
    case 'timed out': return `"${c.name}" timed out after ${c.timeoutS} s (stopped; its verdict is unknown)`;
    case 'cancelled': return `"${c.name}" was cancelled`;
    case 'skipped': return `"${c.name}" did not run (cancelled before it started)`;
    case 'error': return `"${c.name}" could not run: ${c.error ?? 'unknown error'}`;
    case 'passed': return `"${c.name}" passed`;
  }
}
