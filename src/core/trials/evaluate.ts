/**
 * The harness, never the model, decides a trial: the task's acceptance checks run through the
 * completion pipeline (snapshot, checks, snapshot again, a completion record in the trial's state);
 * after an acceptance, the hidden checks (if the task has them) tell whether a defect escaped.
 */
import { parseChecksFile } from '../protect/checksFile';
import { runChecks } from '../workflow/completion/runner';
import { describeFailure, verifyCompletion } from '../workflow/completion/verify';
import type { Harness } from '../harness/harness';

export interface TrialVerdict {
  status: 'accepted' | 'rejected' | 'evaluator-failure';
  escapedDefect: boolean | null;
  detail: string;
}

/** A check that could not give a verdict (it could not run, or timed out) makes the evaluator fail, not the agent. */
const UNDECIDED = new Set(['error', 'timed out']);

export async function evaluateTrial(harness: Harness, hidden: { text: string; path: string } | undefined, signal?: AbortSignal): Promise<TrialVerdict> {
  const outcome = await verifyCompletion(harness, { trigger: 'trial', ...(signal ? { signal } : {}) });
  if (outcome.kind !== 'recorded') return { status: 'evaluator-failure', escapedDefect: null, detail: outcome.reason };
  const undecided = outcome.record.checks.filter((c) => c.required && UNDECIDED.has(c.status));
  if (undecided.length > 0) return { status: 'evaluator-failure', escapedDefect: null, detail: `acceptance ${undecided.map(describeFailure).join('; ')}` };
  if (!outcome.accepted) return { status: 'rejected', escapedDefect: null, detail: outcome.reason };
  if (!hidden) return { status: 'accepted', escapedDefect: null, detail: outcome.reason };

  const config = parseChecksFile(hidden.text, hidden.path);
  if (config.problems.length > 0 || config.checks.length === 0) {
    const why = config.problems.map((p) => `${p.key || 'file'}: ${p.message}`).join('; ') || 'it declares no [[check]]';
    return { status: 'evaluator-failure', escapedDefect: null, detail: `accepted, but the hidden checks ${hidden.path} cannot run: ${why}` };
  }
  const results = await runChecks(config.checks, { workspaceFolder: harness.workspaceFolder, operationPrefix: `hidden-${outcome.record.id}`, ...(signal ? { signal } : {}) });
  const required = results.filter((r) => r.required);
  const stuck = required.filter((r) => UNDECIDED.has(r.status));
  if (stuck.length > 0) return { status: 'evaluator-failure', escapedDefect: null, detail: `accepted, but hidden ${stuck.map(describeFailure).join('; ')}` };
  const failed = required.filter((r) => r.status !== 'passed');
  return failed.length > 0
    ? { status: 'accepted', escapedDefect: true, detail: `${outcome.reason} Escaped defect: hidden ${failed.map(describeFailure).join('; ')}.` }
    : { status: 'accepted', escapedDefect: false, detail: outcome.reason };
}
