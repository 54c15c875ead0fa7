import * as vscode from 'vscode';
import { GovernedRefusal } from '../../core/harness/governedCall';
import { appendMemory, MEMORY_FILE } from '../../core/workflow/memory/store';
import { defineTool } from './governedTool';

/** alfred_memory_append: one note to the project memory, only while the project's memory policy is on. */
export const memoryAppend = defineTool<{ text: string }>('alfred_memory_append', (input, { harness }) => {
  const result = appendMemory(harness.workspaceFolder, input.text, new Date(), vscode.workspace.isTrusted);
  // A refusal, not a failure: the model is told memory is off (or the note is not acceptable), and why.
  if (!result.ok) throw new GovernedRefusal(result.why, { tool: 'alfred_memory_append', role: harness.activeRole().role.name, code: 'memory-off', reason: result.why });
  return { text: `Remembered in ${MEMORY_FILE}.`, data: { file: MEMORY_FILE, chars: input.text.trim().length } };
});
