import assert from 'node:assert/strict';
import { test } from 'node:test';
import { heal, initialFailover, recordOutcome } from '../../../src/core/models/failover';
import { linkKey, linkLabel, modelIdentity, parseProfiles } from '../../../src/core/models/profiles';

test('a link may name an intention, alone or with vendor, family and id', () => {
  const { profiles, problems } = parseProfiles([
    { name: 'local-first', chain: [{ intention: 'local' }, { vendor: 'alfred', intention: 'fast' }, { vendor: 'copilot', family: 'gpt-4o' }] },
  ]);
  assert.deepEqual(problems, []);
  assert.deepEqual(profiles, [{ name: 'local-first', chain: [{ intention: 'local' }, { vendor: 'alfred', intention: 'fast' }, { vendor: 'copilot', family: 'gpt-4o' }] }]);
});

test('an unknown intention, or one that is not a string, is reported with its key and the profile left out', () => {
  const { profiles, problems } = parseProfiles([
    { name: 'a', chain: [{ intention: 'cheap' }] },
    { name: 'b', chain: [{ id: 'm', intention: 1 }] },
    { name: 'c', chain: [{ intention: 'vision' }] },
  ]);
  assert.deepEqual(profiles.map((p) => p.name), ['c']);
  assert.deepEqual(problems.map((p) => [p.key, p.message]), [
    ['[0].chain[0].intention', 'must be one of local, vision, reasoner, fast'],
    ['[0].chain[0]', 'needs at least one of vendor, family, id, intention'],
    ['[1].chain[0].intention', 'must be one of local, vision, reasoner, fast'],
  ]);
  assert.deepEqual(parseProfiles([{ name: 'd', chain: [{ vendr: 'x' }] }]).problems.map((p) => p.message),
    ['unknown key (expected vendor, family, id, intention)', 'needs at least one of vendor, family, id, intention']);
});

test('linkKey and linkLabel: an intention is appended; links without one keep their old key and label', () => {
  assert.equal(linkKey({ vendor: 'scripted', id: 'scripted-a' }), 'scripted/*/scripted-a');
  assert.equal(linkKey({ intention: 'local' }), '*/*/*#local');
  assert.equal(linkKey({ vendor: 'alfred', intention: 'fast' }), 'alfred/*/*#fast');
  assert.equal(linkLabel({ id: 'gpt-4o' }), 'gpt-4o');
  assert.equal(linkLabel({ intention: 'local' }), '* (local)');
  assert.equal(linkLabel({ vendor: 'alfred', intention: 'reasoner' }), 'alfred/* (reasoner)');
  assert.equal(linkLabel({ id: 'm', intention: 'vision' }), 'm (vision)');
});

test('failures of a link with an intention are counted apart from the same link without it', () => {
  const chain = [{ vendor: 'alfred', intention: 'local' as const }, { vendor: 'alfred' }];
  let s = recordOutcome(initialFailover(), chain[0]!, 'failure');
  s = recordOutcome(s, chain[1]!, 'failure');
  assert.deepEqual(s.failures, { 'alfred/*/*#local': 1, 'alfred/*/*': 1 });
  s = recordOutcome(s, chain[0]!, 'failure');
  assert.deepEqual(heal(s, chain, () => true).switched, { from: 0, to: 1, reason: 'failures', failures: 2 });
});

test('__proto__ in a link is an unknown key, never an intention', () => {
  const raw = JSON.parse('[{"name":"p","chain":[{"id":"m","__proto__":{"intention":"local"}}]}]');
  const { profiles, problems } = parseProfiles(raw);
  assert.deepEqual(profiles, []);
  assert.deepEqual(problems.map((p) => p.key), ['[0].chain[0].__proto__']);
});

test('a resolved model\'s full name never repeats its vendor or family (/doctor once showed alfred/ok-mini/alfred/fakellm/ok-mini)', () => {
  assert.equal(modelIdentity({ vendor: 'alfred', family: 'ok-mini', id: 'alfred/fakellm/ok-mini' }), 'alfred/fakellm/ok-mini');
  assert.equal(modelIdentity({ vendor: 'scripted', family: 'scripted', id: 'scripted-a' }), 'scripted/scripted/scripted-a');
  assert.equal(modelIdentity({ vendor: 'copilot', family: 'gpt-4o', id: 'gpt-4o' }), 'copilot/gpt-4o');
});
