/**
 * Bounds on a tool input's shape, checked by the gate before anything else (ARCHITECTURE.md: no input can
 * crash the gate into allowing). Real tool inputs are a few levels deep; an input nested thousands of
 * levels deep exists only to overflow a recursive step somewhere after the decision (serialising,
 * redacting), so it is refused with a reason, never walked recursively.
 */

/** Deeper than any real tool input (Copilot's deepest, apply_patch and multi_replace, are under 5). */
export const MAX_INPUT_DEPTH = 64;
/** Objects, arrays and values in one input. */
export const MAX_INPUT_NODES = 200_000;

/** Why `value` is refused (too deep or too large), or undefined when its shape is fine. Iterative. */
export function inputShapeProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const stack: Array<[object, number]> = [[value, 1]];
  let nodes = 1;
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [object, number];
    if (depth > MAX_INPUT_DEPTH) return `the tool input is nested more than ${MAX_INPUT_DEPTH} levels deep`;
    const children: unknown[] = Array.isArray(v) ? v : Object.values(v);
    nodes += children.length;
    if (nodes > MAX_INPUT_NODES) return `the tool input has more than ${MAX_INPUT_NODES} values`;
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return undefined;
}
