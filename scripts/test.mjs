// `npm test`: every test Alfred has, in order of speed — static checks, unit tests of the core,
// integration tests inside a real VS Code extension host, end-to-end tests in a real browser.
// Prints one summary line (`N passed, N failed`) and exits non-zero on any failure.
// Usage: node scripts/test.mjs [static|unit|integration|e2e ...]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runIntegration } from './lib/integration.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const ALL = ['static', 'unit', 'integration', 'e2e'];
const wanted = process.argv.slice(2).filter((a) => ALL.includes(a));
const stages = wanted.length ? wanted : ALL;
const results = [];
const started = Date.now();

function sh(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
  return res.status ?? 1;
}

function listFiles(dir, suffix) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(suffix))
    .map((f) => path.join(dir, f))
    .sort();
}

/** Node's test runner: spec output for people, a TAP copy to count results. */
function nodeTests(stage, files, extraEnv = {}) {
  const tap = path.join(os.tmpdir(), `alfred-${stage}-${process.pid}.tap`);
  const code = sh(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2',
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...files], { env: { ...process.env, ...extraEnv } });
  const text = fs.existsSync(tap) ? fs.readFileSync(tap, 'utf8') : '';
  const count = (k) => Number(text.match(new RegExp(`^# ${k} (\\d+)$`, 'm'))?.[1] ?? 0);
  const passed = count('pass');
  const failed = count('fail') + count('cancelled') || (code === 0 ? 0 : 1);
  results.push({ stage, passed, failed, skipped: count('skipped') + count('todo') });
}

const runners = {
  static() {
    const checks = [['typecheck', 'npm', ['run', '-s', 'typecheck']], ['lint', 'npx', ['eslint', '.', '--max-warnings=0']]];
    let passed = 0;
    let failed = 0;
    for (const [name, cmd, args] of checks) {
      process.stdout.write(`\n── ${name} ──\n`);
      if (sh(cmd, args) === 0) passed++;
      else { failed++; console.error(`✖ ${name} failed`); }
    }
    results.push({ stage: 'static', passed, failed, skipped: 0 });
  },
  unit() {
    nodeTests('unit', listFiles(path.join(ROOT, 'test', 'unit'), '.test.ts'));
  },
  async integration() {
    if (sh('node', ['build.mjs', '--tests']) !== 0) { results.push({ stage: 'integration', passed: 0, failed: 1, skipped: 0 }); return; }
    const r = await runIntegration({ grep: process.env.ALFRED_TEST_GREP });
    for (const t of r.tests) console.log(`${t.ok ? '✔' : '✖'} ${t.title} (${t.duration ?? 0} ms)`);
    for (const f of r.failures) console.error(`\n✖ ${f.title}\n${f.error}\n`);
    if (r.failures.length) console.error(`integration logs: ${r.logDir}`);
    results.push({ stage: 'integration', passed: r.passed, failed: Math.max(r.failed, r.failures.length), skipped: r.pending ?? 0 });
  },
  e2e() {
    if (sh('npm', ['run', '-s', 'package']) !== 0) { results.push({ stage: 'e2e', passed: 0, failed: 1, skipped: 0 }); return; }
    nodeTests('e2e', listFiles(path.join(ROOT, 'test', 'e2e'), '.e2e.ts'), { ALFRED_VSIX: path.join(ROOT, 'dist', 'alfred.vsix') });
  },
};

for (const stage of stages) {
  process.stdout.write(`\n━━ ${stage} ━━\n`);
  try {
    await runners[stage]();
  } catch (err) {
    console.error(`✖ ${stage}: ${err?.stack ?? err}`);
    results.push({ stage, passed: 0, failed: 1, skipped: 0 });
  }
}

const total = results.reduce((a, r) => ({ passed: a.passed + r.passed, failed: a.failed + r.failed, skipped: a.skipped + r.skipped }), { passed: 0, failed: 0, skipped: 0 });
console.log('\n' + results.map((r) => `${r.stage}: ${r.passed} passed, ${r.failed} failed`).join('\n'));
console.log(`(${Math.round((Date.now() - started) / 1000)} s)`);
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exit(total.failed > 0 || total.passed === 0 ? 1 : 0);
