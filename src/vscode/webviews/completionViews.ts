import { readCompletions, type CompletionRecord } from '../../core/workflow/completion/record';
import { shortId } from '../../core/workflow/completion/snapshot';
import type { Harness } from '../../core/harness/harness';
import { describeOperation, unknownOperations } from '../../core/workflow/operations/lifecycle';
import type { CompletionsView, CompletionView } from '../../protocol/dashboard';

/** Records the dashboard lists: enough to judge one at a glance. */
const SHOWN = 20;

export function completionView(r: CompletionRecord): CompletionView {
  const after = r.snapshot.after;
  return {
    id: r.id, ts: r.ts, accepted: r.accepted, reason: r.reason, trigger: r.trigger, role: r.role,
    snapshot: { kind: after.kind, id: after.id, short: shortId(after), stable: r.snapshot.stable, git: after.git, ...(after.changedCount !== undefined ? { changedCount: after.changedCount } : {}) },
    checks: r.checks.map((c) => ({ name: c.name, run: c.run, required: c.required, status: c.status, exitCode: c.exitCode, durationMs: c.durationMs, outputTail: c.outputTail })),
  };
}

/** The dashboard's "Completion records" and unknown operations, from the state folder. */
export function completionsView(harness: Harness | undefined): CompletionsView {
  if (!harness) return { completions: [], operations: [] };
  return {
    completions: readCompletions(harness.stateDir, SHOWN).records.map(completionView),
    operations: unknownOperations(harness.stateDir).map((o) => ({ id: o.id, tool: o.tool, summary: describeOperation(o), createdAt: o.createdAt, ...(o.note ? { note: o.note } : {}) })),
  };
}

/** Events after which the lists change. */
export const COMPLETION_EVENTS: ReadonlySet<string> = new Set(['CompletionRecorded', 'OperationUnknown', 'OperationReconciled']);
