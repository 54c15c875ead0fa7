/**
 * Limits set in two places, the user's settings and a workspace's (a repository's
 * `.vscode/settings.json`): a workspace may tighten them, never loosen them, as with prices
 * (workspacePricing.ts).
 */

const positive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

/** A limit (the user's, else its default): a workspace's counts only when it is lower. */
export function lowerOnly(user: unknown, workspace: unknown, fallback: number): number {
  const base = positive(user) ? user : fallback;
  return positive(workspace) ? Math.min(base, workspace) : base;
}

/** A cap where 0 means none: a workspace may set one or lower the user's, never raise or remove it. */
export function capLowerOnly(user: unknown, workspace: unknown): number {
  const caps = [user, workspace].filter(positive);
  return caps.length > 0 ? Math.min(...caps) : 0;
}
