/** Roles: named sets of tool rules, a shell policy and budget limits (docs/roles-and-budgets.md, Role files). */

export type ShellPolicy = 'track' | 'compress' | 'deny';

/**
 * Whether shell commands run in a kernel sandbox (ARCHITECTURE.md, Protected paths hold against any
 * command). Sandboxed, a command writes the workspace (minus its governance files and protected
 * globs), its own copies of the temporary folders and download caches, and the role's `allow_write`
 * paths; nothing else, whatever a file is called (sandbox/mounts.ts, writableRoots and ownCopies).
 * `required` refuses shell where there is no sandbox, `auto` falls back to best-effort parsing and
 * says so, `off` never sandboxes. `strict` is `required` with a /dev and System V IPC of the
 * command's own and no new Unix socket (seccomp).
 */
export type SandboxMode = 'strict' | 'required' | 'auto' | 'off';

/**
 * `[sandbox.network]`: the names a sandboxed command may connect to (through Alfred's proxy; the
 * command has no other way out). `deny` wins over `allow`; `*.name` matches the name's subdomains,
 * `*` every name. Empty `allow`: no network at all.
 */
export interface NetworkRules {
  allow: readonly string[];
  deny: readonly string[];
}

/** Where a role came from, in lookup order. */
export type RoleSource = 'project' | 'project-lean-ctx' | 'user' | 'user-lean-ctx' | 'builtin';

export interface RoleLimits {
  maxContextTokens: number;
  maxShellInvocations: number;
  maxCostUsd: number;
  warnAtPercent: number;
  /** The runaway guard: the same call (or cycle of 2–3 calls) more times in a row is refused; 0 turns it off; absent: 12. */
  maxRepeatedCalls?: number;
  /** Sub-agents that may run at once (a task tool starting one is refused past it); 0 or absent: no limit. */
  maxSubagents?: number;
  blockAtPercent: number;
}

/** What the gate does with the tools of an MCP server the latest audit could not vouch for. */
export type McpAction = 'allow' | 'ask' | 'deny';

/** `[mcp]`: per role, for unaudited servers and for servers whose package looks abandoned (dead). */
export interface McpRules {
  unaudited: McpAction;
  dead: McpAction;
}

export interface ToolRules {
  /** Absent means every tool; an empty list means none (only ctx_session stays callable). */
  allowed?: readonly string[];
  denied: readonly string[];
  /** Calls that run only with the user's yes (rules/policy/askPatterns.ts); absent: none. */
  ask?: readonly string[];
}

/** A fully resolved role: inheritance applied, every field present. */
export interface Role {
  name: string;
  source: RoleSource;
  /** File the role was read from. */
  path: string;
  inherits?: string;
  description: string;
  shellPolicy: ShellPolicy;
  sandbox: SandboxMode;
  /** `[sandbox] allow_write`: paths (absolute or `~/…`) a sandboxed command may write besides the workspace, temp and caches. Absent: none. */
  allowWrite?: readonly string[];
  /** `[sandbox.network]`. Absent: the network is left as it is (a role built without the loader). */
  network?: NetworkRules;
  tools: ToolRules;
  /** Absent: `allow` for both (advisory, as the audit is by default). */
  mcp?: McpRules;
  limits: RoleLimits;
  /** A crash inside Alfred refuses the call instead of letting it through (hooks fail open otherwise). */
  failClosed: boolean;
}

/** One problem found while loading roles; never fatal to the other roles. */
export interface RoleProblem {
  path: string;
  /** TOML key path, e.g. `limits.max_cost_usd`, or `role.name`; empty when the whole file is at fault. */
  key: string;
  message: string;
  /** The role this problem is about, when known. */
  role?: string;
  /** `error`: the role was not loaded. `warning`: it was loaded, read as the message says. */
  severity: 'error' | 'warning';
}

export interface LoadedRoles {
  roles: ReadonlyMap<string, Role>;
  problems: readonly RoleProblem[];
}

export const DEFAULT_ROLE = 'coder';
export const DEFAULT_WARN_AT_PERCENT = 80;
export const DEFAULT_BLOCK_AT_PERCENT = 100;
