import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { alfredHome, stateDir, workspaceId } from '../../../../src/core/base/state/paths';

const sha16 = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

test('workspace id: first 16 hex digits of SHA-256 of the real path', () => {
  const real = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-ws-')));
  assert.equal(workspaceId(real), sha16(real));
  assert.match(workspaceId(real), /^[0-9a-f]{16}$/);
  // A symlink to the folder is the same workspace.
  const link = `${real}-link`;
  fs.symlinkSync(real, link);
  assert.equal(workspaceId(link), sha16(real));
  // A folder that does not exist falls back to the resolved path.
  assert.equal(workspaceId('/no/such/folder/../here'), sha16('/no/such/here'));
});

test('stateDir is under ALFRED_HOME and created with mode 0700', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-home-'));
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-ws-'));
  const env = { ALFRED_HOME: home };
  const dir = stateDir(ws, env);
  assert.equal(dir, path.join(home, 'state', workspaceId(ws)));
  assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
  assert.equal(stateDir(ws, env), dir, 'idempotent');
});

test('without ALFRED_HOME the home is ~/.alfred', () => {
  assert.equal(alfredHome({}), path.join(os.homedir(), '.alfred'));
});
