import { shellOp } from '../../core/tools/ops/shell';
import { readSettings } from '../settings';
import { defineTool } from './governedTool';

/**
 * ctx_shell: a command in the workspace, output and exit code captured, stopped at its timeout; in
 * the kernel sandbox (protected paths read-only) wherever there is one and the role does not turn it off.
 */
export const ctxShell = defineTool<Parameters<typeof shellOp>[1]>('ctx_shell', (input, { harness, signal, operationEnv }) => {
  // Planned on every call: the role, checks.toml and the governance folders may have changed since the last.
  const sandbox = harness.sandboxPlan();
  return shellOp(harness.workspaceFolder, input, {
    signal,
    env: { ...process.env, ...operationEnv },
    defaultTimeoutSeconds: readSettings().shellTimeoutSeconds,
    sandbox,
    ...(sandbox.kind === 'unsandboxed' && sandbox.why === 'unavailable' && firstTime(harness.workspaceFolder) ? { note: sandbox.note } : {}),
  });
});

/** Workspaces already told that there is no sandbox: once is enough, every result would cost tokens. */
const told = new Set<string>();

function firstTime(workspaceFolder: string): boolean {
  if (told.has(workspaceFolder)) return false;
  told.add(workspaceFolder);
  return true;
}
