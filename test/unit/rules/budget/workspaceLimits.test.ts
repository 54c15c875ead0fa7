import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capLowerOnly, lowerOnly } from '../../../../src/core/rules/budget/workspaceLimits';

test('a workspace may lower a limit, never raise it', () => {
  assert.equal(lowerOnly(20, 200, 20), 20, 'a repository asking for 200 tool rounds gets the user\'s 20');
  assert.equal(lowerOnly(undefined, 200, 20), 20, 'nor above the default');
  assert.equal(lowerOnly(30, 5, 20), 5);
  assert.equal(lowerOnly(30, undefined, 20), 30);
  assert.equal(lowerOnly('lots', 0, 20), 20, 'what is not a positive number counts as unset');
});

test('a daily cap: a workspace may set one or lower the user\'s, never raise or remove it', () => {
  assert.equal(capLowerOnly(5, 50), 5);
  assert.equal(capLowerOnly(5, 0), 5, '0 (no cap) from a repository does not remove the user\'s');
  assert.equal(capLowerOnly(0, 2), 2);
  assert.equal(capLowerOnly(5, 2), 2);
  assert.equal(capLowerOnly(undefined, undefined), 0);
  assert.equal(capLowerOnly(-1, Number.NaN), 0);
});
