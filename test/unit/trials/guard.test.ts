import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fingerprintDiff, guardFingerprints, guardTrials, type ConditionOutcomes } from '../../../src/core/trials/guard';
import type { TrialOutcome } from '../../../src/core/trials/outcome';

const BASE = { alfred: '0.9.0', model: 'gpt-x', role: 'coder', pack: 'off', persona: 'off', handoff: 'off' };
const fp = (id: string, over: Record<string, string> = {}) => ({ id, components: { ...BASE, ...over } });
const budget = { tokens: 1000, seconds: 60, usd: 0.5 };

function outcome(condition: string, task: string, trial: number, over: Partial<TrialOutcome> = {}): TrialOutcome {
  return {
    condition, task, trial, instance: `inst-${task}`, suiteHash: 'h1', fingerprint: condition === 'control' ? fp('fpC') : fp('fpT', { handoff: 'on' }),
    status: 'accepted', escapedDefect: null, duplicatedToolActions: 0, tokens: 100, costUsd: 0.01, wallMs: 1000, budget,
    startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:01.000Z', ...over,
  };
}

function side(name: string, n: number, over: (task: string, trial: number) => Partial<TrialOutcome> = () => ({})): ConditionOutcomes {
  const outcomes = ['a', 'b'].flatMap((task) => Array.from({ length: n }, (_, i) => outcome(name, task, i + 1, over(task, i + 1))));
  return { name, outcomes };
}

describe('guardTrials', () => {
  it('lets a pair that differs in one component through, naming it', () => {
    const v = guardTrials(side('control', 3), side('handoff', 3, () => ({ fingerprint: fp('fpT', { handoff: 'on' }) })));
    assert.deepEqual(v, { ok: true, reasons: [], differing: [{ component: 'handoff', control: 'off', treatment: 'on' }] });
  });

  it('refuses a pair that changes two components, naming both', () => {
    const v = guardTrials(side('control', 3), side('both', 3, () => ({ fingerprint: fp('fpT', { handoff: 'on', model: 'gpt-y' }) })));
    assert.equal(v.ok, false);
    assert.deepEqual(v.reasons, ['the two differ in 2 components, not one: handoff (off → on), model (gpt-x → gpt-y)']);
    assert.deepEqual(v.differing.map((d) => d.component), ['handoff', 'model']);
  });

  it('counts a label set on one side only as a component', () => {
    const v = guardTrials(side('control', 2), side('t', 2, () => ({ fingerprint: fp('fpT', { handoff: 'on', 'label.temperature': '0.2' }) })));
    assert.deepEqual(v.reasons, ['the two differ in 2 components, not one: handoff (off → on), label.temperature ((absent) → 0.2)']);
  });

  it('refuses different budgets', () => {
    const v = guardTrials(side('control', 2), side('t', 2, (task) => (task === 'b' ? { budget: { ...budget, usd: 1 } } : {})));
    assert.deepEqual(v.reasons, ['task "b" ran with different budgets: 1000 tokens, 60 s, $0.5 under "control", 1000 tokens, 60 s, $1 under "t"']);
  });

  it('refuses different task instances, and a task run under one condition only', () => {
    const v = guardTrials(side('control', 2), side('t', 2, (task) => (task === 'a' ? { instance: 'other' } : { task: 'c', instance: 'inst-c' })));
    assert.deepEqual(v.reasons, [
      'task "a" ran as different instances (prompt, start commit, checks or budget): inst-a under "control", other under "t"',
      'task "b" ran only under "control"',
      'task "c" ran only under "t"',
    ]);
  });

  it('refuses different trial counts', () => {
    const v = guardTrials(side('control', 3), side('t', 2));
    assert.deepEqual(v.reasons, ['task "a" has 3 trials under "control" and 2 under "t"', 'task "b" has 3 trials under "control" and 2 under "t"']);
  });

  it('refuses the same instances run different numbers of times, with the same total', () => {
    const v = guardTrials(side('control', 2, (task, trial) => (task === 'a' && trial === 2 ? { instance: 'new' } : {})), side('t', 2, (task, trial) => (task === 'a' && trial === 1 ? { instance: 'new' } : {})));
    assert.deepEqual(v.reasons, []);
    const skewed = guardTrials(
      { name: 'control', outcomes: [outcome('control', 'a', 1), outcome('control', 'a', 2, { instance: 'new' }), outcome('control', 'a', 3, { instance: 'new' })] },
      { name: 't', outcomes: [outcome('t', 'a', 1), outcome('t', 'a', 2), outcome('t', 'a', 3, { instance: 'new' })] },
    );
    assert.deepEqual(skewed.reasons, ['task "a" ran its instances different numbers of times: inst-a ×1, new ×2 under "control", inst-a ×2, new ×1 under "t"']);
  });

  it('refuses when the suite changed between them, and a condition with no trials', () => {
    const changed = guardTrials(side('control', 1), side('t', 1, () => ({ suiteHash: 'h2' })));
    assert.deepEqual(changed.reasons, ['the suite changed between them: "control" ran under suite h1, "t" under h2']);
    // N raised after both had run: both sides ran under the same two plans, yet not under one.
    const raised = guardTrials(side('control', 2, (_task, trial) => (trial === 2 ? { suiteHash: 'h2' } : {})), side('t', 2, (_task, trial) => (trial === 2 ? { suiteHash: 'h2' } : {})));
    assert.deepEqual(raised.reasons, ['the suite\'s plan changed while their trials ran: "control" ran under suite h1, h2, "t" under h1, h2; trials run under different plans are not compared (a new name in the suite file starts its trials afresh)']);
    assert.deepEqual(guardTrials(side('control', 1), { name: 't', outcomes: [] }).reasons, ['condition "t" has no recorded trials']);
  });

  it('refuses a condition whose own fingerprint changed during the run', () => {
    const v = guardTrials(side('control', 2, (_task, trial) => (trial === 2 ? { fingerprint: fp('fpC2', { alfred: '1.0.0' }) } : {})), side('t', 2));
    assert.deepEqual(v.reasons, ['condition "control" ran under 2 fingerprints (fpC, fpC2), differing in alfred']);
  });
});

describe('guardFingerprints', () => {
  it('allows identical fingerprints and one difference, refuses two', () => {
    assert.deepEqual(guardFingerprints(fp('x'), fp('x')), { ok: true, reasons: [], differing: [] });
    assert.equal(guardFingerprints(fp('x'), fp('y', { pack: 'rust' })).ok, true);
    assert.equal(guardFingerprints(fp('x'), fp('y', { pack: 'rust', persona: 'on' })).ok, false);
    assert.deepEqual(fingerprintDiff(fp('x', { 'label.a': '1' }), fp('y')), [{ component: 'label.a', control: '1', treatment: '(absent)' }]);
  });
});
