import { shellOp } from '../../core/tools/ops/shell';
import { readSettings } from '../settings';
import { defineTool } from './governedTool';

/** ctx_shell: a command in the workspace, output and exit code captured, stopped at its timeout. */
export const ctxShell = defineTool<Parameters<typeof shellOp>[1]>('ctx_shell', (input, { harness, signal, operationEnv }) => shellOp(harness.workspaceFolder, input, {
  signal,
  env: { ...process.env, ...operationEnv },
  defaultTimeoutSeconds: readSettings().shellTimeoutSeconds,
}));
