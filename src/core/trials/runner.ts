/**
 * `alfred trial run`: every task under every condition N times, in the order trial → task →
 * condition (so drift over time falls on all conditions alike), each trial in its own worktree with
 * its own state folder and exactly its task's budget, through the headless agent loop, decided by
 * the harness's checks. Every started trial is recorded; a resumed run records the trials a dead run
 * left unfinished as `interrupted` and starts only trials never started (the outcomes contract).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CHECKS_PATH } from '../protect/checksFile';
import { harnessFingerprint, shortHash, type HarnessFingerprint } from '../models/fingerprint/fingerprint';
import { isEndpoint, providerEndpoint } from '../models/fingerprint/endpoint';
import { readFingerprintFiles } from '../models/fingerprint/files';
import type { PricingOptions } from '../rules/budget/prices';
import type { ProviderConfig } from '../models/providers/types';
import { loadPacks } from '../workflow/packs/loader';
import { loadRoles } from '../rules/roles/loader';
import { pickModel, providerModel } from '../agent/model';
import type { LoopToolCall } from '../agent/loop';
import { applyComponents, refusedComponents, type AppliedComponents } from './components';
import { evaluateTrial } from './evaluate';
import { trialKey, type StartedLine, type TrialOutcome, type TrialStatus } from './outcome';
import { duplicatedActions, runTrialSessions } from './session';
import { claimTrial, noteSuiteHash, outcomesPath, planResume, readOutcomes, recordEnded, recordInterrupted, type InterruptedFill } from './store';
import { suiteHash, taskInstanceId, type TrialCondition, type TrialSuite, type TrialTask } from './suite';
import { takeRunLock } from './runLock';
import { TrialHarness } from './trialHarness';
import { addWorktree, removeLeftovers, removeWorktree, resolveStart } from './worktree';

export interface RunSuiteOptions {
  /** The repository the suite belongs to (its outcomes are kept there). */
  workspaceFolder: string;
  suite: TrialSuite;
  /** Run only this condition's trials. */
  condition?: string;
  providers: readonly ProviderConfig[];
  /** The provider's key for a request (undefined: none). */
  apiKey(provider: ProviderConfig): Promise<string | undefined>;
  builtinRolesDir: string;
  /** The built-in packs (a condition's `pack` is looked up there and in the repository's `.alfred/packs/`). */
  builtinPacksDir: string;
  version: string;
  /** Worktrees and per-trial state live here, outside the repository. */
  trialsRoot: string;
  pricing?: () => PricingOptions;
  /** Stops the run: the running trial is recorded `interrupted`, none is started after it. */
  signal?: AbortSignal;
  maxToolRounds?: number;
  /** Fresh sessions a trial may start after a model failure (default 1). */
  resumes?: number;
  onProgress?(event: RunProgress): void;
}

export type RunProgress =
  | { kind: 'plan'; planned: number; toRun: number; done: number; interrupted: number }
  | { kind: 'start'; key: string; index: number; total: number }
  | { kind: 'tool'; key: string; call: LoopToolCall }
  | { kind: 'end'; key: string; index: number; total: number; outcome: TrialOutcome };

export interface RunReport {
  /** Set when nothing ran because the suite cannot be run as written: every reason. */
  refused?: string[];
  outcomesFile: string;
  planned: number;
  /** Trials this run ran (in order). */
  ran: TrialOutcome[];
  /** Trials a dead run left unfinished, recorded `interrupted` by this one. */
  recordedInterrupted: TrialOutcome[];
  /** Planned trials already started by an earlier run. */
  alreadyStarted: number;
  suiteChanged: boolean;
}

interface PreparedTask {
  task: TrialTask;
  sha: string;
  instance: string;
  checks: Buffer | null;
  hidden?: { text: string; path: string };
}

interface PreparedCondition {
  condition: TrialCondition;
  applied: AppliedComponents;
  provider: ProviderConfig;
  model: string;
  packs: Array<{ name: string; context: string }>;
  apiKey?: string;
}

const DEFAULT_MAX_TOOL_ROUNDS = 25;

export async function runSuite(opts: RunSuiteOptions): Promise<RunReport> {
  const { suite, workspaceFolder: ws } = opts;
  const file = outcomesPath(ws, suite.name);
  const report: RunReport = { outcomesFile: file, planned: 0, ran: [], recordedInterrupted: [], alreadyStarted: 0, suiteChanged: false };
  const conditions = suite.conditions.filter((c) => opts.condition === undefined || c.name === opts.condition);
  if (conditions.length === 0) return { ...report, refused: [`the suite has no condition named "${opts.condition}"`] };

  // Every condition is checked (role, packs, model, key) even when some component is refused: each refusal is named.
  const refused = refusedComponents(conditions);
  const prepared = prepareConditions(conditions, opts, refused);
  const tasks = await prepareTasks(suite.tasks, ws, refused);
  // A key that does not resolve would fail every trial alike: refused before any starts.
  for (const c of prepared) {
    try {
      c.apiKey = await opts.apiKey(c.provider);
    } catch (err) {
      refused.push(`condition ${c.condition.name}: ${(err as Error).message}`);
    }
  }
  if (refused.length > 0) return { ...report, refused };

  const lock = takeRunLock(opts.trialsRoot);
  if ('heldBy' in lock) return { ...report, refused: [`another alfred trial run (pid ${lock.heldBy}) is running suite ${suite.name}`] };
  try {
    return await runPlanned(opts, report, prepared, tasks);
  } finally {
    lock.release();
  }
}

async function runPlanned(opts: RunSuiteOptions, report: RunReport, prepared: readonly PreparedCondition[], tasks: readonly PreparedTask[]): Promise<RunReport> {
  const { suite, workspaceFolder: ws } = opts;
  const file = report.outcomesFile;
  const hash = suiteHash(suite);
  const now = () => new Date().toISOString();
  const read = readOutcomes(file);
  report.suiteChanged = noteSuiteHash(file, read, hash, now()) !== null;
  const planned: Array<{ key: string; condition: PreparedCondition; task: PreparedTask; trial: number }> = [];
  for (let trial = 1; trial <= suite.trials; trial++) {
    for (const task of tasks) for (const condition of prepared) planned.push({ key: trialKey(condition.condition.name, task.task.id, trial), condition, task, trial });
  }
  report.planned = planned.length;
  const plan = planResume(read, planned.map((p) => p.key));
  report.alreadyStarted = planned.length - plan.toRun.length;

  // A crashed run's worktrees go before anything starts; its unfinished trials are counted, never rerun.
  await removeLeftovers(ws, path.join(opts.trialsRoot, 'worktrees'));
  const fill = (s: StartedLine): InterruptedFill => interruptedFill(s, read.outcomes, suite, prepared, tasks, hash, opts.version, opts.builtinRolesDir, ws);
  if (plan.interrupted.length) report.recordedInterrupted = recordInterrupted(file, plan.interrupted, fill, now());
  opts.onProgress?.({ kind: 'plan', planned: planned.length, toRun: plan.toRun.length, done: report.alreadyStarted, interrupted: plan.interrupted.length });

  const toRun = new Set(plan.toRun);
  let index = report.alreadyStarted;
  for (const p of planned) {
    if (!toRun.has(p.key)) continue;
    if (opts.signal?.aborted) break;
    const startedAt = now();
    if (!(await claimTrial(file, { condition: p.condition.condition.name, task: p.task.task.id, trial: p.trial, instance: p.task.instance, at: startedAt }))) continue;
    index++;
    opts.onProgress?.({ kind: 'start', key: p.key, index, total: planned.length });
    const outcome = await runTrial(p, startedAt, hash, opts);
    recordEnded(file, outcome);
    report.ran.push(outcome);
    opts.onProgress?.({ kind: 'end', key: p.key, index, total: planned.length, outcome });
  }
  return report;
}

async function runTrial(p: { key: string; condition: PreparedCondition; task: PreparedTask; trial: number }, startedAt: string, hash: string, opts: RunSuiteOptions): Promise<TrialOutcome> {
  const { task, condition } = p;
  const t0 = Date.now();
  const dir = path.join(opts.trialsRoot, 'worktrees', shortHash(p.key));
  const home = path.join(opts.trialsRoot, 'homes', shortHash(p.key));
  let fingerprint = conditionFingerprint(condition, task, opts.workspaceFolder, opts.version, opts.builtinRolesDir);
  let status: TrialStatus;
  let escapedDefect: boolean | null = null;
  let detail: string | undefined;
  let calls: LoopToolCall[] = [];
  let tokens = 0;
  let costUsd = 0;
  try {
    await addWorktree(opts.workspaceFolder, dir, task.sha);
    placeChecks(dir, task.checks);
    fs.rmSync(home, { recursive: true, force: true });
    fs.mkdirSync(home, { recursive: true });
    const harness = new TrialHarness({
      worktree: dir, home, builtinRolesDir: opts.builtinRolesDir, version: opts.version, role: condition.applied.role, budget: task.task.budget,
      ...(opts.pricing ? { pricing: opts.pricing } : {}),
    });
    await harness.sync();
    const model = providerModel(condition.provider, condition.model, condition.apiKey);
    fingerprint = harness.fingerprint({ model: model.id, endpoint: model.endpoint, ...configurationOf(condition) });
    const run = await runTrialSessions({
      harness, model, prompt: task.task.prompt, handoff: condition.applied.handoff, packs: condition.packs, persona: condition.applied.persona, deadline: t0 + task.task.budget.seconds * 1000,
      tokenLimit: task.task.budget.tokens, maxToolRounds: opts.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS, resumes: opts.resumes ?? 1,
      ...(opts.signal ? { signal: opts.signal } : {}),
      onToolCall: (call) => opts.onProgress?.({ kind: 'tool', key: p.key, call }),
    });
    ({ toolCalls: calls, tokens, costUsd } = run);
    const sessions = run.sessions > 1 ? ` after ${run.sessions} sessions` : '';
    if (run.stopped === 'interrupted') [status, detail] = ['interrupted', 'the run was stopped during this trial'];
    else if (run.stopped === 'timeout') [status, detail] = ['timeout', `the agent did not finish within ${task.task.budget.seconds} s`];
    else if (run.stopped === 'budget' || run.stopped === 'over-cap') {
      [status, detail] = ['budget-exhausted', run.stopped === 'over-cap' ? 'the next request could have passed the cost budget: not sent' : `the budget ran out (${tokens} model tokens, $${costUsd.toFixed(4)})`];
    } else {
      const verdict = await evaluateTrial(harness, task.hidden, opts.signal);
      const policy = calls.filter((c) => c.refused && c.code !== 'budget-exhausted' && c.code !== 'invalid-input');
      escapedDefect = verdict.escapedDefect;
      const why = run.stopped === 'error' ? ` The model failed${sessions}: ${run.error?.message ?? 'unknown error'}.` : '';
      if (opts.signal?.aborted) [status, detail] = ['interrupted', 'the run was stopped while the checks ran'];
      else if (verdict.status === 'rejected' && policy.length > 0) {
        [status, detail] = ['policy-stop', `${verdict.detail} The role refused ${policy.map((c) => `${c.name} (${c.code ?? 'refused'})`).join(', ')}.${why}`];
      } else [status, detail] = [verdict.status, `${verdict.detail}${why}`];
    }
  } catch (err) {
    status = 'harness-crash';
    detail = (err as Error).stack?.split('\n').slice(0, 3).join(' ') ?? String(err);
  } finally {
    await removeWorktree(opts.workspaceFolder, dir).catch(() => undefined);
  }
  return {
    condition: condition.condition.name, task: task.task.id, trial: p.trial, instance: task.instance, suiteHash: hash, fingerprint, status,
    escapedDefect: status === 'accepted' ? escapedDefect : null, duplicatedToolActions: duplicatedActions(calls), tokens, costUsd: round(costUsd),
    wallMs: Date.now() - t0, budget: task.task.budget, startedAt, endedAt: new Date().toISOString(), ...(detail ? { detail } : {}),
  };
}

/** The task's checks are the ones that decide, whatever the start commit holds at that path. */
function placeChecks(worktree: string, checks: Buffer | null): void {
  const target = path.join(worktree, ...CHECKS_PATH.split('/'));
  if (checks === null) {
    fs.rmSync(target, { force: true });
    return;
  }
  const current = fs.existsSync(target) ? fs.readFileSync(target) : null;
  if (current && current.equals(checks)) return;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, checks);
}

function prepareConditions(conditions: readonly TrialCondition[], opts: RunSuiteOptions, refused: string[]): PreparedCondition[] {
  const roles = loadRoles({ workspaceFolder: opts.workspaceFolder, homeDir: os.homedir(), builtinDir: opts.builtinRolesDir, trusted: true }).roles;
  const packs = loadPacks({ builtinDir: opts.builtinPacksDir, workspaceFolder: opts.workspaceFolder, trusted: true }).packs;
  const out: PreparedCondition[] = [];
  for (const condition of conditions) {
    const { applied } = applyComponents(condition);
    if (!roles.has(applied.role)) refused.push(`condition ${condition.name}: role "${applied.role}" does not exist`);
    const missing = applied.packs.filter((name) => !packs.has(name));
    if (missing.length) refused.push(`condition ${condition.name}: ${missing.map((m) => `pack "${m}"`).join(', ')} does not exist`);
    const endpoint = applied.endpoint;
    const picked = pickModel(endpoint ? opts.providers.filter((p) => isEndpoint(p, endpoint)) : opts.providers, applied.model);
    if ('problem' in picked) refused.push(`condition ${condition.name}: ${picked.problem}`);
    else {
      const chosen = applied.packs.flatMap((name) => { const pack = packs.get(name); return pack ? [{ name, context: pack.context }] : []; });
      out.push({ condition, applied, provider: picked.provider, model: picked.model, packs: chosen });
    }
  }
  return out;
}

async function prepareTasks(tasks: readonly TrialTask[], ws: string, refused: string[]): Promise<PreparedTask[]> {
  const out: PreparedTask[] = [];
  for (const task of tasks) {
    let sha: string;
    try {
      sha = await resolveStart(ws, task.start);
    } catch (err) {
      refused.push(`task ${task.id}: ${(err as Error).message}`);
      continue;
    }
    const checks = readOrNull(path.join(ws, task.checks));
    if (checks === null) refused.push(`task ${task.id}: its checks file ${task.checks} does not exist`);
    let hidden: PreparedTask['hidden'];
    if (task.hiddenChecks) {
      const text = readOrNull(path.join(ws, task.hiddenChecks));
      if (text === null) refused.push(`task ${task.id}: its hidden checks file ${task.hiddenChecks} does not exist`);
      else hidden = { text: text.toString('utf8'), path: task.hiddenChecks };
    }
    const instance = taskInstanceId({ task: task.id, prompt: task.prompt, startSha: sha, checksHash: checks ? shortHash(checks) : 'none', budget: task.budget });
    out.push({ task, sha, instance, checks, ...(hidden ? { hidden } : {}) });
  }
  return out;
}

function readOrNull(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}

/**
 * A condition's fingerprint without a worktree (for a trial that never got that far): the same
 * components a trial's harness gives (the role as its file sets it), with the task's checks and the
 * repository's prompt files.
 */
function conditionFingerprint(c: PreparedCondition, task: PreparedTask, ws: string, version: string, builtinRolesDir: string): HarnessFingerprint {
  const roles = loadRoles({ workspaceFolder: ws, homeDir: os.homedir(), builtinDir: builtinRolesDir, trusted: true }).roles;
  return harnessFingerprint({
    ...readFingerprintFiles(ws), checks: task.checks, alfred: version, role: roles.get(c.applied.role)!,
    model: c.model, endpoint: providerEndpoint(c.provider), ...configurationOf(c),
  });
}

/** The pack, persona and handoff components a condition's requests carry (packs joined with `+`, as @alfred's). */
function configurationOf(c: PreparedCondition): { pack: string; persona: boolean; handoff: boolean } {
  return { pack: c.packs.length ? c.packs.map((p) => p.name).join('+') : 'off', persona: c.applied.persona, handoff: c.applied.handoff };
}

/** What an `interrupted` line records: an earlier outcome's fingerprint for the same condition and task when there is one. */
function interruptedFill(s: StartedLine, outcomes: readonly TrialOutcome[], suite: TrialSuite, conditions: readonly PreparedCondition[], tasks: readonly PreparedTask[], hash: string, version: string, builtinRolesDir: string, ws: string): InterruptedFill {
  const task = tasks.find((t) => t.task.id === s.task);
  const condition = conditions.find((c) => c.condition.name === s.condition);
  const earlier = outcomes.find((o) => o.condition === s.condition && o.task === s.task && o.status !== 'interrupted');
  const budget = task?.task.budget ?? suite.tasks.find((t) => t.id === s.task)?.budget ?? { tokens: 0, seconds: 0, usd: 0 };
  const fingerprint = earlier?.fingerprint ?? (condition && task ? conditionFingerprint(condition, task, ws, version, builtinRolesDir) : { id: 'unknown', components: {} });
  return { suiteHash: hash, fingerprint, budget };
}

const round = (usd: number): number => Math.round(usd * 1e8) / 1e8;
