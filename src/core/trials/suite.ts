/**
 * A trial suite (`.alfred/trials.toml`, issue 15): tasks, each run N times under each condition, N and
 * the stop rule fixed in the file before any run. Validated like role and checks files: every problem
 * names the file and the key, never throws, and a broken task or condition is left out while the
 * others still load.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { CHECKS_PATH } from '../protect/checksFile';
import { canonicalJson, shortHash } from '../models/fingerprint/fingerprint';
import { tomlTypeName } from '../base/tomlValue';
import { isObject } from '../base/isObject';

export const SUITE_PATH = '.alfred/trials.toml';
/** The stop rules a suite may name; "all" runs every trial of the plan. */
export const STOP_RULES = ['all'] as const;
export type StopRule = (typeof STOP_RULES)[number];
/** Fingerprint components a condition may set (labels as `label.<name>`). */
export const CONDITION_COMPONENTS = ['model', 'endpoint', 'role', 'pack', 'persona', 'handoff'] as const;
const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export interface TrialBudget {
  tokens: number;
  seconds: number;
  usd: number;
}

export interface TrialTask {
  id: string;
  prompt: string;
  /** A commit or checkpoint ref; resolved to a sha when a trial starts. */
  start: string;
  /** Workspace-relative checks file (the completion checks format) that decides acceptance. */
  checks: string;
  /** Checks run after an accepted trial: one failing there is an escaped defect. */
  hiddenChecks?: string;
  budget: TrialBudget;
}

export interface TrialCondition {
  name: string;
  control: boolean;
  /** Fingerprint component → the value this condition sets (`handoff = "on"`, `label.temperature = "0.2"`). */
  components: Record<string, string>;
}

export interface TrialSuite {
  /** The `name` key, else the file's stem: the folder of its outcomes (`.alfred/trials/<name>/`). */
  name: string;
  path: string;
  trials: number;
  stop: StopRule;
  tasks: TrialTask[];
  conditions: TrialCondition[];
}

export interface SuiteProblem {
  path: string;
  /** TOML key path, e.g. `task[1].budget.tokens`; empty when the whole file is at fault. */
  key: string;
  message: string;
}

export interface SuiteParse {
  suite?: TrialSuite;
  problems: SuiteProblem[];
}

type Report = (key: string, message: string) => void;
type Table = Record<string, unknown>;

const TOP_KEYS = ['name', 'trials', 'stop', 'task', 'condition'];
const TASK_KEYS = ['id', 'prompt', 'start', 'checks', 'hidden_checks', 'budget'];
const BUDGET_KEYS = ['tokens', 'seconds', 'usd'] as const;
const CONDITION_KEYS = ['name', 'control', 'components'];

export function suiteFilePath(workspaceFolder: string): string {
  return path.join(workspaceFolder, ...SUITE_PATH.split('/'));
}

/** Reads and parses a suite file; one that cannot be read is a problem, not an exception. */
export function loadSuite(file: string): SuiteParse {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    return { problems: [{ path: file, key: '', message: missing ? 'no such file: write the suite there first' : `cannot read the file: ${(err as Error).message}` }] };
  }
  return parseSuite(text, file);
}

/**
 * The suite in `text` (read from `file`). No suite when the file cannot be parsed, `trials` or `stop`
 * is invalid, no task is valid, or the valid conditions do not have exactly one control: nothing
 * could be run or compared.
 */
export function parseSuite(text: string, file: string): SuiteParse {
  const problems: SuiteProblem[] = [];
  const report: Report = (key, message) => void problems.push({ path: file, key, message });
  let doc: Table;
  try {
    doc = parse(text) as Table;
  } catch (err) {
    const message = err instanceof TomlError
      ? `TOML syntax error at line ${err.line}, column ${err.column}: ${err.message.split('\n')[0]}`
      : `cannot parse TOML: ${String(err)}`;
    return { problems: [{ path: file, key: '', message }] };
  }
  for (const key of Object.keys(doc)) {
    if (!TOP_KEYS.includes(key)) report(key, `unknown key "${key}" (expected ${TOP_KEYS.join(', ')})`);
  }
  const stem = path.basename(file).replace(/\.toml$/i, '');
  let name = stem;
  if (doc.name !== undefined) {
    if (typeof doc.name === 'string' && NAME.test(doc.name)) name = doc.name;
    else report('name', `must be a name of letters, digits, "_", "-" or "." (at most 64), got ${tomlTypeName(doc.name)}`);
  }
  const trials = positiveInteger(doc.trials, 'trials', report);
  let stop: StopRule | undefined = 'all';
  if (doc.stop !== undefined && !STOP_RULES.includes(doc.stop as StopRule)) {
    report('stop', `must be one of ${STOP_RULES.map((s) => `"${s}"`).join(', ')}, got ${tomlTypeName(doc.stop)}`);
    stop = undefined;
  }
  const tasks = readList(doc.task, 'task', report, readTask);
  const conditions = readList(doc.condition, 'condition', report, readCondition);
  uniqueBy(tasks, (t) => t.id, 'task', 'id', report);
  uniqueBy(conditions, (c) => c.name, 'condition', 'name', report);
  if (tasks.length === 0) report('task', 'the suite has no valid task ([[task]] with id, prompt and budget)');
  const controls = conditions.filter((c) => c.control).length;
  if (controls !== 1) report('condition', `exactly one condition must have control = true, found ${controls}`);
  if (trials === undefined || stop === undefined || tasks.length === 0 || controls !== 1) return { problems };
  return { suite: { name, path: file, trials, stop, tasks, conditions }, problems };
}

/** Short sha256 of the plan's canonical JSON (trials, stop, tasks): kept with every outcome. */
export function suiteHash(suite: Pick<TrialSuite, 'trials' | 'stop' | 'tasks'>): string {
  return shortHash(canonicalJson({ trials: suite.trials, stop: suite.stop, tasks: suite.tasks }));
}

export interface TaskInstanceInputs {
  task: string;
  prompt: string;
  /** The start commit's full sha, resolved. */
  startSha: string;
  /** sha256 of the checks file's bytes (`shortHash`), or `none`. */
  checksHash: string;
  budget: TrialBudget;
}

/** A task as it really ran: the same id means the same prompt, start commit, checks and budget. */
export function taskInstanceId(i: TaskInstanceInputs): string {
  return shortHash(canonicalJson({ task: i.task, prompt: i.prompt, startSha: i.startSha, checksHash: i.checksHash, budget: i.budget }));
}

function readList<T>(value: unknown, key: string, report: Report, read: (t: Table, at: string, report: Report) => T | undefined): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    report(key, `must be an array of tables: write each one as [[${key}]], not [${key}]`);
    return [];
  }
  return value.flatMap((raw, i) => {
    const at = `${key}[${i}]`;
    if (!isTable(raw)) {
      report(at, `must be a table ([[${key}]]), got ${tomlTypeName(raw)}`);
      return [];
    }
    let found = 0;
    const counted: Report = (k, m) => {
      found++;
      report(k, m);
    };
    const item = read(raw, at, counted);
    // An entry with any problem is left out: half a task or condition would measure something else.
    return item !== undefined && found === 0 ? [item] : [];
  });
}

function readTask(t: Table, at: string, report: Report): TrialTask | undefined {
  unknownKeys(t, TASK_KEYS, at, report);
  const id = requiredString(t.id, `${at}.id`, report);
  if (id !== undefined && !NAME.test(id)) report(`${at}.id`, `"${id}" must be letters, digits, "_", "-" or "." (at most 64)`);
  const prompt = requiredString(t.prompt, `${at}.prompt`, report);
  const start = t.start === undefined ? 'HEAD' : requiredString(t.start, `${at}.start`, report);
  const checks = t.checks === undefined ? CHECKS_PATH : relativePath(t.checks, `${at}.checks`, report);
  const hiddenChecks = t.hidden_checks === undefined ? undefined : relativePath(t.hidden_checks, `${at}.hidden_checks`, report);
  const budget = readBudget(t.budget, `${at}.budget`, report);
  if (id === undefined || prompt === undefined || start === undefined || checks === undefined || budget === undefined) return undefined;
  return { id, prompt, start, checks, ...(hiddenChecks !== undefined ? { hiddenChecks } : {}), budget };
}

function readBudget(value: unknown, at: string, report: Report): TrialBudget | undefined {
  if (value === undefined) {
    report(at, 'is required: budget = { tokens = N, seconds = N, usd = N }');
    return undefined;
  }
  if (!isTable(value)) {
    report(at, `must be a table (budget = { tokens = N, seconds = N, usd = N }), got ${tomlTypeName(value)}`);
    return undefined;
  }
  unknownKeys(value, BUDGET_KEYS, at, report);
  const out: Partial<TrialBudget> = {};
  for (const k of BUDGET_KEYS) {
    const v = value[k];
    if (v === undefined) report(`${at}.${k}`, 'is required');
    else if ((typeof v !== 'number' && typeof v !== 'bigint') || !(Number(v) > 0) || !Number.isFinite(Number(v))) report(`${at}.${k}`, `must be a number more than 0, got ${tomlTypeName(v)}`);
    else out[k] = Number(v);
  }
  return out.tokens !== undefined && out.seconds !== undefined && out.usd !== undefined ? (out as TrialBudget) : undefined;
}

function readCondition(t: Table, at: string, report: Report): TrialCondition | undefined {
  unknownKeys(t, CONDITION_KEYS, at, report);
  const name = requiredString(t.name, `${at}.name`, report);
  if (name !== undefined && !NAME.test(name)) report(`${at}.name`, `"${name}" must be letters, digits, "_", "-" or "." (at most 64)`);
  let control = false;
  if (t.control !== undefined) {
    if (typeof t.control !== 'boolean') report(`${at}.control`, `must be true or false, got ${tomlTypeName(t.control)}`);
    else control = t.control;
  }
  const components: Record<string, string> = {};
  if (t.components !== undefined) {
    if (!isTable(t.components)) report(`${at}.components`, `must be a table ([condition.components]), got ${tomlTypeName(t.components)}`);
    else readComponents(t.components, `${at}.components`, report, components);
  }
  return name === undefined ? undefined : { name, control, components };
}

/** `label.x = "v"` may arrive dotted (a nested `label` table) or quoted (`"label.x" = "v"`): both read as `label.x`. */
function readComponents(t: Table, at: string, report: Report, out: Record<string, string>): void {
  for (const [key, value] of Object.entries(t)) {
    if (key === 'label' && isTable(value)) {
      for (const [label, v] of Object.entries(value)) setComponent(`label.${label}`, v, `${at}.label.${label}`, report, out);
    } else if ((CONDITION_COMPONENTS as readonly string[]).includes(key) || /^label\.[^.]+$/.test(key)) {
      setComponent(key, value, `${at}.${key}`, report, out);
    } else {
      report(`${at}.${key}`, `unknown component "${key}" (expected ${CONDITION_COMPONENTS.join(', ')} or label.<name>)`);
    }
  }
}

function setComponent(name: string, value: unknown, at: string, report: Report, out: Record<string, string>): void {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') out[name] = String(value);
  else report(at, `must be a string, a number or true/false, got ${tomlTypeName(value)}`);
}

function uniqueBy<T>(items: T[], keyOf: (t: T) => string, list: string, field: string, report: Report): void {
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const k = keyOf(items[i]!);
    if (seen.has(k)) {
      report(list, `"${k}" is the ${field} of more than one ${list}; the later one is left out`);
      items.splice(i--, 1);
    } else seen.add(k);
  }
}

function positiveInteger(value: unknown, key: string, report: Report): number | undefined {
  if (value === undefined) {
    report(key, 'is required: the number of trials per task and condition, fixed before any run');
    return undefined;
  }
  const n = Number(value);
  if ((typeof value !== 'number' && typeof value !== 'bigint') || !Number.isInteger(n) || n < 1 || n > 10_000) {
    report(key, `must be a whole number from 1 to 10000, got ${tomlTypeName(value)}`);
    return undefined;
  }
  return n;
}

function requiredString(value: unknown, key: string, report: Report): string | undefined {
  if (value === undefined) {
    report(key, 'is required');
    return undefined;
  }
  if (typeof value !== 'string' || value.trim() === '') {
    report(key, `must be a non-empty string, got ${tomlTypeName(value)}`);
    return undefined;
  }
  return value;
}

function relativePath(value: unknown, key: string, report: Report): string | undefined {
  const p = requiredString(value, key, report);
  if (p === undefined) return undefined;
  if (path.isAbsolute(p) || /^[A-Za-z]:/.test(p)) report(key, `"${p}" must be relative to the workspace folder`);
  else if (p.split(/[\\/]/).includes('..')) report(key, `"${p}" may not leave the workspace folder (..)`);
  else return p.replace(/\\/g, '/');
  return undefined;
}

function unknownKeys(t: Table, allowed: readonly string[], at: string, report: Report): void {
  for (const key of Object.keys(t)) {
    if (!allowed.includes(key)) report(`${at}.${key}`, `unknown key "${key}" (expected ${allowed.join(', ')})`);
  }
}

function isTable(v: unknown): v is Table {
  return isObject(v) && !(v instanceof Date);
}
