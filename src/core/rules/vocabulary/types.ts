/** Tool categories and gate decisions (docs/roles-and-budgets.md, Tool rules). */

export type ToolCategory = 'read' | 'search' | 'edit' | 'shell' | 'session' | 'web' | 'mcp' | 'task' | 'other';

export const TOOL_CATEGORIES: readonly ToolCategory[] = ['read', 'search', 'edit', 'shell', 'session', 'web', 'mcp', 'task', 'other'];

/** Why the gate refused a call. */
export type RefusalCode =
  | 'tool-denied'        // matched a `denied` pattern
  | 'tool-not-allowed'   // not matched by `allowed`
  | 'shell-denied'       // shell policy `deny` and a shell-category tool
  | 'protected-path'     // an edit (or visible shell write) touching a protected path
  | 'budget-exhausted'   // a dimension at or above block_at_percent
  | 'self-governance'    // an agent running Alfred's own mutating commands (role switch, reset)
  | 'sandbox-required'   // sandbox = "required" and the shell call would not run in the kernel sandbox
  | 'runaway'            // the same call (or cycle of calls) repeated more times in a row than the role allows
  | 'subagent-limit'     // a task tool starting a sub-agent past the role's max_subagents
  | 'mcp-untrusted'      // an unaudited or dead MCP server's tool, and the role's [mcp] rule says deny
  | 'not-confirmed'      // the role asks the user first ([mcp] ... = "ask"), and the user (or a path that cannot ask) said no
  | 'memory-off'         // alfred_memory_append while the project's memory policy is off
  | 'invalid-input';     // the tool's arguments failed validation

export interface GateDecision {
  allowed: boolean;
  category: ToolCategory;
  /** Shell invocations this call costs when allowed (1 for a new shell command, else 0). */
  shellCharge: number;
  code?: RefusalCode;
  /** A sentence the user and the model can act on. */
  reason?: string;
  /**
   * Allowed only once the user confirms: why (the role's `[mcp]` rule said "ask"). Hooks answer
   * `permissionDecision: "ask"`; `@alfred` asks; a path that cannot ask refuses.
   */
  confirm?: string;
}
