import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { TrialOutcome } from '../../../src/core/trials/outcome';
import { claimTrial, noteSuiteHash, outcomesPath, planResume, readOutcomes, recordEnded, recordInterrupted } from '../../../src/core/trials/store';

const fingerprint = { id: 'fp1', components: { handoff: 'on' } };
const budget = { tokens: 100, seconds: 10, usd: 1 };

const dirs: string[] = [];
after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function tmpFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-trials-'));
  dirs.push(dir);
  return outcomesPath(dir, 'suite');
}

function outcome(trial: number, over: Partial<TrialOutcome> = {}): TrialOutcome {
  return {
    condition: 'c', task: 't', trial, instance: 'i1', suiteHash: 'h1', fingerprint, status: 'accepted', escapedDefect: null,
    duplicatedToolActions: 0, tokens: 10, costUsd: 0.01, wallMs: 1000, budget, startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:01.000Z',
    ...over,
  };
}

const started = (trial: number) => ({ condition: 'c', task: 't', trial, instance: 'i1', at: '2026-01-01T00:00:00.000Z' });

describe('outcomes store', () => {
  it('lives in .alfred/trials/<suite>/outcomes.jsonl', () => {
    assert.equal(outcomesPath('/w', 'mine'), path.join('/w', '.alfred', 'trials', 'mine', 'outcomes.jsonl'));
  });

  it('claims a trial once: a second claim of the same key is refused', async () => {
    const file = tmpFile();
    assert.equal(await claimTrial(file, started(1)), true);
    assert.equal(await claimTrial(file, started(1)), false);
    assert.equal(await claimTrial(file, started(2)), true);
    assert.deepEqual(fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown), [
      { kind: 'started', key: 'c/t/1', ...started(1) },
      { kind: 'started', key: 'c/t/2', ...started(2) },
    ]);
  });

  it('on resume, records a started trial without an end as interrupted and runs only keys never started', async () => {
    const file = tmpFile();
    await claimTrial(file, started(1));
    recordEnded(file, outcome(1));
    await claimTrial(file, started(2)); // the run was killed here
    const plan = planResume(readOutcomes(file), ['c/t/1', 'c/t/2', 'c/t/3']);
    assert.deepEqual(plan.toRun, ['c/t/3']);
    assert.deepEqual(plan.interrupted.map((s) => s.key), ['c/t/2']);
    recordInterrupted(file, plan.interrupted, () => ({ suiteHash: 'h1', fingerprint, budget }), '2026-01-01T00:00:05.000Z');
    const read = readOutcomes(file);
    assert.deepEqual(read.outcomes.map((o) => [o.trial, o.status, o.wallMs]), [[1, 'accepted', 1000], [2, 'interrupted', 5000]]);
    assert.deepEqual(planResume(read, ['c/t/1', 'c/t/2', 'c/t/3']), { toRun: ['c/t/3'], interrupted: [] });
  });

  it('skips and reports corrupt lines and a second end of one trial', () => {
    const file = tmpFile();
    recordEnded(file, outcome(1));
    fs.appendFileSync(file, '{"kind":"ended","key":"c/t/9"}\nnot json\n');
    recordEnded(file, outcome(1, { status: 'rejected' }));
    const read = readOutcomes(file);
    assert.deepEqual(read.outcomes.map((o) => o.status), ['accepted']);
    assert.deepEqual(read.corrupt.map((c) => [c.line, c.message.slice(0, 28)]), [
      [2, 'an ended line needs conditio'],
      [3, 'not valid JSON: Unexpected t'],
      [4, 'trial c/t/1 ended more than '],
    ]);
  });

  it('records a suite change once, against the last hash known', () => {
    const file = tmpFile();
    assert.equal(noteSuiteHash(file, readOutcomes(file), 'h1', 'x'), null); // nothing recorded yet
    recordEnded(file, outcome(1));
    assert.equal(noteSuiteHash(file, readOutcomes(file), 'h1', 'x'), null);
    assert.deepEqual(noteSuiteHash(file, readOutcomes(file), 'h2', '2026-01-02T00:00:00.000Z'), { kind: 'suite-changed', from: 'h1', to: 'h2', at: '2026-01-02T00:00:00.000Z' });
    assert.equal(noteSuiteHash(file, readOutcomes(file), 'h2', 'y'), null);
    assert.deepEqual(readOutcomes(file).suiteChanges.map((c) => `${c.from}->${c.to}`), ['h1->h2']);
  });
});
