import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { CompletionRecord } from '../../../src/core/workflow/completion/record';
import { renderComparison } from '../../../src/core/trials/compare';
import { compareHistory, findGroup, groupCompletions, readHistory, type FingerprintGroup } from '../../../src/core/trials/history';

const BASE = { alfred: '0.9.0', model: 'gpt-x', role: 'coder', handoff: 'n/a', persona: 'n/a' };
const fp = (id: string, over: Record<string, string> = {}) => ({ id, components: { ...BASE, ...over } });
const r4 = (x: number): number => Math.round(x * 10000) / 10000;

let seq = 0;
function record(accepted: boolean, fingerprint: ReturnType<typeof fp> | undefined, trigger = 'hook:Stop', ts = '2026-01-01T00:00:00.000Z'): CompletionRecord {
  return {
    version: 1, id: `r${seq++}`, ts, workspace: '/w', accepted, reason: accepted ? 'ok' : 'failed', evaluator: 'exit-codes', role: 'coder',
    session: null, trigger, snapshot: { before: { kind: 'commit', id: 'a' }, after: { kind: 'commit', id: 'a' }, stable: true } as unknown as CompletionRecord['snapshot'],
    checks: [], environment: { node: 'v20', os: 'linux', alfred: '0.9.0' }, durationMs: 10, ...(fingerprint ? { fingerprint } : {}),
  };
}

const dirs: string[] = [];
after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('recorded history', () => {
  it('groups completion records by fingerprint, counting accepted, rejected and triggers', () => {
    const a = fp('aaaa11112222');
    const b = fp('aaaa33334444', { model: 'gpt-y' });
    const { groups, withoutFingerprint } = groupCompletions([
      record(true, a, 'hook:Stop', '2026-01-02T00:00:00.000Z'), record(false, a, 'chat', '2026-01-01T00:00:00.000Z'), record(true, a),
      record(true, b), record(true, undefined),
    ]);
    assert.equal(withoutFingerprint, 1);
    assert.deepEqual(groups.map((g) => [g.fingerprint.id, g.accepted, g.rejected, g.first, g.last, g.triggers]), [
      ['aaaa11112222', 2, 1, '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z', { 'hook:Stop': 2, chat: 1 }],
      ['aaaa33334444', 1, 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', { 'hook:Stop': 1 }],
    ]);
    assert.equal((findGroup(groups, 'aaaa3') as FingerprintGroup).fingerprint.id, 'aaaa33334444');
    assert.equal(findGroup(groups, 'aaaa'), 'aaaa begins 2 fingerprints (aaaa11112222, aaaa33334444): give more of it');
    assert.equal(findGroup(groups, 'bbbb'), 'no completion record carries a fingerprint bbbb');
  });

  it('reads the state folder\'s completions.jsonl', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-history-'));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'completions.jsonl'), [record(true, fp('x1')), record(false, fp('x1'))].map((r) => JSON.stringify(r)).join('\n') + '\nbroken\n');
    const h = readHistory(dir);
    assert.deepEqual(h.groups.map((g) => [g.fingerprint.id, g.accepted, g.rejected]), [['x1', 1, 1]]);
    assert.equal(h.corrupt.length, 1);
  });

  it('compares two fingerprints that differ in one component, with the acceptance rate only', () => {
    const control = { fingerprint: fp('c1'), accepted: 8, rejected: 2, first: '', last: '', triggers: {} };
    const treatment = { fingerprint: fp('t1', { model: 'gpt-y' }), accepted: 3, rejected: 7, first: '', last: '', triggers: {} };
    const c = compareHistory(control, treatment);
    assert.equal(c.refused, false);
    assert.deepEqual(c.metrics.map((m) => m.metric), ['acceptance']);
    // 3/10 − 8/10 by Newcombe's method: -0.5, [-0.7398, -0.0665] (worked out by hand).
    const d = c.metrics[0]!.difference!;
    assert.deepEqual([r4(d.estimate), r4(d.low), r4(d.high)], [-0.5, -0.7398, -0.0665]);
    assert.deepEqual(c.conclusions, ['With model (gpt-x → gpt-y), recorded work was accepted less often: -50.0 points, 95% interval -74.0 to -6.6.']);
    assert.match(c.notes[0]!, /^Recorded history: budgets, task instances and trial counts are not checked/);
    assert.ok(renderComparison(c).startsWith('Comparison of recorded history: control "c1" (10) vs treatment "t1" (10)\nComponent changed: model (gpt-x → gpt-y)'));
  });

  it('refuses two components at once, and the same fingerprint on both sides', () => {
    const control = { fingerprint: fp('c1'), accepted: 1, rejected: 0, first: '', last: '', triggers: {} };
    const two = compareHistory(control, { ...control, fingerprint: fp('t1', { model: 'gpt-y', 'label.temperature': '0.2' }) });
    assert.deepEqual([two.refused, two.reasons], [true, ['the two differ in 2 components, not one: label.temperature ((absent) → 0.2), model (gpt-x → gpt-y)']]);
    assert.deepEqual(compareHistory(control, control).reasons, ['both sides are the same fingerprint c1']);
  });
});
