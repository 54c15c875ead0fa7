/** Finding, reading and resolving role files (docs/roles-and-budgets.md, Where roles come from). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseRoleFile, roleNameFromPath, type RoleDefinition } from './schema';
import {
  DEFAULT_BLOCK_AT_PERCENT, DEFAULT_ROLE, DEFAULT_WARN_AT_PERCENT,
  type LoadedRoles, type NetworkRules, type Role, type RoleLimits, type RoleProblem, type RoleSource,
} from './types';

export interface LoadRolesOptions {
  /** The workspace folder: project roles are its own `.alfred/roles` and `.lean-ctx/roles`. */
  workspaceFolder?: string;
  homeDir: string;
  /** The extension's `roles/` folder. */
  builtinDir: string;
  /** Workspace Trust: when false, project role files are listed as problems and not loaded. */
  trusted: boolean;
}

export interface RoleFolder {
  dir: string;
  source: RoleSource;
}

/** The built-in names; kept here too so a broken `roles/` folder cannot let a project take them. */
export const BUILTIN_ROLE_NAMES: readonly string[] = ['coder', 'reviewer', 'debugger', 'ops', 'admin'];

/** Used only when the built-in coder itself cannot be loaded; mirrors roles/coder.toml. */
const FALLBACK_LIMITS: RoleLimits = {
  maxContextTokens: 200_000, maxShellInvocations: 100, maxCostUsd: 5,
  warnAtPercent: DEFAULT_WARN_AT_PERCENT, blockAtPercent: DEFAULT_BLOCK_AT_PERCENT,
};

/**
 * Used only when the built-in coder itself cannot be loaded: no network name at all (the safe side;
 * roles/coder.toml lists the package registries and source hosts a build needs).
 */
const FALLBACK_NETWORK: NetworkRules = { allow: [], deny: [] };

const isProject = (source: RoleSource): boolean => source === 'project' || source === 'project-lean-ctx';

/**
 * Every folder roles are read from, in lookup order (first match wins), whether it exists or not,
 * so the adapter can watch them for creation too: the workspace's `.alfred/roles`, its
 * `.lean-ctx/roles`, the user's two, the built-ins. Folders above the workspace are not read, though
 * lean-ctx walks up to them: nothing keeps an agent from writing there (the gate refuses edits
 * outside the workspace, but a command may write anywhere the kernel sandbox does not hold), and a
 * role file it planted there would shadow the user's role of that name or the parent a workspace
 * role inherits from. The workspace's two folders are governance paths, created empty and held
 * read-only by the sandbox (sandbox/mounts.ts), as the user's are.
 */
export function roleFolders(opts: Pick<LoadRolesOptions, 'workspaceFolder' | 'homeDir' | 'builtinDir'>): RoleFolder[] {
  const home = path.resolve(opts.homeDir);
  const project = opts.workspaceFolder ? path.resolve(opts.workspaceFolder) : undefined;
  // A workspace opened on the home folder itself: its role folders are the user's.
  const own = project !== undefined && project !== home ? [project] : [];
  return [
    ...own.map((d): RoleFolder => ({ dir: path.join(d, '.alfred', 'roles'), source: 'project' })),
    ...own.map((d): RoleFolder => ({ dir: path.join(d, '.lean-ctx', 'roles'), source: 'project-lean-ctx' })),
    { dir: path.join(home, '.alfred', 'roles'), source: 'user' },
    { dir: path.join(home, '.lean-ctx', 'roles'), source: 'user-lean-ctx' },
    { dir: path.resolve(opts.builtinDir), source: 'builtin' },
  ];
}

/** A folder entry that is read as a role file. */
export const isRoleFile = (e: fs.Dirent): boolean => (e.isFile() || e.isSymbolicLink()) && e.name.toLowerCase().endsWith('.toml');

/** The `*.toml` files in `dir`, sorted; none when the folder does not exist. Other errors throw. */
export function listRoleFiles(dir: string): string[] {
  let entries: fs.Dirent[];
  try {
    // Most of the folders roles are looked for in do not exist: asked without an exception first (an
    // error's stack costs more than the call, and a hook call looks in a dozen of them).
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return [];
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw err;
  }
  return entries
    .filter(isRoleFile)
    .map((e) => path.join(dir, e.name))
    .sort();
}

interface Entry {
  def: RoleDefinition;
  source: RoleSource;
  path: string;
}

/** Loads every role; a file that cannot be read, parsed or resolved becomes a problem, never a throw. */
export function loadRoles(opts: LoadRolesOptions): LoadedRoles {
  const problems: RoleProblem[] = [];
  const entries = new Map<string, Entry>();
  /** Names whose winning file did not load, so a lower-priority file of that name stays shadowed. */
  const failed = new Map<string, string>();
  const untrusted = new Set<string>();
  const folders = roleFolders(opts).map((f) => ({ ...f, files: safeList(f.dir, problems) }));
  // Names are compared ignoring case so `Admin.toml` cannot pass for the built-in `admin`.
  const reserved = new Set(BUILTIN_ROLE_NAMES);
  for (const f of folders) if (f.source === 'builtin') f.files.forEach((file) => reserved.add(roleNameFromPath(file).toLowerCase()));

  for (const folder of folders) {
    for (const file of folder.files) {
      const name = roleNameFromPath(file);
      if (entries.has(name) || failed.has(name)) continue;
      const fail = (key: string, message: string): void => {
        problems.push({ path: file, key, message, role: name, severity: 'error' });
      };
      if (isProject(folder.source) && !opts.trusted) {
        untrusted.add(name);
        fail('', 'not loaded: project role files are ignored in an untrusted workspace (Workspace Trust)');
        continue;
      }
      if (folder.source !== 'builtin' && reserved.has(name.toLowerCase())) {
        fail('role.name', `"${name}" is a built-in role and cannot be redefined; inherit from it under another name`);
        continue;
      }
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (err) {
        failed.set(name, file);
        fail('', `cannot read the role file: ${(err as Error).message}`);
        continue;
      }
      const parsed = parseRoleFile(text, file);
      problems.push(...parsed.problems);
      if (parsed.ok) entries.set(name, { def: parsed.definition, source: folder.source, path: file });
      else failed.set(name, file);
    }
  }

  const roles = resolveInheritance(entries, { failed, untrusted }, problems);
  return { roles: orderRoles(roles), problems };
}

function safeList(dir: string, problems: RoleProblem[]): string[] {
  try {
    return listRoleFiles(dir);
  } catch (err) {
    problems.push({ path: dir, key: '', message: `cannot list the role folder: ${(err as Error).message}`, severity: 'error' });
    return [];
  }
}

/**
 * Applies `inherits` field by field. Keys a child leaves out come from its parent (each limit on
 * its own); a tools list the child sets replaces the parent's. A role without a parent falls back
 * to the defaults: every tool allowed, nothing denied, shell `track`, sandbox `auto`, and the built-in coder's
 * limits (the default role's budget is the natural budget for a role that names none).
 */
function resolveInheritance(
  entries: ReadonlyMap<string, Entry>,
  excluded: { failed: ReadonlyMap<string, string>; untrusted: ReadonlySet<string> },
  problems: RoleProblem[],
): Map<string, Role> {
  const done = new Map<string, Role>();
  const broken = new Set<string>();
  const stack: string[] = [];
  let baseLimits = FALLBACK_LIMITS;
  let baseNetwork = FALLBACK_NETWORK;
  const fail = (name: string, key: string, message: string): void => {
    broken.add(name);
    const entry = entries.get(name);
    problems.push({ path: entry ? entry.path : '', key, message, role: name, severity: 'error' });
  };

  const visit = (name: string): Role | undefined => {
    if (done.has(name)) return done.get(name);
    if (broken.has(name)) return undefined;
    const at = stack.indexOf(name);
    if (at >= 0) {
      const cycle = stack.slice(at);
      cycle.forEach((member, i) => {
        const loop = [...cycle.slice(i), ...cycle.slice(0, i), member].join(' → ');
        fail(member, 'role.inherits', `inheritance cycle: ${loop}`);
      });
      return undefined;
    }
    const entry = entries.get(name)!;
    const parentName = entry.def.inherits;
    let parent: Role | undefined;
    if (parentName !== undefined) {
      if (!entries.has(parentName)) {
        fail(name, 'role.inherits', unknownParent(parentName, entries, excluded));
        return undefined;
      }
      stack.push(name);
      parent = visit(parentName);
      stack.pop();
      if (!parent) {
        if (!broken.has(name)) fail(name, 'role.inherits', `parent role "${parentName}" failed to load`);
        return undefined;
      }
    }
    const role = merge(entry, parent, baseLimits, baseNetwork);
    if (role.limits.warnAtPercent > role.limits.blockAtPercent) {
      fail(name, 'limits.warn_at_percent', `with inheritance, warn_at_percent (${role.limits.warnAtPercent}) is above block_at_percent (${role.limits.blockAtPercent})`);
      return undefined;
    }
    done.set(name, role);
    return role;
  };

  // The coder goes first: its limits are the base for every role without a parent.
  if (entries.has(DEFAULT_ROLE)) {
    const coder = visit(DEFAULT_ROLE);
    baseLimits = coder?.limits ?? FALLBACK_LIMITS;
    baseNetwork = coder?.network ?? FALLBACK_NETWORK;
  }
  for (const name of entries.keys()) visit(name);
  return done;
}

function merge(entry: Entry, parent: Role | undefined, baseLimits: RoleLimits, baseNetwork: NetworkRules): Role {
  const { def } = entry;
  const limits = { ...(parent ? parent.limits : baseLimits) };
  for (const [key, value] of Object.entries(def.limits) as [keyof RoleLimits, number | undefined][]) {
    if (value !== undefined) limits[key] = value;
  }
  const allowed = 'allowed' in def.tools ? def.tools.allowed : parent?.tools.allowed;
  // Like [tools]: a list the role sets replaces its parent's; a role without a parent starts from the coder's network.
  const network = parent ? parent.network ?? FALLBACK_NETWORK : baseNetwork;
  const allowWrite = def.sandboxRules?.allowWrite ?? parent?.allowWrite ?? [];
  return {
    name: def.name,
    source: entry.source,
    path: entry.path,
    ...(def.inherits !== undefined ? { inherits: def.inherits } : {}),
    description: def.description ?? parent?.description ?? '',
    shellPolicy: def.shellPolicy ?? parent?.shellPolicy ?? 'track',
    sandbox: def.sandbox ?? parent?.sandbox ?? 'auto',
    allowWrite: [...allowWrite],
    network: { allow: [...(def.sandboxRules?.network?.allow ?? network.allow)], deny: [...(def.sandboxRules?.network?.deny ?? network.deny)] },
    tools: {
      ...(allowed !== undefined ? { allowed: [...allowed] } : {}), denied: [...(def.tools.denied ?? parent?.tools.denied ?? [])],
      ...(def.tools.ask ?? parent?.tools.ask ? { ask: [...(def.tools.ask ?? parent?.tools.ask ?? [])] } : {}),
    },
    // Only a chain that writes [mcp] carries it: absent reads as allow for both.
    ...(def.mcp || parent?.mcp ? {
      mcp: { unaudited: def.mcp?.unaudited ?? parent?.mcp?.unaudited ?? 'allow', dead: def.mcp?.dead ?? parent?.mcp?.dead ?? 'allow' },
    } : {}),
    limits,
    failClosed: def.failClosed ?? parent?.failClosed ?? false,
  };
}

function unknownParent(
  parentName: string,
  entries: ReadonlyMap<string, Entry>,
  excluded: { failed: ReadonlyMap<string, string>; untrusted: ReadonlySet<string> },
): string {
  if (excluded.failed.has(parentName)) return `parent role "${parentName}" failed to load (${excluded.failed.get(parentName)})`;
  if (excluded.untrusted.has(parentName)) return `parent role "${parentName}" is a project role, ignored in an untrusted workspace`;
  return `unknown parent role "${parentName}"; known roles: ${[...entries.keys()].sort().join(', ')}`;
}

/** Built-ins first in their documented order, then the others by name. */
function orderRoles(roles: ReadonlyMap<string, Role>): Map<string, Role> {
  const rank = (r: Role): number => (r.source === 'builtin' && BUILTIN_ROLE_NAMES.includes(r.name) ? BUILTIN_ROLE_NAMES.indexOf(r.name) : BUILTIN_ROLE_NAMES.length);
  const sorted = [...roles.values()].sort((a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return new Map(sorted.map((r) => [r.name, r]));
}
