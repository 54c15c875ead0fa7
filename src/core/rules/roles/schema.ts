/** Validation of one role file (docs/roles-and-budgets.md, Role files): TOML text → the keys it sets + problems. */
import * as path from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { isObject } from '../../base/isObject';
import { TOOL_CATEGORIES } from '../vocabulary/types';
import { isServerPattern } from '../vocabulary/mcpServer';
import { patternProblem } from '../vocabulary/patterns';
import { EXEC_PREFIX, execPatternProblem } from './askEntries';
import type { McpAction, McpRules, RoleLimits, RoleProblem, SandboxMode, ShellPolicy } from './types';
import { readSandboxTable, type SandboxDefinition } from './sandboxSchema';

export const ROLE_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const SHELL_POLICIES: readonly ShellPolicy[] = ['track', 'compress', 'deny'];
export const SANDBOX_MODES: readonly SandboxMode[] = ['strict', 'required', 'auto', 'off'];
export const MCP_ACTIONS: readonly McpAction[] = ['allow', 'ask', 'deny'];
const MCP_KEYS: readonly (keyof McpRules)[] = ['unaudited', 'dead'];

/** A role as written in one file: only the keys the file sets (inheritance not applied). */
export interface RoleDefinition {
  name: string;
  inherits?: string;
  description?: string;
  shellPolicy?: ShellPolicy;
  sandbox?: SandboxMode;
  failClosed?: boolean;
  /** `[sandbox]`: allow_write and [sandbox.network]. */
  sandboxRules?: SandboxDefinition;
  tools: { allowed?: string[]; denied?: string[]; ask?: string[] };
  mcp?: Partial<McpRules>;
  limits: Partial<RoleLimits>;
}

export interface ParsedRoleFile {
  /** Best effort: keys with problems are left out. Only use it when `ok`. */
  definition: RoleDefinition;
  problems: RoleProblem[];
  /** No `error` problem: the role may be loaded. */
  ok: boolean;
}

type LimitKind = 'count' | 'usd' | 'percent';
/** TOML key → field and the kind of number it holds. */
export const LIMIT_KEYS: Readonly<Record<string, readonly [keyof RoleLimits, LimitKind]>> = {
  max_context_tokens: ['maxContextTokens', 'count'],
  max_shell_invocations: ['maxShellInvocations', 'count'],
  max_cost_usd: ['maxCostUsd', 'usd'],
  warn_at_percent: ['warnAtPercent', 'percent'],
  block_at_percent: ['blockAtPercent', 'percent'],
  max_repeated_calls: ['maxRepeatedCalls', 'count'],
  max_subagents: ['maxSubagents', 'count'],
};
const ROLE_KEYS = ['name', 'inherits', 'description', 'shell_policy', 'sandbox', 'fail_closed'];
const TOOL_KEYS = ['allowed', 'denied', 'ask'];
const MAX_PERCENT = 1000;

/** The role name a file defines: its file name without `.toml`. */
export function roleNameFromPath(file: string): string {
  return path.basename(file).replace(/\.toml$/i, '');
}

/** Parses and validates one role file's text; never throws. */
export function parseRoleFile(text: string, file: string): ParsedRoleFile {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    const stem = roleNameFromPath(file);
    const message = err instanceof TomlError
      ? `TOML syntax error at line ${err.line}, column ${err.column}: ${firstLine(err.message)}`
      : `cannot parse TOML: ${String(err)}`;
    return { definition: { name: stem, tools: {}, limits: {} }, ok: false, problems: [{ path: file, key: '', message, role: stem, severity: 'error' }] };
  }
  return validateRoleDocument(doc, file);
}

/** Validates an already parsed TOML document read from `file`. */
export function validateRoleDocument(doc: unknown, file: string): ParsedRoleFile {
  const stem = roleNameFromPath(file);
  const problems: RoleProblem[] = [];
  const report = (key: string, message: string, severity: RoleProblem['severity'] = 'error'): void => {
    problems.push({ path: file, key, message, role: stem, severity });
  };
  const def: RoleDefinition = { name: stem, tools: {}, limits: {} };

  const top = asTable(doc);
  if (!top) {
    report('', 'a role file must be a TOML document');
    return { definition: def, problems, ok: false };
  }
  for (const key of Object.keys(top)) {
    if (!['role', 'tools', 'mcp', 'limits', 'sandbox', 'io'].includes(key)) report(key, `unknown top-level key "${key}" (expected the sections [role], [tools], [mcp], [limits], [sandbox])`);
    else if (!asTable(top[key])) report(key, `"${key}" must be a table ([${key}])`);
  }

  const role = asTable(top.role) ?? {};
  checkKeys(role, ROLE_KEYS, 'role', report);
  if (role.name === undefined) {
    if (!ROLE_NAME_PATTERN.test(stem)) report('role.name', `the file name "${stem}" is not a valid role name (letters, digits, _ and -, at most 64)`);
  } else if (typeof role.name !== 'string') {
    report('role.name', `must be a string, got ${typeName(role.name)}`);
  } else if (!ROLE_NAME_PATTERN.test(role.name)) {
    report('role.name', `"${role.name}" is not a valid role name (letters, digits, _ and -, at most 64)`);
  } else if (role.name !== stem) {
    report('role.name', `"${role.name}" must equal the file name stem "${stem}"`);
  }
  if (role.inherits !== undefined) {
    if (typeof role.inherits !== 'string') report('role.inherits', `must be a string, got ${typeName(role.inherits)}`);
    else if (!ROLE_NAME_PATTERN.test(role.inherits)) report('role.inherits', `"${role.inherits}" is not a valid role name`);
    else def.inherits = role.inherits;
  }
  if (role.description !== undefined) {
    if (typeof role.description !== 'string') report('role.description', `must be a string, got ${typeName(role.description)}`);
    else def.description = role.description;
  }
  if (role.shell_policy !== undefined) {
    if (typeof role.shell_policy === 'string' && (SHELL_POLICIES as readonly string[]).includes(role.shell_policy)) {
      def.shellPolicy = role.shell_policy as ShellPolicy;
    } else {
      report('role.shell_policy', `must be one of ${SHELL_POLICIES.join(', ')}, got ${show(role.shell_policy)}`);
    }
  }
  if (role.sandbox !== undefined) {
    if (typeof role.sandbox === 'string' && (SANDBOX_MODES as readonly string[]).includes(role.sandbox)) {
      def.sandbox = role.sandbox as SandboxMode;
    } else {
      report('role.sandbox', `must be one of ${SANDBOX_MODES.join(', ')}, got ${show(role.sandbox)}`);
    }
  }
  if (role.fail_closed !== undefined) {
    if (typeof role.fail_closed !== 'boolean') report('role.fail_closed', `must be true or false, got ${typeName(role.fail_closed)}`);
    else def.failClosed = role.fail_closed;
  }

  const tools = asTable(top.tools) ?? {};
  checkKeys(tools, TOOL_KEYS, 'tools', report);
  for (const key of TOOL_KEYS as ('allowed' | 'denied' | 'ask')[]) {
    const list = readPatterns(tools[key], `tools.${key}`, report, key === 'ask');
    if (list) def.tools[key] = list;
  }
  if (def.tools.allowed?.length === 0) {
    report('tools.allowed', 'allowed = [] means no tool in Alfred (only ctx_session stays callable); lean-ctx reads it as every tool. Remove the key to allow every tool.', 'warning');
  }

  const mcp = asTable(top.mcp) ?? {};
  checkKeys(mcp, MCP_KEYS, 'mcp', report);
  for (const key of MCP_KEYS) {
    const value = mcp[key];
    if (value === undefined) continue;
    if (typeof value === 'string' && (MCP_ACTIONS as readonly string[]).includes(value)) (def.mcp ??= {})[key] = value as McpAction;
    else report(`mcp.${key}`, `must be one of ${MCP_ACTIONS.join(', ')}, got ${show(value)}`);
  }

  const sandbox = asTable(top.sandbox);
  if (sandbox) def.sandboxRules = readSandboxTable(sandbox, report);

  const limits = asTable(top.limits) ?? {};
  checkKeys(limits, Object.keys(LIMIT_KEYS), 'limits', report);
  for (const [key, [field, kind]] of Object.entries(LIMIT_KEYS)) {
    const value = limits[key];
    if (value === undefined) continue;
    const why = checkLimit(value, kind);
    if (why) report(`limits.${key}`, why);
    else def.limits[field] = value as number;
  }
  const { warnAtPercent: warn, blockAtPercent: block } = def.limits;
  if (warn !== undefined && block !== undefined && warn > block) {
    report('limits.warn_at_percent', `warn_at_percent (${warn}) must not be above block_at_percent (${block})`);
  }

  if (asTable(top.io)) {
    report('io', 'the lean-ctx [io] section is not enforced by Alfred; it is ignored', 'warning');
  }
  return { definition: def, problems, ok: !problems.some((p) => p.severity === 'error') };
}

type Report = (key: string, message: string, severity?: RoleProblem['severity']) => void;

function checkKeys(table: Record<string, unknown>, known: readonly string[], section: string, report: Report): void {
  for (const key of Object.keys(table)) {
    if (!known.includes(key)) report(`${section}.${key}`, `unknown key "${key}" in [${section}] (expected ${known.join(', ')})`);
  }
}

function readPatterns(value: unknown, key: string, report: Report, commands = false): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    report(key, `must be an array of tool-name patterns, got ${typeName(value)}`);
    return undefined;
  }
  let ok = true;
  value.forEach((item: unknown, i) => {
    const at = `${key}[${i}]`;
    if (typeof item !== 'string') {
      report(at, `a tool pattern must be a string, got ${typeName(item)}`);
      ok = false;
    } else if (item.length === 0) {
      report(at, 'a tool pattern must not be empty');
      ok = false;
    } else if (commands && item.startsWith(EXEC_PREFIX)) {
      const why = execPatternProblem(item);
      if (why) {
        report(at, why);
        ok = false;
      }
    } else if (item.startsWith('@') && !(TOOL_CATEGORIES as readonly string[]).includes(item.slice(1))) {
      // `@mcp:SERVER` is the one other `@` form (rules/vocabulary/mcpServer.ts).
      if (!isServerPattern(item)) {
        report(at, item.toLowerCase().startsWith('@mcp:') ? patternProblem(item) ?? `"${item}" is not @mcp:SERVER`
          : `unknown tool category "${item}" (known: ${TOOL_CATEGORIES.map((c) => '@' + c).join(', ')}, or @mcp:SERVER)`);
        ok = false;
      }
    }
  });
  return ok ? (value as string[]) : undefined;
}

/** Why a limit value is invalid, or undefined when it is fine. */
function checkLimit(value: unknown, kind: LimitKind): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return `must be a number, got ${typeName(value)}`;
  if (value < 0) return `must not be negative, got ${value}`;
  if (kind === 'count' && !Number.isInteger(value)) return `must be a whole number, got ${value}`;
  if (kind === 'percent' && value > MAX_PERCENT) return `must be between 0 and ${MAX_PERCENT}, got ${value}`;
  return undefined;
}

function asTable(value: unknown): Record<string, unknown> | undefined {
  return isObject(value) && !(value instanceof Date) ? value : undefined;
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (typeof value === 'object' && value !== null) return value instanceof Date ? 'a date' : 'a table';
  return `a ${typeof value} (${show(value)})`;
}

function show(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/^Invalid TOML document:\s*/, '');
}
