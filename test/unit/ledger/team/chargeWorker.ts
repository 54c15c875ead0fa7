/**
 * One process of the concurrency tests: a harness on the workspace given as argv[2] (its state in
 * this process's ALFRED_HOME: one "machine"), which asks for one shell call and prints whether it was
 * allowed, as `{"allowed":true}`. It does not close the team ledger: an idle connection must not
 * keep a one-shot process alive (the test would time out).
 */
import * as path from 'node:path';
import { Harness } from '../../../../src/core/harness/harness';
import { toolCall } from '../../../../src/core/rules/policy/toolCall';

async function main(): Promise<void> {
  // Started from the repository's root (the test's cwd), bundled or not.
  const h = new Harness({ workspaceFolder: process.argv[2]!, builtinRolesDir: path.resolve('roles') });
  const r = await h.authorize(toolCall('run_in_terminal', { command: `echo ${process.pid}` }), { source: 'test' });
  process.stdout.write(JSON.stringify({ allowed: r.decision.allowed, reason: r.decision.reason ?? null }) + '\n');
}

void main();
