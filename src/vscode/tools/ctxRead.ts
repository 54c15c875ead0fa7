import { readFileOp } from '../../core/tools/ops/read';
import { defineTool } from './governedTool';

/** ctx_read: a workspace file, or a range of its lines. */
export const ctxRead = defineTool<Parameters<typeof readFileOp>[1]>('ctx_read', (input, { harness }) => readFileOp(harness.workspaceFolder, input));
