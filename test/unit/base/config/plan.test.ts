import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { planWrite } from '../../../../src/core/base/config/plan';
import { sandbox } from './helpers';

test('a plan keeps only the files whose text changes, with a unified diff of each', () => {
  const s = sandbox();
  const same = s.file('same.toml', 'a = 1\n');
  const changed = s.file('changed.toml', 'a = 1\nb = 2\nc = 3\n');
  const created = s.file('new/created.toml');
  const plan = planWrite({
    reason: 'test',
    files: [
      { path: same, newText: 'a = 1\n' },
      { path: changed, newText: 'a = 1\nb = 20\nc = 3\n' },
      { path: created, newText: 'x = 1\n' },
    ],
  }, { label: (f) => path.relative(s.dir, f) });
  assert.deepEqual(plan.unchanged, [same]);
  assert.deepEqual(plan.files.map((f) => [f.label, f.change, f.added, f.removed]), [['changed.toml', 'modify', 1, 1], ['new/created.toml', 'create', 1, 0]]);
  assert.equal(plan.files[0]!.diff, '--- a/changed.toml\n+++ b/changed.toml\n@@ -1,3 +1,3 @@\n a = 1\n-b = 2\n+b = 20\n c = 3\n');
  assert.match(plan.files[1]!.diff, /^--- \/dev\/null\n\+\+\+ b\/new\/created\.toml\n@@ -0,0 \+1,?1? @@\n\+x = 1\n$/);
  assert.equal(plan.title, 'test');
});

test('nothing to do: every file already holds the requested text, or a deleted file is already gone', () => {
  const s = sandbox();
  const plan = planWrite({ reason: 'noop', files: [{ path: s.file('a.json', '{}\n'), newText: '{}\n' }, { path: s.file('gone.json'), newText: null }] });
  assert.deepEqual(plan.files, []);
  assert.equal(plan.unchanged.length, 2);
});

test('a deletion is planned with the old text as removed lines', () => {
  const s = sandbox();
  const plan = planWrite({ reason: 'rm', files: [{ path: s.file('old.toml', 'one\ntwo\n'), newText: null }] }, { label: () => 'old.toml' });
  assert.equal(plan.files[0]!.change, 'delete');
  assert.equal(plan.files[0]!.diff, '--- a/old.toml\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-one\n-two\n');
});

test('secrets are *** in the diff, and a changed secret still shows as a changed line', () => {
  const s = sandbox();
  const file = s.file('settings.json', '{\n  "name": "x",\n  "apiKey": "old-secret-value"\n}\n');
  const plan = planWrite({ reason: 'key', files: [{ path: file, newText: '{\n  "name": "x",\n  "apiKey": "new-secret-value"\n}\n' }] });
  const diff = plan.files[0]!.diff;
  assert.equal(diff.includes('secret-value'), false, diff);
  assert.match(diff, /^- {2}"apiKey": "\*\*\*"$/m);
  assert.match(diff, /^\+ {2}"apiKey": "\*\*\*"$/m);
  // The plan still carries the real text to write.
  assert.match(plan.files[0]!.newText!, /new-secret-value/);
});

test('a file marked secret hides every value in its diff', () => {
  const s = sandbox();
  const plan = planWrite({ reason: 'env', files: [{ path: s.file('config.ini'), newText: 'HOST=db.internal\nUSER=alfred\n', secret: true }] });
  assert.equal(plan.files[0]!.secret, true);
  assert.match(plan.files[0]!.diff, /\+HOST=\*\*\*\n\+USER=\*\*\*\n$/);
});

test('bad requests are refused with the path named', () => {
  assert.throws(() => planWrite({ reason: 'x', files: [{ path: 'relative.toml', newText: '' }] }), /relative\.toml: .*absolute path/);
  const s = sandbox();
  const f = s.file('a.toml');
  assert.throws(() => planWrite({ reason: 'x', files: [{ path: f, newText: '1' }, { path: f, newText: '2' }] }), /listed twice/);
  assert.throws(() => planWrite({ reason: ' ', files: [] }), /needs a reason/);
});
