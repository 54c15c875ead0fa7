/**
 * What one trial ended with, and the lines of a suite's outcomes file (issue 15's shared contract):
 * `started` before a trial runs, `ended` after it, `suite-changed` when the plan changed between runs.
 */
import type { HarnessFingerprint } from '../models/fingerprint/fingerprint';
import type { TrialBudget } from './suite';
import { isObject } from '../base/isObject';

export const TRIAL_STATUSES = [
  'accepted', 'rejected', 'timeout', 'policy-stop', 'budget-exhausted', 'harness-crash', 'evaluator-failure', 'interrupted',
] as const;
/** Only `accepted` is a success: acceptance counts it over every started trial. */
export type TrialStatus = (typeof TRIAL_STATUSES)[number];

export interface TrialOutcome {
  condition: string;
  task: string;
  /** 1-based number of the trial within its task and condition. */
  trial: number;
  /** The task instance id (suite.ts `taskInstanceId`). */
  instance: string;
  suiteHash: string;
  fingerprint: HarnessFingerprint;
  status: TrialStatus;
  /** Accepted but a hidden check failed; null when the task has no hidden checks or was not accepted. */
  escapedDefect: boolean | null;
  /** Tool calls whose tool name and canonical input equal an earlier call's in the same trial. */
  duplicatedToolActions: number;
  tokens: number;
  costUsd: number;
  wallMs: number;
  budget: TrialBudget;
  startedAt: string;
  endedAt: string;
  detail?: string;
}

export interface StartedLine {
  kind: 'started';
  key: string;
  condition: string;
  task: string;
  trial: number;
  instance: string;
  at: string;
}

export type EndedLine = { kind: 'ended'; key: string } & TrialOutcome;

export interface SuiteChangedLine {
  kind: 'suite-changed';
  from: string;
  to: string;
  at: string;
}

export type OutcomeLine = StartedLine | EndedLine | SuiteChangedLine;

/** `${condition}/${task}/${trial}`: one trial of the plan, run at most once. */
export function trialKey(condition: string, task: string, trial: number): string {
  return `${condition}/${task}/${trial}`;
}

/** The line as a record, or why it is not one (for `readJsonLines`). */
export function checkOutcomeLine(v: unknown): OutcomeLine | string {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'not a JSON object';
  const o = v as Record<string, unknown>;
  const str = (k: string): boolean => typeof o[k] === 'string';
  const num = (k: string): boolean => typeof o[k] === 'number' && Number.isFinite(o[k]);
  switch (o.kind) {
    case 'suite-changed':
      return str('from') && str('to') && str('at') ? (o as unknown as SuiteChangedLine) : 'a suite-changed line needs from, to and at';
    case 'started': {
      const ok = str('key') && str('condition') && str('task') && num('trial') && str('instance') && str('at');
      if (!ok) return 'a started line needs key, condition, task, trial, instance and at';
      return o.key === trialKey(o.condition as string, o.task as string, o.trial as number) ? (o as unknown as StartedLine) : `key "${String(o.key)}" does not match its condition, task and trial`;
    }
    case 'ended': {
      const missing = ['key', 'condition', 'task', 'instance', 'suiteHash', 'startedAt', 'endedAt'].filter((k) => !str(k))
        .concat(['trial', 'duplicatedToolActions', 'tokens', 'costUsd', 'wallMs'].filter((k) => !num(k)));
      if (missing.length > 0) return `an ended line needs ${missing.join(', ')}`;
      if (!TRIAL_STATUSES.includes(o.status as TrialStatus)) return `unknown status ${JSON.stringify(o.status)}`;
      if (o.escapedDefect !== null && typeof o.escapedDefect !== 'boolean') return 'escapedDefect must be true, false or null';
      if (!isFingerprint(o.fingerprint)) return 'fingerprint must be {id, components}';
      if (!isBudget(o.budget)) return 'budget must be {tokens, seconds, usd}';
      if (o.key !== trialKey(o.condition as string, o.task as string, o.trial as number)) return `key "${String(o.key)}" does not match its condition, task and trial`;
      return o as unknown as EndedLine;
    }
    default:
      return `unknown kind ${JSON.stringify(o.kind)}`;
  }
}

function isFingerprint(v: unknown): v is HarnessFingerprint {
  if (v === null || typeof v !== 'object') return false;
  const f = v as Record<string, unknown>;
  return typeof f.id === 'string' && isObject(f.components)
    && Object.values(f.components).every((c) => typeof c === 'string');
}

function isBudget(v: unknown): v is TrialBudget {
  if (v === null || typeof v !== 'object') return false;
  const b = v as Record<string, unknown>;
  return typeof b.tokens === 'number' && typeof b.seconds === 'number' && typeof b.usd === 'number';
}
