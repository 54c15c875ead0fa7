import { searchOp } from '../../core/tools/ops/search';
import { defineTool } from './governedTool';

/** ctx_search: text or regex over the workspace, .gitignore respected. */
export const ctxSearch = defineTool<Parameters<typeof searchOp>[1]>('ctx_search', (input, { harness }) => searchOp(harness.workspaceFolder, input));
