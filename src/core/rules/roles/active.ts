/** Which role is active (docs/roles-and-budgets.md, The active role) and looking it up. */
import { DEFAULT_ROLE, type LoadedRoles, type Role } from './types';

export type ActiveRoleOrigin = 'runtime' | 'ALFRED_ROLE' | 'LEAN_CTX_ROLE' | 'setting' | 'default';

export interface ActiveRoleInput {
  /** The runtime switch persisted for this workspace. */
  runtime?: string;
  env: Record<string, string | undefined>;
  /** The `alfred.role` setting. */
  setting?: string;
  /** Workspace Trust: an untrusted workspace's setting could loosen the user's rules, so it is ignored. */
  trusted: boolean;
}

/** Runtime switch, else ALFRED_ROLE, else LEAN_CTX_ROLE, else the setting (trusted only), else coder. */
export function resolveActiveRoleName(input: ActiveRoleInput): { name: string; from: ActiveRoleOrigin } {
  const candidates: [string | undefined, ActiveRoleOrigin][] = [
    [input.runtime, 'runtime'],
    [input.env.ALFRED_ROLE, 'ALFRED_ROLE'],
    [input.env.LEAN_CTX_ROLE, 'LEAN_CTX_ROLE'],
    [input.trusted ? input.setting : undefined, 'setting'],
  ];
  for (const [value, from] of candidates) {
    // Blank values count as unset: `ALFRED_ROLE=` in a shell profile should not name a role "".
    const name = value?.trim();
    if (name) return { name, from };
  }
  return { name: DEFAULT_ROLE, from: 'default' };
}

/** The role called `name`; throws an Error naming it and listing the roles that exist. */
export function requireRole(roles: ReadonlyMap<string, Role> | LoadedRoles, name: string): Role {
  const map = roles instanceof Map ? (roles as ReadonlyMap<string, Role>) : (roles as LoadedRoles).roles;
  const role = map.get(name);
  if (role) return role;
  const available = [...map.keys()].sort().join(', ') || '(none)';
  let why = '';
  if (!(roles instanceof Map)) {
    // When the role's own file failed, say why: "unknown" alone would send the user looking elsewhere.
    const problem = (roles as LoadedRoles).problems.find((p) => p.role === name && p.severity === 'error');
    if (problem) why = ` It did not load: ${problem.message} (${problem.path}${problem.key ? `, ${problem.key}` : ''}).`;
  }
  throw new Error(`Unknown role "${name}".${why} Available roles: ${available}.`);
}
