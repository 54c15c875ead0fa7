/**
 * The role editor's form, checked with the loader's own validation (validateRoleDocument) plus what
 * only the editor can know: where the file goes, built-in names, parents that exist, inheritance
 * cycles, a file already there. Pure apart from looking whether the target file exists.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUILTIN_ROLE_NAMES } from './loader';
import { LIMIT_KEYS, validateRoleDocument, type RoleDefinition } from './schema';
import { roleToToml } from './toml';
import type { McpRules, Role, RoleProblem, RoleSource, SandboxMode, ShellPolicy } from './types';

export type RoleLocation = 'project' | 'user';

/** What the form holds: texts as typed. Empty means "not set" (inherited, or the default). */
export interface RoleDraft {
  name: string;
  inherits: string;
  description: string;
  shellPolicy: '' | ShellPolicy;
  /** null: no `allowed` key (every tool, or the parent's list). */
  allowed: string[] | null;
  /** null: no `denied` key (the parent's list, or none). */
  denied: string[] | null;
  /** TOML limit key (`max_cost_usd`, …) → the number as typed. */
  limits: Record<string, string>;
  location: RoleLocation;
  /** Kept from the file being edited; the form does not show it. */
  failClosed?: boolean;
  /** Kept from the file being edited (the form does not show it yet); absent: inherited, or `auto`. */
  sandbox?: SandboxMode;
  /** Kept from the file being edited (the form does not show it): `[mcp]` rules for unaudited and dead servers. */
  mcp?: Partial<McpRules>;
}

export interface DraftContext {
  mode: 'new' | 'edit';
  /** `.alfred/roles` of the workspace and of the user's home. */
  folders: Record<RoleLocation, string>;
  roles: ReadonlyMap<string, Pick<Role, 'name' | 'inherits' | 'source' | 'path'>>;
  /** The file being edited (edit mode). */
  original?: { name: string; path: string; source: RoleSource };
  /** Whether a file exists; injected by tests. */
  exists?: (file: string) => boolean;
}

export interface DraftCheck {
  ok: boolean;
  problems: Array<Pick<RoleProblem, 'key' | 'message' | 'severity'>>;
  /** The file it saves to. */
  path: string;
  /** The TOML it would write (best effort while there are problems). */
  toml: string;
  /** Edit mode, renamed or moved: the old file, deleted in the same write. */
  replaces?: string;
}

export const LIMIT_FIELDS = Object.keys(LIMIT_KEYS);

export function emptyDraft(location: RoleLocation = 'project', inherits = ''): RoleDraft {
  return { name: '', inherits, description: '', shellPolicy: '', allowed: null, denied: null, limits: Object.fromEntries(LIMIT_FIELDS.map((k) => [k, ''])), location };
}

/** The form for a role file's own keys (inheritance not applied, so saving keeps it as it was). */
export function draftFromDefinition(def: RoleDefinition, location: RoleLocation): RoleDraft {
  const limits = Object.fromEntries(Object.entries(LIMIT_KEYS).map(([key, [field]]) => [key, def.limits[field] === undefined ? '' : String(def.limits[field])]));
  return {
    name: def.name, inherits: def.inherits ?? '', description: def.description ?? '', shellPolicy: def.shellPolicy ?? '',
    allowed: def.tools.allowed ? [...def.tools.allowed] : null, denied: def.tools.denied ? [...def.tools.denied] : null,
    limits, location, ...(def.failClosed !== undefined ? { failClosed: def.failClosed } : {}),
    ...(def.sandbox !== undefined ? { sandbox: def.sandbox } : {}),
    ...(def.mcp !== undefined ? { mcp: { ...def.mcp } } : {}),
  };
}

export function locationOf(source: RoleSource): RoleLocation {
  return source === 'user' || source === 'user-lean-ctx' ? 'user' : 'project';
}

export function checkDraft(draft: RoleDraft, ctx: DraftContext): DraftCheck {
  const exists = ctx.exists ?? fs.existsSync;
  const name = draft.name.trim();
  const problems: DraftCheck['problems'] = [];
  const error = (key: string, message: string) => problems.push({ key, message, severity: 'error' });

  const original = ctx.mode === 'edit' ? ctx.original : undefined;
  const keepsFile = original && original.name === name && locationOf(original.source) === draft.location;
  const file = keepsFile ? original.path : path.join(ctx.folders[draft.location], `${name || '_'}.toml`);

  const { doc, typos } = toDocument(draft);
  typos.forEach(([key, message]) => error(key, message));
  if (!name) error('role.name', 'a role needs a name');
  const checked = validateRoleDocument(doc, file);
  for (const p of checked.problems) if (name || p.key !== 'role.name') problems.push({ key: p.key, message: p.message, severity: p.severity });

  if (BUILTIN_ROLE_NAMES.includes(name.toLowerCase()) || ctx.roles.get(name)?.source === 'builtin') {
    error('role.name', `"${name}" is a built-in role and cannot be overwritten; choose another name and inherit from it`);
  } else if (name && !keepsFile && exists(file)) {
    error('role.name', `${file} already exists; edit that role instead (Alfred: Edit Role)`);
  }
  const parent = draft.inherits.trim();
  if (parent) {
    if (parent === name) error('role.inherits', 'a role cannot inherit from itself');
    else if (!ctx.roles.has(parent)) error('role.inherits', `unknown role "${parent}"; known roles: ${[...ctx.roles.keys()].sort().join(', ')}`);
    else if (inheritsFrom(ctx.roles, parent, name)) error('role.inherits', `"${parent}" already inherits from "${name}": that would be a cycle`);
  }
  const shadowed = ctx.roles.get(name);
  if (name && shadowed && shadowed.path !== file && shadowed.path !== original?.path && shadowed.source !== 'builtin') {
    problems.push({ key: 'role.name', message: `another role "${name}" exists in ${shadowed.path}; the first found in lookup order wins`, severity: 'warning' });
  }

  const ok = !problems.some((p) => p.severity === 'error');
  const toml = roleToToml({ ...checked.definition, name: name || checked.definition.name });
  const replaces = original && !keepsFile ? original.path : undefined;
  return { ok, problems, path: file, toml, ...(replaces ? { replaces } : {}) };
}

/** The TOML document the form describes; numbers that are not numbers are reported, not guessed. */
function toDocument(draft: RoleDraft): { doc: Record<string, unknown>; typos: Array<[string, string]> } {
  const role: Record<string, unknown> = { name: draft.name.trim() };
  if (draft.inherits.trim()) role.inherits = draft.inherits.trim();
  if (draft.description.trim()) role.description = draft.description.trim();
  if (draft.shellPolicy) role.shell_policy = draft.shellPolicy;
  if (draft.sandbox !== undefined) role.sandbox = draft.sandbox;
  if (draft.failClosed !== undefined) role.fail_closed = draft.failClosed;
  const tools: Record<string, unknown> = {};
  if (draft.allowed) tools.allowed = draft.allowed.map((p) => p.trim());
  if (draft.denied) tools.denied = draft.denied.map((p) => p.trim());
  const limits: Record<string, unknown> = {};
  const mcp = draft.mcp ? Object.fromEntries(Object.entries(draft.mcp).filter(([, v]) => v !== undefined)) : {};
  const typos: Array<[string, string]> = [];
  for (const key of LIMIT_FIELDS) {
    const text = (draft.limits[key] ?? '').trim();
    if (!text) continue;
    const n = Number(text);
    if (Number.isFinite(n)) limits[key] = n;
    else typos.push([`limits.${key}`, `must be a number, got "${text}"`]);
  }
  return { doc: { role, tools, ...(Object.keys(mcp).length > 0 ? { mcp } : {}), limits }, typos };
}

function inheritsFrom(roles: DraftContext['roles'], start: string, target: string): boolean {
  const seen = new Set<string>();
  for (let at: string | undefined = start; at && !seen.has(at); at = roles.get(at)?.inherits) {
    if (at === target) return true;
    seen.add(at);
  }
  return false;
}
