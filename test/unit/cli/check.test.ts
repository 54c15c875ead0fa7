/** `alfred check [--json]`: exit code 0 only when the work is accepted. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { isolateEnv, newWorkspace, run } from './helpers';

const env = isolateEnv();
const posixOnly = { skip: process.platform === 'win32' && 'uses POSIX shell commands' };
const CHECKS = (test: string) => `protect = ["test/**"]\n[[check]]\nname = "unit"\nrun = ${JSON.stringify(test)}\n`;

describe('alfred check', posixOnly, () => {
  it('--json: exit 1 and the failing output while a required check fails, exit 0 once it passes; both recorded', async () => {
    const folder = newWorkspace(env.root, { 'ok.flag': 'no', '.alfred/checks.toml': CHECKS('grep -q yes ok.flag || { echo "ok.flag says no"; exit 1; }') });
    const refused = await run(['check', '--json', '--workspace', folder]);
    assert.equal(refused.code, 1);
    const r1 = JSON.parse(refused.stdout) as { accepted: boolean; reason: string; record: { id: string; checks: Array<{ status: string; exitCode: number; outputTail: string }> } };
    assert.equal(r1.accepted, false);
    assert.equal(r1.record.checks[0]!.status, 'failed');
    assert.equal(r1.record.checks[0]!.exitCode, 1);
    assert.equal(r1.record.checks[0]!.outputTail, 'ok.flag says no');

    fs.writeFileSync(path.join(folder, 'ok.flag'), 'yes'); // the fix
    const accepted = await run(['check', '--json', '--workspace', folder]);
    assert.equal(accepted.code, 0, accepted.stdout);
    const r2 = JSON.parse(accepted.stdout) as { accepted: boolean; record: { id: string } };
    assert.equal(r2.accepted, true);
    assert.notEqual(r2.record.id, r1.record.id);

    const events = await run(['events', '--json', '--workspace', folder]);
    const recorded = events.out.map((l) => JSON.parse(l) as { type: string; accepted?: boolean }).filter((e) => e.type === 'CompletionRecorded');
    assert.deepEqual(recorded.map((e) => e.accepted), [false, true]);
  });

  it('exit 2 when there is nothing to run: no checks file, or one with problems (named by path and key)', async () => {
    const none = await run(['check', '--json', '--workspace', newWorkspace(env.root)]);
    assert.equal(none.code, 2);
    assert.equal(JSON.parse(none.stdout).kind, 'no-checks');
    const broken = await run(['check', '--json', '--workspace', newWorkspace(env.root, { '.alfred/checks.toml': '[[check]]\nname = "x"\ntimeout_s = "soon"\n' })]);
    assert.equal(broken.code, 2);
    const data = JSON.parse(broken.stdout) as { kind: string; problems: Array<{ key: string }> };
    assert.equal(data.kind, 'invalid');
    assert.deepEqual(data.problems.map((p) => p.key), ['check[0].run', 'check[0].timeout_s']);
  });

  it('without --json: progress on stderr, the verdict and the failing output on stdout', async () => {
    const folder = newWorkspace(env.root, { '.alfred/checks.toml': CHECKS('echo boom; exit 7') });
    const r = await run(['check', '--workspace', folder]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /running unit \(1\/1\)/);
    assert.match(r.stdout, /^Not accepted: required check "unit" failed \(exit code 7\)/);
    assert.match(r.stdout, /── output of unit \(last lines\) ──\nboom/);
  });
});
