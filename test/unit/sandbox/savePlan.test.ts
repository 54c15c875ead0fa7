import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { savePlan, SANDBOX_SCRIPT } from '../../../src/core/sandbox/launcher';

test('a plan changed behind the process is written again, even with its size and mtime put back', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-plan-'));
  const plan = path.join(home, 'run', 'sandbox', 'abc123.args');
  const argv = ['/usr/bin/bwrap', '--ro-bind', '/w/.vscode', '/w/.vscode'];
  const script = savePlan(home, 'abc123', argv);
  assert.equal(script, path.join(home, 'bin', 'alfred-sandbox'));
  assert.equal(fs.readFileSync(script!, 'utf8'), SANDBOX_SCRIPT);
  const text = `${argv.join('\n')}\n`;
  assert.equal(fs.readFileSync(plan, 'utf8'), text);
  savePlan(home, 'abc123', argv); // read back once and remembered

  // The same length, one mount dropped for a harmless one, mtime restored: only ctime tells.
  const { mtime } = fs.statSync(plan);
  const forged = text.replace('/w/.vscode\n/w/.vscode', '/w/.vscodX\n/w/.vscodX');
  assert.equal(forged.length, text.length);
  fs.writeFileSync(plan, forged);
  fs.utimesSync(plan, mtime, mtime);
  savePlan(home, 'abc123', argv);
  assert.equal(fs.readFileSync(plan, 'utf8'), text);

  fs.rmSync(script!);
  savePlan(home, 'abc123', argv);
  assert.equal(fs.readFileSync(script!, 'utf8'), SANDBOX_SCRIPT);
  assert.equal(fs.statSync(script!).mode & 0o777, 0o755);

  const other = ['/usr/bin/bwrap', '--ro-bind', '/w/.git/hooks', '/w/.git/hooks'];
  savePlan(home, 'abc123', other);
  assert.equal(fs.readFileSync(plan, 'utf8'), `${other.join('\n')}\n`);
});
