import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { TrialOutcome, TrialStatus } from '../../../src/core/trials/outcome';
import { listSuites, trialsOverview } from '../../../src/core/trials/overview';
import { outcomesPath, recordEnded } from '../../../src/core/trials/store';

const dirs: string[] = [];
after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const budget = { tokens: 1000, seconds: 60, usd: 0.5 };

function outcome(condition: string, trial: number, components: Record<string, string>, status: TrialStatus = 'accepted'): TrialOutcome {
  return {
    condition, task: 'fix', trial, instance: 'inst', suiteHash: 'h1', fingerprint: { id: JSON.stringify(components), components: { model: 'm', ...components } },
    status, escapedDefect: null, duplicatedToolActions: 0, tokens: 10, costUsd: 0.01, wallMs: 1000, budget, startedAt: '', endedAt: '',
  };
}

describe('trialsOverview', () => {
  it('lists each suite with outcomes, its conditions\' counts, and each condition compared with the control of the suite file', () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-overview-'));
    dirs.push(ws);
    fs.mkdirSync(path.join(ws, '.alfred', 'trials', 'empty'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.alfred', 'trials.toml'), 'name = "demo"\ntrials = 2\n[[task]]\nid = "fix"\nprompt = "p"\nbudget = { tokens = 1000, seconds = 60, usd = 0.5 }\n'
      + '[[condition]]\nname = "handoff"\n[[condition]]\nname = "base"\ncontrol = true\n[[condition]]\nname = "both"\n');
    const file = outcomesPath(ws, 'demo');
    for (const trial of [1, 2]) {
      // "handoff" is recorded first: the control still comes from the suite file.
      recordEnded(file, outcome('handoff', trial, { handoff: 'on' }));
      recordEnded(file, outcome('base', trial, { handoff: 'off' }, trial === 1 ? 'interrupted' : 'accepted'));
      recordEnded(file, outcome('both', trial, { handoff: 'on', model: 'm2' }, 'rejected'));
    }
    assert.deepEqual(listSuites(ws), ['demo']);
    const [demo] = trialsOverview(ws);
    assert.equal(demo!.control, 'base');
    assert.deepEqual(demo!.conditions, [
      { name: 'handoff', control: false, trials: 2, accepted: 2, interrupted: 0 },
      { name: 'base', control: true, trials: 2, accepted: 1, interrupted: 1 },
      { name: 'both', control: false, trials: 2, accepted: 0, interrupted: 0 },
    ]);
    assert.deepEqual(demo!.comparisons.map((c) => [c.control.name, c.treatment.name, c.refused, c.component?.component ?? null]), [
      ['base', 'handoff', false, 'handoff'],
      ['base', 'both', true, null],
    ]);
  });

  it('has nothing to show without a trials folder', () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-overview-'));
    dirs.push(ws);
    assert.deepEqual(trialsOverview(ws), []);
  });
});
