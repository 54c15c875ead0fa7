// `npm test`: every test Alfred has — static checks, the set-up of the private VS Code (and Debian's
// packages), unit tests of the core, integration tests inside a real VS Code extension host, end-to-end
// tests in a real browser. Each stage and the whole run have a time limit; a stage that runs over, a
// Ctrl-C, or a workbench that never starts stops everything the run started. The last line is always
// the summary (`N passed, N failed`), with the failed stages named above it; the exit code is non-zero
// on any failure.
// Usage: node scripts/test.mjs [static|setup|unit|agents|integration|e2e ...]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDebianPackages, InstallError } from './lib/install.mjs';
import { runIntegration } from './lib/integration.mjs';
import { markRun, RUN_VARIABLE, stopRun } from './lib/processes.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
// setup first: it installs Debian's packages the unit tests need (bubblewrap, PostgreSQL) at once, then
// the private VS Code in the background (minutes on a machine without the cache), while the static
// checks run. The other stages wait for it: the browser stages need it, and the unit tests slowed
// down far more beside it than its CPU explains (fresh runs: the unit stage took 372 s beside it,
// 276-302 s after it; the install alone 128 s; the cause, perhaps its writes stalling the tests'
// fsyncs, was not proven). Only the unit stage's preparation (prepareUnit) runs beside it too.
const ALL = ['setup', 'static', 'unit', 'agents', 'integration', 'e2e'];
const WHILE_INSTALLING = ['static'];
const MINUTE = 60_000;
/** Generous bounds for a loaded 2-core machine; they only exist so that nothing can hang. */
const STAGE_LIMIT = { static: 8 * MINUTE, unit: 10 * MINUTE, agents: 12 * MINUTE, setup: 25 * MINUTE, integration: 15 * MINUTE, e2e: 25 * MINUTE };
const RUN_LIMIT = Number(process.env.ALFRED_TEST_LIMIT_MIN || 70) * MINUTE;

const wanted = process.argv.slice(2).filter((a) => ALL.includes(a));
const stages = wanted.length ? wanted : ALL;
// The browser stages need the private VS Code installed first, in a stage of its own.
if (stages.some((s) => s === 'integration' || s === 'e2e') && !stages.includes('setup')) stages.splice(stages.findIndex((s) => s === 'integration' || s === 'e2e'), 0, 'setup');
const runId = markRun();
// The tests' temporary folders (workspaces, homes, state, browsers' profiles) go into one folder of
// this run, removed at its end when every test passed (kept for its logs otherwise): a run used to
// leave about a thousand of them in /tmp. Others may traverse it (PostgreSQL runs as its own user),
// not list it.
const runTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-test-'));
fs.chmodSync(runTmp, 0o711);
// tsx keeps its compile cache in <tmpdir>/tsx-<user>: linked, it lasts from run to run (without it the
// unit stage took 294 s instead of 237).
const tsxCache = `tsx-${process.geteuid?.() ?? os.userInfo().username}`;
fs.mkdirSync(path.join(os.tmpdir(), tsxCache), { recursive: true, mode: 0o700 });
fs.symlinkSync(path.join(os.tmpdir(), tsxCache), path.join(runTmp, tsxCache), 'junction');
process.env.TMPDIR = runTmp;
const results = [];
const started = Date.now();
let current = null;

/**
 * Runs a command in its own process group; resolves to its exit code (or 'timeout' / 'stopped').
 * With `output`, its stdout is passed through and each complete line is given to `output.line`.
 */
function sh(cmd, args, { env = {}, limitMs, output } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['inherit', output ? 'pipe' : 'inherit', 'inherit'], detached: true, env: { ...process.env, ...env } });
    let partial = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk) => {
      process.stdout.write(chunk);
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      lines.forEach(output.line);
    });
    const timer = setTimeout(() => { killGroup(child.pid); resolve('timeout'); }, limitMs);
    current = { kill: () => killGroup(child.pid) };
    child.on('error', () => { clearTimeout(timer); resolve(127); });
    child.on('close', (code, signal) => { clearTimeout(timer); resolve(code ?? (signal ? 'stopped' : 1)); });
  });
}

function killGroup(pid) {
  try { process.kill(-pid, 'SIGTERM'); } catch { /* gone */ }
  setTimeout(() => { try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ } }, 3_000).unref();
}

function listFiles(dir, suffix) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(suffix))
    .map((f) => path.join(dir, f))
    .sort();
}

/**
 * The e2e files that take longest, slowest first: they start first, so that the two workers end
 * together rather than one starting a long file while the other is almost done. Each file starts its
 * own code-server and browser; seconds in two full runs on this 2-core machine, under load (a file
 * may take 480 at most: --test-timeout below bounds a file's whole run, not each test).
 */
const E2E_SLOWEST = [
  'copilot', //   180-250: Copilot Chat's start, @alfred's turns, five agent turns
  'team', //      105-135: PostgreSQL, two windows
  'dashboard', //  105 (with the MCP and Trials sections' tests, which share its workbench)
  'workbench', // 105-150
];

/**
 * The unit files that take longest, slowest first, for the same reason: sorted by path, the
 * PostgreSQL and trial files came last. Seconds of one run alone on this 2-core machine; the rest
 * take under 7 s each.
 */
const UNIT_SLOWEST = [
  'pgLedger', //    34: a real PostgreSQL, 40 processes on two machines
  'pgBackend', //   21: the file-backend suite again on PostgreSQL
  'crashHooks', //  19: hook processes killed at each point of a charge
  'concurrency', // 16: 20 processes charging one budget
  'runner', //      14: trials
  'corpus', //      14: the adversarial corpus through alfred hook and the server
  'runnerCli', //   13
  'package', //     11: the production build and the VSIX
  'audit', //        7
  'nativeServer', // 7
];

/** `files` with those named in `first` (by their name before the first dot) at the front, in that order. */
function slowestFirst(files, first) {
  const name = (f) => path.basename(f).split('.')[0];
  const front = first.flatMap((n) => files.filter((f) => name(f) === n));
  return [...front, ...files.filter((f) => !front.includes(f))];
}

/** Seconds each stage took (the setup's install: from its start in the background to its end). */
const seconds = {};

function record(stage, passed, failed, skipped = 0, reason) {
  results.push({ stage, passed, failed, skipped, reason });
}

function limitReason(code, limitMs) {
  if (code === 'timeout') return `ran past its limit of ${limitMs / MINUTE} minutes and was stopped`;
  if (code === 'stopped') return 'was stopped by a signal';
  return undefined;
}

/**
 * Node's test runner with its spec reporter, counted from the summary it prints (a file
 * reporter's summary can be lost when --test-force-exit ends the run; a pipe is written at once).
 */
async function nodeTests(stage, files, extraEnv = {}, extraArgs = [], { inOrder = false, concurrency = 2 } = {}) {
  const limitMs = STAGE_LIMIT[stage];
  // The summary (`ℹ pass 12`) comes before the details of the failures, so every line is looked at.
  const summary = {};
  const output = { line: (l) => { const m = /^\S* ?(tests|pass|fail|cancelled|skipped|todo) (\d+)$/.exec(l); if (m) summary[m[1]] = Number(m[2]); } };
  // `node --test` sorts its files by path; with `inOrder` they start in the order given.
  const runner = inOrder ? [path.join(ROOT, 'scripts', 'lib', 'runInOrder.mjs')] : ['--test', '--test-reporter=spec'];
  const code = await sh(process.execPath, ['--import', 'tsx', ...runner, `--test-concurrency=${concurrency}`, ...extraArgs, ...files],
    { env: extraEnv, limitMs, output });
  const count = (k) => summary[k] ?? 0;
  const failedTests = count('fail') + count('cancelled');
  const reason = limitReason(code, limitMs) ?? (code !== 0 && failedTests === 0 ? `exited with ${code}` : undefined);
  record(stage, count('pass'), failedTests || (code === 0 ? 0 : 1), count('skipped') + count('todo'), reason);
}

const runners = {
  async static() {
    // layers: src/core's imports go only downward and never round (.dependency-cruiser.cjs).
    // shell: the shell scripts (the sandbox's launcher among them) parsed and ShellCheck'd.
    const checks = [['typecheck', 'npm', ['run', '-s', 'typecheck']], ['lint', 'npx', ['eslint', '.', '--max-warnings=0']],
      ['layers', process.execPath, [path.join('scripts', 'depcruise.mjs')]], ['shell', process.execPath, [path.join('scripts', 'shellcheck.mjs')]]];
    let passed = 0;
    const failedChecks = [];
    for (const [name, cmd, args] of checks) {
      process.stdout.write(`\n── ${name} ──\n`);
      const code = await sh(cmd, args, { limitMs: STAGE_LIMIT.static });
      if (code === 0) passed++;
      else { failedChecks.push(name); console.error(`✖ ${name} ${limitReason(code, STAGE_LIMIT.static) ?? 'failed'}`); }
    }
    record('static', passed, failedChecks.length, 0, failedChecks.length ? `failed: ${failedChecks.join(', ')}` : undefined);
  },
  async unit() {
    if (unitNotReady) { record('unit', 0, 1, 0, unitNotReady); return; }
    // A home of their own: a test that opens a harness on a temporary workspace would otherwise leave
    // that workspace's kept sandbox lists in the user's ~/.alfred/run/sandbox (and npm its logs in ~/.npm).
    // A hook call there starts no hook server (ALFRED_HOOK_SERVER=existing): it would outlive its test.
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-unit-home-'));
    try {
      await nodeTests('unit', slowestFirst(listFiles(path.join(ROOT, 'test', 'unit'), '.test.ts'), UNIT_SLOWEST),
        { HOME: home, USERPROFILE: home, ALFRED_HOME: path.join(home, '.alfred'), ALFRED_HOOK_SERVER: 'existing' }, [], { inOrder: true });
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  },
  /**
   * The real agent clients (Claude Code, Codex, the Copilot CLI, Gemini CLI, dev dependencies) driven by
   * a scripted model on loopback through the adversarial corpus and the promises about their sessions.
   * Each client gets a home of its own from the tests; this one keeps the test process's own files out
   * of the user's. One file at a time: the corpus file runs two client sessions at once itself.
   */
  async agents() {
    if (!builtThisRun && await sh('node', ['build.mjs'], { limitMs: STAGE_LIMIT.agents }) !== 0) { record('agents', 0, 1, 0, 'the build failed'); return; }
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-agents-home-'));
    try {
      await nodeTests('agents', listFiles(path.join(ROOT, 'test', 'agents'), '.agents.ts'),
        { HOME: home, USERPROFILE: home, ALFRED_HOME: path.join(home, '.alfred') }, [], { inOrder: true, concurrency: 1 });
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  },
  async setup() {
    try {
      ensureDebianPackages();
    } catch (err) {
      setupFailed(err instanceof InstallError ? err.message : String(err?.stack ?? err));
      return;
    }
    pendingSetup = installInBackground();
    // Alone, or with no static checks next, there is nothing to run meanwhile.
    if (!WHILE_INSTALLING.includes(stages[stages.indexOf('setup') + 1])) await awaitSetup();
  },
  async integration() {
    const code = await sh('node', ['build.mjs', '--tests'], { limitMs: STAGE_LIMIT.integration });
    if (code !== 0) { record('integration', 0, 1, 0, 'the test build failed'); return; }
    const r = await withLimit(runIntegration({ grep: process.env.ALFRED_TEST_GREP }), STAGE_LIMIT.integration);
    for (const t of r.tests) console.log(`${t.ok ? '✔' : '✖'} ${t.title} (${t.duration ?? 0} ms)`);
    for (const f of r.failures) console.error(`\n✖ ${f.title}\n${f.error}\n`);
    if (r.failures.length) console.error(`integration logs: ${r.logDir}`);
    record('integration', r.passed, Math.max(r.failed, r.failures.length), r.pending ?? 0);
  },
  async e2e() {
    const code = await sh('npm', ['run', '-s', 'package'], { limitMs: STAGE_LIMIT.e2e });
    if (code !== 0) { record('e2e', 0, 1, 0, 'packaging the VSIX failed'); return; }
    // --test-force-exit: a test file whose workbench failed to start must not keep its process alive.
    await nodeTests('e2e', slowestFirst(listFiles(path.join(ROOT, 'test', 'e2e'), '.e2e.ts'), E2E_SLOWEST),
      { ALFRED_VSIX: path.join(ROOT, 'dist', 'alfred.vsix') }, ['--test-force-exit', '--test-timeout=480000'], { inOrder: true });
  },
};

/**
 * What the unit stage needs before its tests, made while the install may still run (a core is free
 * then): the built `alfred`, which some unit tests run as agents do, built once and fresh; and tsx's
 * compile cache filled with the modules the tests load (measured here: the stage took 220 s on a cold
 * cache, 198 s after this, 192 s on a cache a whole stage had filled). Resolves to why it failed.
 */
async function prepareUnit() {
  if (await sh('node', ['build.mjs'], { limitMs: STAGE_LIMIT.unit }) !== 0) return 'the build failed';
  builtThisRun = true;
  await sh(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', 'lib', 'warmCompileCache.mjs')], { limitMs: STAGE_LIMIT.unit });
  return undefined;
}
let unitNotReady;
/** Whether `alfred` was built in this run already (the unit stage builds it; the agents stage needs it too). */
let builtThisRun = false;

/** The private VS Code's install, under way in a child process while other stages run. */
let pendingSetup = null;
let setupChild = null;

function setupFailed(reason) {
  console.error(`✖ setup: ${reason}\n  The next run starts the install over.`);
  record('setup', 0, 1, 0, reason.split('\n')[0]);
}

/**
 * Runs scripts/lib/installChild.mjs in a process group of its own, without the run's mark, so the
 * leftovers stopped after each stage do not include it (an interrupted run stops it itself). Resolves
 * to the reason it failed, or undefined.
 */
function installInBackground() {
  const env = { ...process.env };
  delete env[RUN_VARIABLE];
  const since = Date.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'lib', 'installChild.mjs')], { cwd: ROOT, stdio: ['ignore', 'inherit', 'pipe'], detached: true, env });
  setupChild = child;
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => { process.stderr.write(chunk); err += chunk; });
  const done = new Promise((resolve) => {
    child.on('error', (e) => resolve(`the install could not start: ${e.message}`));
    child.on('close', (code, signal) => {
      setupChild = null;
      seconds.setup = Math.round((Date.now() - since) / 1000);
      resolve(code === 0 ? undefined : err.trim().split('\n').at(-1) || `the install exited with ${code ?? signal}`);
    });
  });
  return withLimit(done, STAGE_LIMIT.setup).catch((e) => { killGroup(child.pid); return e.message; });
}

/** Waits for the install started by the setup stage, and records how it went. */
async function awaitSetup() {
  if (!pendingSetup) return;
  const reason = await pendingSetup;
  pendingSetup = null;
  if (reason === undefined) record('setup', 1, 0);
  else setupFailed(reason);
}

function withLimit(promise, limitMs) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`ran past its limit of ${limitMs / MINUTE} minutes and was stopped`)), limitMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function finish(extra) {
  if (extra) record(extra.stage, 0, 1, 0, extra.reason);
  const left = await stopRun(runId);
  if (left > 0) console.log(`(stopped ${left} process${left === 1 ? '' : 'es'} the tests left running)`);
  const total = results.reduce((a, r) => ({ passed: a.passed + r.passed, failed: a.failed + r.failed, skipped: a.skipped + r.skipped }), { passed: 0, failed: 0, skipped: 0 });
  const took = (stage) => (seconds[stage] === undefined ? '' : ` (${seconds[stage]} s)`);
  console.log('\n' + results.map((r) => `${r.stage}: ${r.passed} passed, ${r.failed} failed${took(r.stage)}${r.reason ? ` — ${r.reason}` : ''}`).join('\n'));
  const failedStages = results.filter((r) => r.failed > 0).map((r) => r.stage);
  if (failedStages.length) console.log(`failed: ${failedStages.join(', ')}\n(the tests' temporary folders, their logs among them, are kept in ${runTmp})`);
  else fs.rmSync(runTmp, { recursive: true, force: true, maxRetries: 3 });
  console.log(`(${Math.round((Date.now() - started) / 1000)} s)`);
  console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
  process.exit(total.failed > 0 || total.passed === 0 ? 1 : 0);
}

let finishing = false;
function interrupt(stage, reason) {
  if (finishing) return;
  finishing = true;
  current?.kill();
  if (setupChild) killGroup(setupChild.pid);
  void finish({ stage, reason });
}
process.on('SIGINT', () => interrupt('interrupted', 'Ctrl-C: the run was stopped and everything it started with it'));
process.on('SIGTERM', () => interrupt('interrupted', 'SIGTERM: the run was stopped and everything it started with it'));
setTimeout(() => interrupt('run', `the whole run passed its limit of ${RUN_LIMIT / MINUTE} minutes`), RUN_LIMIT).unref();

for (const stage of stages) {
  if (finishing) break;
  process.stdout.write(`\n━━ ${stage} ━━\n`);
  const before = results.length;
  try {
    if (stage === 'unit') unitNotReady = await prepareUnit();
    if (!WHILE_INSTALLING.includes(stage)) await awaitSetup();
    if ((stage === 'integration' || stage === 'e2e') && results.some((r) => r.stage === 'setup' && r.failed > 0)) {
      record(stage, 0, 1, 0, 'not run: the set-up of the private VS Code failed');
      continue;
    }
    const since = Date.now();
    await runners[stage]();
    if (stage !== 'setup') seconds[stage] = Math.round((Date.now() - since) / 1000);
  } catch (err) {
    console.error(`✖ ${stage}: ${err?.stack ?? err}`);
    if (results.length === before) record(stage, 0, 1, 0, String(err?.message ?? err).split('\n')[0]);
  }
  // Whatever a stage left running (a workbench that never started, a hung browser) stops here.
  if (!finishing) await stopRun(runId);
}
if (!finishing) {
  await awaitSetup();
  finishing = true;
  await finish();
}
