import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { Harness } from '../../../src/core/harness';
import type { TrialOutcome } from '../../../src/core/trials/outcome';
import { outcomesPath, recordEnded } from '../../../src/core/trials/store';
import { trialsView } from '../../../src/vscode/webviews/trialsSection';

const dirs: string[] = [];
after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function outcome(condition: string, trial: number, handoff: string): TrialOutcome {
  return {
    condition, task: 'fix', trial, instance: 'inst', suiteHash: 'h1', fingerprint: { id: handoff, components: { model: 'm', handoff } },
    status: 'accepted', escapedDefect: null, duplicatedToolActions: handoff === 'on' ? 0 : 2, tokens: 10, costUsd: 0.01, wallMs: 1000,
    budget: { tokens: 1000, seconds: 60, usd: 0.5 }, startedAt: '', endedAt: '',
  };
}

describe('the dashboard\'s Trials section', () => {
  it('shows each comparison with its component as text, and reads the outcomes again only when they change', () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-trials-view-'));
    dirs.push(ws);
    const harness = { workspaceFolder: ws } as Harness;
    assert.equal(trialsView(undefined), null);
    assert.deepEqual(trialsView(harness), { suites: [] });
    const file = outcomesPath(ws, 'trials');
    recordEnded(file, outcome('control', 1, 'off'));
    recordEnded(file, outcome('handoff', 1, 'on'));
    const first = trialsView(harness)!;
    const [cmp] = first.suites[0]!.comparisons;
    assert.deepEqual([cmp!.control, cmp!.treatment, cmp!.refused, cmp!.component], ['control', 'handoff', false, 'handoff (off → on)']);
    assert.deepEqual(cmp!.metrics.find((m) => m.metric === 'duplicatedToolActions')!.difference, { estimate: -2, low: -2, high: -2, noChange: false });
    assert.equal(trialsView(harness), first, 'unchanged files: the same view, not computed again');
    recordEnded(file, outcome('control', 2, 'off'));
    const second = trialsView(harness)!;
    assert.notEqual(second, first);
    assert.deepEqual(second.suites[0]!.comparisons[0]!.reasons, ['task "fix" has 2 trials under "control" and 1 under "handoff"']);
  });
});
