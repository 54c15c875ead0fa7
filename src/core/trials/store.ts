/**
 * A suite's outcomes file, `.alfred/trials/<suite>/outcomes.jsonl`: append-only, `started` written
 * before a trial runs and `ended` after it, so a resumed run knows exactly which trials ran, which
 * were cut off (recorded `interrupted`, counted, never rerun) and which never started.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HarnessFingerprint } from '../models/fingerprint/fingerprint';
import { appendJsonLines, readJsonLines, type CorruptLine } from '../base/fs/jsonLines';
import { withLock } from '../base/state/lock';
import { checkOutcomeLine, trialKey, type OutcomeLine, type StartedLine, type SuiteChangedLine, type TrialOutcome } from './outcome';
import type { TrialBudget } from './suite';

export const TRIALS_DIR = '.alfred/trials';
export const OUTCOMES_FILE = 'outcomes.jsonl';

export function outcomesPath(workspaceFolder: string, suiteName: string): string {
  return path.join(workspaceFolder, ...TRIALS_DIR.split('/'), suiteName, OUTCOMES_FILE);
}

export interface OutcomesRead {
  /** By key, the first `started` line of each trial. */
  started: Map<string, StartedLine>;
  /** Every trial's outcome, in file order, one per key (a second `ended` of a key is reported, not counted). */
  outcomes: TrialOutcome[];
  /** Keys that have an `ended` line. */
  ended: Set<string>;
  suiteChanges: SuiteChangedLine[];
  corrupt: CorruptLine[];
}

/** Reads the file; a missing one reads as empty, corrupt lines are skipped and reported. */
export function readOutcomes(file: string): OutcomesRead {
  const lineOf = new Map<OutcomeLine, number>();
  const { records, corrupt } = readJsonLines<OutcomeLine>(file, (v, line) => {
    const checked = checkOutcomeLine(v);
    if (typeof checked !== 'string') lineOf.set(checked, line);
    return checked;
  });
  const read: OutcomesRead = { started: new Map(), outcomes: [], ended: new Set(), suiteChanges: [], corrupt };
  for (const line of records) {
    if (line.kind === 'suite-changed') read.suiteChanges.push(line);
    else if (line.kind === 'started') {
      if (!read.started.has(line.key)) read.started.set(line.key, line);
    } else if (read.ended.has(line.key)) {
      corrupt.push({ file, line: lineOf.get(line) ?? 0, message: `trial ${line.key} ended more than once; only its first outcome counts` });
    } else {
      read.ended.add(line.key);
      const { kind: _kind, key: _key, ...outcome } = line;
      read.outcomes.push(outcome);
    }
  }
  return read;
}

export interface ResumePlan {
  /** Planned keys never started: the only ones a run may start. */
  toRun: string[];
  /** Started and never ended: to be recorded `interrupted` before anything runs. */
  interrupted: StartedLine[];
}

/** What a resumed run does with `planned` keys (in plan order) given what the file holds. */
export function planResume(read: OutcomesRead, planned: readonly string[]): ResumePlan {
  const interrupted = [...read.started.values()].filter((s) => !read.ended.has(s.key));
  return { toRun: planned.filter((k) => !read.started.has(k)), interrupted };
}

/** What the recorder knows of an interrupted trial that its `started` line does not hold. */
export interface InterruptedFill {
  suiteHash: string;
  fingerprint: HarnessFingerprint;
  budget: TrialBudget;
}

/** The outcome recorded for a trial cut off before its end: a failure, nothing measured. */
export function interruptedOutcome(started: StartedLine, fill: InterruptedFill, at: string, detail = 'the run stopped before this trial ended'): TrialOutcome {
  return {
    condition: started.condition, task: started.task, trial: started.trial, instance: started.instance,
    suiteHash: fill.suiteHash, fingerprint: fill.fingerprint, status: 'interrupted', escapedDefect: null,
    duplicatedToolActions: 0, tokens: 0, costUsd: 0, wallMs: Math.max(0, Date.parse(at) - Date.parse(started.at)) || 0,
    budget: fill.budget, startedAt: started.at, endedAt: at, detail,
  };
}

function append(file: string, lines: readonly OutcomeLine[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  appendJsonLines(file, lines);
}

/**
 * Writes `started` for a trial unless some run already started it, under the suite folder's lock so
 * two runs at once cannot both take one trial. True when this caller may run it.
 */
export function claimTrial(file: string, trial: Omit<StartedLine, 'kind' | 'key'>): Promise<boolean> {
  const dir = path.dirname(file);
  return withLock(dir, () => {
    const key = trialKey(trial.condition, trial.task, trial.trial);
    if (readOutcomes(file).started.has(key)) return false;
    append(file, [{ kind: 'started', key, ...trial }]);
    return true;
  });
}

/** Records every trial of `plan.interrupted` as ended `interrupted`; `fill` gives what its condition and task know. */
export function recordInterrupted(file: string, interrupted: readonly StartedLine[], fill: (s: StartedLine) => InterruptedFill, at: string): TrialOutcome[] {
  const outcomes = interrupted.map((s) => interruptedOutcome(s, fill(s), at));
  append(file, outcomes.map((o) => ({ kind: 'ended' as const, key: trialKey(o.condition, o.task, o.trial), ...o })));
  return outcomes;
}

/** Writes a trial's outcome (after its `started`). */
export function recordEnded(file: string, outcome: TrialOutcome): void {
  append(file, [{ kind: 'ended', key: trialKey(outcome.condition, outcome.task, outcome.trial), ...outcome }]);
}

/**
 * Records when the plan's hash differs from the last one the file knows (the latest change's `to`,
 * else the first outcome's). Returns the line written, or null when nothing changed.
 */
export function noteSuiteHash(file: string, read: OutcomesRead, hash: string, at: string): SuiteChangedLine | null {
  const known = read.suiteChanges.at(-1)?.to ?? read.outcomes[0]?.suiteHash;
  if (known === undefined || known === hash) return null;
  const line: SuiteChangedLine = { kind: 'suite-changed', from: known, to: hash, at };
  append(file, [line]);
  read.suiteChanges.push(line);
  return line;
}
