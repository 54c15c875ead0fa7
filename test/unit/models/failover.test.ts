import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chainHealth, heal, initialFailover, recordOutcome, type FailoverState } from '../../../src/core/models/failover';
import { linkKey, parseProfiles, type ModelLink } from '../../../src/core/models/profiles';

const A: ModelLink = { vendor: 'v', id: 'a' };
const B: ModelLink = { vendor: 'v', id: 'b' };
const C: ModelLink = { vendor: 'v', id: 'c' };
const chain = [A, B, C];
const all = () => true;

function fail(state: FailoverState, link: ModelLink, times: number): FailoverState {
  for (let i = 0; i < times; i++) state = recordOutcome(state, link, 'failure');
  return state;
}

test('one failure does not switch; two consecutive failures switch at the next turn', () => {
  let s = fail(initialFailover(), A, 1);
  assert.deepEqual(heal(s, chain, all), { state: s });
  s = fail(s, A, 1);
  const h = heal(s, chain, all);
  assert.deepEqual(h.switched, { from: 0, to: 1, reason: 'failures', failures: 2 });
  assert.equal(h.state.active, 1);
  assert.equal(h.state.failures[linkKey(A)], undefined, 'the retired model\'s count is cleared');
});

test('a success clears the count: failures must be consecutive', () => {
  let s = fail(initialFailover(), A, 1);
  s = recordOutcome(s, A, 'success');
  s = fail(s, A, 1);
  assert.equal(heal(s, chain, all).switched, undefined);
});

test('a cancel is neutral: it neither counts nor clears', () => {
  let s = fail(initialFailover(), A, 1);
  s = recordOutcome(s, A, 'cancel');
  assert.equal(s.failures[linkKey(A)], 1);
  s = recordOutcome(s, A, 'cancel');
  assert.equal(heal(s, chain, all).switched, undefined);
  s = fail(s, A, 1);
  assert.equal(heal(s, chain, all).switched?.to, 1);
});

test('the next link that resolves is chosen, skipping those that do not', () => {
  const s = fail(initialFailover(), A, 2);
  assert.equal(heal(s, chain, (i) => i !== 1).switched?.to, 2);
});

test('the search wraps around the chain, so a retired model can come back', () => {
  let s: FailoverState = { active: 2, failures: {} };
  s = fail(s, C, 2);
  const h = heal(s, chain, (i) => i === 0 || i === 2);
  assert.deepEqual(h.switched, { from: 2, to: 0, reason: 'failures', failures: 2 });
});

test('if no other link resolves, it stays and says so', () => {
  const s = fail(initialFailover(), A, 2);
  const h = heal(s, chain, (i) => i === 0);
  assert.equal(h.switched, undefined);
  assert.deepEqual(h.stuck, { reason: 'failures', failures: 2 });
  assert.equal(h.state.active, 0);
});

test('an active link that no longer resolves is replaced at the next turn', () => {
  const h = heal(initialFailover(), chain, (i) => i !== 0);
  assert.deepEqual(h.switched, { from: 0, to: 1, reason: 'unavailable', failures: 0 });
  assert.deepEqual(heal(initialFailover(), [A], () => false).stuck, { reason: 'unavailable', failures: 0 });
});

test('failures of another link do not move the active one', () => {
  const s = fail(initialFailover(), B, 5);
  assert.deepEqual(heal(s, chain, all), { state: s });
});

test('an out-of-range active index (a shortened profile) starts over at the first link', () => {
  assert.equal(heal({ active: 7, failures: {} }, chain, all).state.active, 0);
});

test('health: active, failing n/2, unavailable, standby', () => {
  const s = fail({ active: 0, failures: {} }, A, 1);
  const health = chainHealth(s, chain, new Set([linkKey(C)]), true);
  assert.deepEqual(health.map((h) => [h.health, h.active, h.failures, h.available]), [
    ['failing', true, 1, true], ['standby', false, 0, true], ['unavailable', false, 0, false],
  ]);
  assert.equal(chainHealth(initialFailover(), chain)[0]!.health, 'active');
  assert.equal(chainHealth(initialFailover(), chain)[0]!.available, undefined, 'never checked');
});

test('profiles: bad entries are reported with their key and left out', () => {
  const { profiles, problems } = parseProfiles([
    { name: 'main', chain: [{ vendor: 'copilot', family: 'gpt-4o' }, { id: 'claude-sonnet-4' }] },
    { name: 'broken', chain: [{ vendr: 'x' }] },
    { name: '', chain: [{ id: 'a' }] },
    { name: 'main', chain: [{ id: 'b' }] },
    'nope',
  ]);
  assert.deepEqual(profiles.map((p) => p.name), ['main']);
  assert.deepEqual(problems.map((p) => p.key), ['[1].chain[0].vendr', '[1].chain[0]', '[2].name', '[3].name', '[4]']);
  assert.ok(problems.every((p) => p.path === 'settings: alfred.profiles'));
  assert.equal(parseProfiles({}).problems[0]!.message, 'must be a list of profiles ({ "name", "chain" })');
});
