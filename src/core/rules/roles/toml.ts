/** Writing a role definition back to TOML, in the same schema the loader reads (for the role editor). */
import { stringify } from 'smol-toml';
import { LIMIT_KEYS, type RoleDefinition } from './schema';
import type { Role } from './types';

/** TOML text for `def`; keys it leaves out stay out, so inheritance keeps working after a save. */
export function roleToToml(def: RoleDefinition): string {
  const role: Record<string, unknown> = { name: def.name };
  if (def.inherits !== undefined) role.inherits = def.inherits;
  if (def.description !== undefined) role.description = def.description;
  if (def.shellPolicy !== undefined) role.shell_policy = def.shellPolicy;
  if (def.sandbox !== undefined) role.sandbox = def.sandbox;
  if (def.failClosed !== undefined) role.fail_closed = def.failClosed;

  const tools: Record<string, unknown> = {};
  if (def.tools.allowed !== undefined) tools.allowed = [...def.tools.allowed];
  if (def.tools.denied !== undefined) tools.denied = [...def.tools.denied];

  const mcp: Record<string, unknown> = {};
  if (def.mcp?.unaudited !== undefined) mcp.unaudited = def.mcp.unaudited;
  if (def.mcp?.dead !== undefined) mcp.dead = def.mcp.dead;

  const limits: Record<string, unknown> = {};
  for (const [key, [field]] of Object.entries(LIMIT_KEYS)) {
    const value = def.limits[field];
    if (value !== undefined) limits[key] = value;
  }

  const doc: Record<string, unknown> = { role };
  if (Object.keys(tools).length > 0) doc.tools = tools;
  if (Object.keys(mcp).length > 0) doc.mcp = mcp;
  if (Object.keys(limits).length > 0) doc.limits = limits;
  return stringify(doc);
}

/** A definition that spells out every field of a resolved role (no `inherits`: it stands alone). */
export function definitionFromRole(role: Role): RoleDefinition {
  return {
    name: role.name,
    description: role.description,
    shellPolicy: role.shellPolicy,
    sandbox: role.sandbox,
    ...(role.failClosed ? { failClosed: true } : {}),
    tools: { ...(role.tools.allowed !== undefined ? { allowed: [...role.tools.allowed] } : {}), denied: [...role.tools.denied] },
    ...(role.mcp ? { mcp: { ...role.mcp } } : {}),
    limits: { ...role.limits },
  };
}
