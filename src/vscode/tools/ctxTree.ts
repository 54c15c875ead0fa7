import { treeOp } from '../../core/tools/ops/tree';
import { defineTool } from './governedTool';

/** ctx_tree: the workspace's folders and files to a depth. */
export const ctxTree = defineTool<Parameters<typeof treeOp>[1]>('ctx_tree', (input, { harness }) => treeOp(harness.workspaceFolder, input));
