import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { savePlan, SANDBOX_SCRIPT, UNUSED_PLAN_MS } from '../../../src/core/sandbox/launcher';

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

test("a workspace's first plan drops the plan files no workspace wrote for 30 days, and the copies of a workspace left with none, and nothing else", () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-plan-'));
  const plans = path.join(home, 'run', 'sandbox');
  fs.mkdirSync(plans, { recursive: true });
  const old = new Date(Date.now() - UNUSED_PLAN_MS - 24 * 3600_000);
  const recent = new Date(Date.now() - UNUSED_PLAN_MS + 24 * 3600_000);
  const files: Record<string, Date> = {
    '00000000000000aa.args': old, '00000000000000aa.mounts.json': old, '00000000000000aa.later.json': old,
    '00000000000000bb.args': recent, '00000000000000bb.mounts.json': recent,
    'notes.txt': old, '00000000000000aa.args.bak': old,
  };
  for (const [name, at] of Object.entries(files)) {
    fs.writeFileSync(path.join(plans, name), 'x');
    fs.utimesSync(path.join(plans, name), at, at);
  }
  // Copies a strict command wrote: dropped with the last plan file of their workspace.
  for (const id of ['00000000000000aa', '00000000000000bb', '00000000000000dd']) fs.mkdirSync(path.join(home, 'sandbox-copies', id, 'tmp'), { recursive: true });
  savePlan(home, '00000000000000cc', ['/usr/bin/bwrap']);
  assert.deepEqual(fs.readdirSync(path.join(home, 'sandbox-copies')).sort(), ['00000000000000bb', '00000000000000dd'], 'bb is in use; dd had no plan file here to go by');
  assert.deepEqual(fs.readdirSync(plans).sort(), [
    '00000000000000aa.args.bak', '00000000000000bb.args', '00000000000000bb.mounts.json', '00000000000000cc.args', 'notes.txt',
  ]);
  // A workspace whose plan did not change is written again if its file was dropped.
  fs.rmSync(path.join(plans, '00000000000000cc.args'));
  savePlan(home, '00000000000000cc', ['/usr/bin/bwrap']);
  assert.equal(fs.readFileSync(path.join(plans, '00000000000000cc.args'), 'utf8'), '/usr/bin/bwrap\n');
});

test('a plan still in use is touched once a day, so that no drop of unused plans takes it between an answer and its command', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-plan-'));
  const plans = path.join(home, 'run', 'sandbox');
  const argv = ['/usr/bin/bwrap', '--ro-bind', '/w/.vscode', '/w/.vscode'];
  const inUse = path.join(plans, '00000000000000dd.args');
  savePlan(home, '00000000000000dd', argv); // written, and remembered by this process
  const day = 24 * 3600_000;
  const old = new Date(Date.now() - UNUSED_PLAN_MS - day);
  fs.utimesSync(inUse, old, old);
  // Its plan unchanged for a month: the next save (a hook call of that workspace) touches it.
  savePlan(home, '00000000000000dd', argv);
  assert.ok(Date.now() - fs.statSync(inUse).mtimeMs < 60_000, 'touched');
  assert.equal(fs.readFileSync(inUse, 'utf8'), `${argv.join('\n')}\n`);
  // A plan saved less than a day ago is left as it is: a touch is one write a day at most.
  // Whole seconds: the file system keeps the time in ns, which read back as ms is not always exact.
  const hours = new Date(Math.floor((Date.now() - day / 2) / 1000) * 1000);
  fs.utimesSync(inUse, hours, hours);
  savePlan(home, '00000000000000dd', argv);
  assert.equal(fs.statSync(inUse).mtimeMs, hours.getTime());
  // Another workspace's first plan drops the unused ones only.
  const unused = path.join(plans, '00000000000000ee.args');
  fs.writeFileSync(unused, 'x');
  fs.utimesSync(unused, old, old);
  savePlan(home, '00000000000000ff', ['/usr/bin/bwrap']);
  assert.deepEqual(fs.readdirSync(plans).sort(), ['00000000000000dd.args', '00000000000000ff.args']);
});

test('a plan read back by a process that did not write it is touched the same way', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-plan-'));
  const file = path.join(home, 'run', 'sandbox', '00000000000000ab.args');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '/usr/bin/bwrap\n');
  const old = new Date(Date.now() - UNUSED_PLAN_MS - 24 * 3600_000);
  fs.utimesSync(file, old, old);
  savePlan(home, '00000000000000ab', ['/usr/bin/bwrap']);
  assert.ok(Date.now() - fs.statSync(file).mtimeMs < 60_000, 'touched');
});
