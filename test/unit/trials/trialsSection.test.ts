import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { Harness } from '../../../src/core/harness/harness';
import { compareTrials, renderComparison } from '../../../src/core/trials/compare';
import type { TrialOutcome } from '../../../src/core/trials/outcome';
import { noteSuiteHash, outcomesPath, readOutcomes, recordEnded } from '../../../src/core/trials/store';
import { trialsView } from '../../../src/vscode/webviews/trialsSection';

const dirs: string[] = [];
after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function outcome(condition: string, trial: number, handoff: string, costUsd = 0.01): TrialOutcome {
  return {
    condition, task: 'fix', trial, instance: 'inst', suiteHash: 'h1', fingerprint: { id: handoff, components: { model: 'm', handoff } },
    status: 'accepted', escapedDefect: null, duplicatedToolActions: handoff === 'on' ? 0 : 2, tokens: 10, costUsd, wallMs: 1000,
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

  it('shows the written conclusions and notes alfred compare prints, from the same report', () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-trials-view-'));
    dirs.push(ws);
    const file = outcomesPath(ws, 'trials');
    // Handoff on: as often accepted, two cents more per trial, three trials a side.
    for (const trial of [1, 2, 3]) {
      recordEnded(file, outcome('control', trial, 'off', 0.01));
      recordEnded(file, outcome('handoff', trial, 'on', 0.03));
    }
    const cmp = trialsView({ workspaceFolder: ws } as Harness)!.suites[0]!.comparisons[0]!;
    assert.deepEqual(cmp.conclusions, [
      'Acceptance rate: the interval includes no change (+0.0 points, 95% interval -56.1 to +56.1); these trials cannot tell whether it helps.',
      'Duplicated tool actions per trial: the treatment is lower by 2.00 (better), 95% interval -2.00 to -2.00.',
      'Cost per trial: the treatment is higher by $0.0200 (worse), 95% interval +$0.0200 to +$0.0200.',
      'Changing handoff (off → on) costs more than it saves: $0.0200 more per trial with no gain in acceptance.',
    ]);
    assert.deepEqual(cmp.notes, [
      'Escaped defects are not measured: no accepted trial ran hidden checks.',
      'With 3 measured trials on the smaller side, the bootstrap intervals are too narrow (a percentile bootstrap needs about 10 or more): read them as rough.',
    ]);
    // The command line's report holds the very same sentences.
    const { outcomes } = readOutcomes(file);
    const side = (name: string) => ({ name, outcomes: outcomes.filter((o) => o.condition === name) });
    const printed = renderComparison(compareTrials(side('control'), side('handoff'), { suite: 'trials' })).split('\n');
    for (const line of [...cmp.conclusions, ...cmp.notes.map((n) => `Note: ${n}`)]) assert.ok(printed.includes(line), line);
  });

  it('a refused comparison keeps its notes and has no conclusions', () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-trials-view-'));
    dirs.push(ws);
    const file = outcomesPath(ws, 'trials');
    recordEnded(file, outcome('control', 1, 'off'));
    recordEnded(file, { ...outcome('other', 1, 'on'), fingerprint: { id: 'x', components: { model: 'n', handoff: 'on' } } });
    noteSuiteHash(file, readOutcomes(file), 'h2', '2025-06-01T10:00:00.000Z');
    const cmp = trialsView({ workspaceFolder: ws } as Harness)!.suites[0]!.comparisons[0]!;
    assert.equal(cmp.refused, true);
    assert.deepEqual(cmp.conclusions, []);
    assert.deepEqual(cmp.notes, ['The suite changed at 2025-06-01T10:00:00.000Z: its plan hash went from h1 to h2.']);
  });
});
