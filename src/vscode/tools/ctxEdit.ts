import { editOp } from '../../core/tools/ops/edit';
import { defineTool } from './governedTool';

/** ctx_edit: exact-string replace or create; protected paths were already refused by the gate. */
export const ctxEdit = defineTool<Parameters<typeof editOp>[1]>('ctx_edit', (input, { harness }) => editOp(harness.workspaceFolder, input));
