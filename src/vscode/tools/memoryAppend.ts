import * as vscode from 'vscode';
import { appendMemory, MEMORY_FILE } from '../../core/memory/store';
import { defineTool } from './governedTool';

/** alfred_memory_append: one note to the project memory, only while the project's memory policy is on. */
export const memoryAppend = defineTool<{ text: string }>('alfred_memory_append', (input, { harness }) => {
  const result = appendMemory(harness.workspaceFolder, input.text, new Date(), vscode.workspace.isTrusted);
  if (!result.ok) throw new Error(result.why);
  return { text: `Remembered in ${MEMORY_FILE}.`, data: { file: MEMORY_FILE, chars: input.text.trim().length } };
});
