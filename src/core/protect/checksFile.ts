/**
 * `.alfred/checks.toml` (docs/completion.md): the acceptance checks the harness runs
 * itself, and the `protect` globs agents may not write. Validated like role files: every problem
 * names the file and the key, and never throws.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { tomlTypeName } from '../base/tomlValue';

export const CHECKS_PATH = '.alfred/checks.toml';
export const DEFAULT_TIMEOUT_S = 300;
/** A day: a longer check is a mistake in the file, not a check. */
export const MAX_TIMEOUT_S = 86_400;

export interface CheckSpec {
  name: string;
  /** The command line, run by the platform shell. */
  run: string;
  /** Workspace-relative folder to run it in; '' for the workspace root. */
  cwd: string;
  timeoutS: number;
  required: boolean;
  env: Record<string, string>;
}

export interface ChecksProblem {
  path: string;
  /** TOML key path, e.g. `check[1].timeout_s`; empty when the whole file is at fault. */
  key: string;
  message: string;
}

export interface ChecksConfig {
  path: string;
  exists: boolean;
  /** Only the checks without problems. */
  checks: CheckSpec[];
  /** Only the valid globs (a bad one is reported, the others still protect). */
  protect: string[];
  problems: ChecksProblem[];
  /** TOML could not be parsed at all. */
  syntaxError: boolean;
}

const TOP_KEYS = ['check', 'protect'];
const CHECK_KEYS = ['name', 'run', 'cwd', 'timeout_s', 'required', 'env'];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function checksFilePath(workspaceFolder: string): string {
  return path.join(workspaceFolder, ...CHECKS_PATH.split('/'));
}

/** Reads and validates the workspace's checks file; a missing file is no checks and no problem. */
export function loadChecksFile(workspaceFolder: string): ChecksConfig {
  const file = checksFilePath(workspaceFolder);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    const problems = missing ? [] : [{ path: file, key: '', message: `cannot read the file: ${(err as Error).message}` }];
    return { path: file, exists: !missing, checks: [], protect: [], problems, syntaxError: false };
  }
  return parseChecksFile(text, file);
}

export function parseChecksFile(text: string, file: string): ChecksConfig {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    const message = err instanceof TomlError
      ? `TOML syntax error at line ${err.line}, column ${err.column}: ${err.message.split('\n')[0]}`
      : `cannot parse TOML: ${String(err)}`;
    return { path: file, exists: true, checks: [], protect: [], problems: [{ path: file, key: '', message }], syntaxError: true };
  }
  return validateChecksDocument(doc as Record<string, unknown>, file);
}

function validateChecksDocument(top: Record<string, unknown>, file: string): ChecksConfig {
  const problems: ChecksProblem[] = [];
  const report = (key: string, message: string): void => void problems.push({ path: file, key, message });
  for (const key of Object.keys(top)) {
    if (!TOP_KEYS.includes(key)) report(key, `unknown key "${key}" (expected [[check]] tables and protect = [...])`);
  }
  const protect = readProtect(top.protect, report);
  const checks: CheckSpec[] = [];
  if (top.check !== undefined) {
    if (!Array.isArray(top.check)) {
      report('check', 'must be an array of tables: write each check as [[check]], not [check]');
    } else {
      const names = new Set<string>();
      top.check.forEach((raw, i) => {
        const check = readCheck(raw, `check[${i}]`, report);
        if (!check) return;
        if (names.has(check.name)) {
          report(`check[${i}].name`, `"${check.name}" is already the name of an earlier check; names must be unique`);
          return;
        }
        names.add(check.name);
        checks.push(check);
      });
    }
  }
  return { path: file, exists: true, checks, protect, problems, syntaxError: false };
}

type Report = (key: string, message: string) => void;

function readProtect(value: unknown, report: Report): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    report('protect', `must be an array of glob strings, got ${tomlTypeName(value)}`);
    return [];
  }
  const globs: string[] = [];
  value.forEach((g, i) => {
    const key = `protect[${i}]`;
    if (typeof g !== 'string' || g.trim() === '') report(key, `must be a non-empty glob string, got ${tomlTypeName(g)}`);
    else if (path.isAbsolute(g) || /^[A-Za-z]:/.test(g)) report(key, `"${g}" must be relative to the workspace folder`);
    else if (g.split('/').includes('..')) report(key, `"${g}" may not leave the workspace folder (..)`);
    else globs.push(g);
  });
  return globs;
}

function readCheck(raw: unknown, at: string, outer: Report): CheckSpec | undefined {
  let found = 0;
  const report: Report = (key, message) => {
    found++;
    outer(key, message);
  };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    report(at, `must be a table ([[check]]), got ${tomlTypeName(raw)}`);
    return undefined;
  }
  const t = raw as Record<string, unknown>;
  for (const key of Object.keys(t)) {
    if (!CHECK_KEYS.includes(key)) report(`${at}.${key}`, `unknown key "${key}" (expected ${CHECK_KEYS.join(', ')})`);
  }
  const name = nonEmptyString(t.name, `${at}.name`, report, true);
  const run = nonEmptyString(t.run, `${at}.run`, report, true);
  let cwd = '';
  if (t.cwd !== undefined) {
    const c = nonEmptyString(t.cwd, `${at}.cwd`, report, false);
    if (c !== undefined) {
      if (path.isAbsolute(c) || /^[A-Za-z]:/.test(c)) report(`${at}.cwd`, `"${c}" must be a folder relative to the workspace`);
      else if (c.split(/[\\/]/).includes('..')) report(`${at}.cwd`, `"${c}" may not leave the workspace folder (..)`);
      else cwd = c.replace(/\\/g, '/').replace(/^\.\/?/, '').replace(/\/$/, '');
    }
  }
  let timeoutS = DEFAULT_TIMEOUT_S;
  if (t.timeout_s !== undefined) {
    const v = t.timeout_s;
    if (typeof v !== 'number' && typeof v !== 'bigint') report(`${at}.timeout_s`, `must be a number of seconds, got ${tomlTypeName(v)}`);
    else if (!(Number(v) > 0) || Number(v) > MAX_TIMEOUT_S) report(`${at}.timeout_s`, `must be more than 0 and at most ${MAX_TIMEOUT_S} seconds, got ${String(v)}`);
    else timeoutS = Number(v);
  }
  let required = true;
  if (t.required !== undefined) {
    if (typeof t.required !== 'boolean') report(`${at}.required`, `must be true or false, got ${tomlTypeName(t.required)}`);
    else required = t.required;
  }
  const env: Record<string, string> = {};
  if (t.env !== undefined) {
    if (t.env === null || typeof t.env !== 'object' || Array.isArray(t.env)) {
      report(`${at}.env`, `must be a table of strings (env = { NAME = "value" }), got ${tomlTypeName(t.env)}`);
    } else {
      for (const [k, v] of Object.entries(t.env as Record<string, unknown>)) {
        if (!ENV_NAME.test(k)) report(`${at}.env.${k}`, `"${k}" is not a valid environment variable name`);
        else if (typeof v !== 'string') report(`${at}.env.${k}`, `must be a string, got ${tomlTypeName(v)}`);
        else env[k] = v;
      }
    }
  }
  // A check with any problem is not run: half a check would prove nothing.
  if (found > 0 || name === undefined || run === undefined) return undefined;
  return { name, run, cwd, timeoutS, required, env };
}

function nonEmptyString(value: unknown, key: string, report: Report, requiredKey: boolean): string | undefined {
  if (value === undefined) {
    if (requiredKey) report(key, 'is required');
    return undefined;
  }
  if (typeof value !== 'string' || value.trim() === '') {
    report(key, `must be a non-empty string, got ${tomlTypeName(value)}`);
    return undefined;
  }
  return value;
}
