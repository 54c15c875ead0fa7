import * as vscode from 'vscode';
import { contractOf } from '../../core/tools/contracts';
import type { HarnessHost } from '../harnessHost';
import { ctxEdit } from './ctxEdit';
import { ctxRead } from './ctxRead';
import { ctxSearch } from './ctxSearch';
import { ctxSession } from './ctxSession';
import { ctxShell } from './ctxShell';
import { ctxTree } from './ctxTree';
import { governedTool } from './governedTool';
import { memoryAppend } from './memoryAppend';

const TOOLS = [ctxRead, ctxSearch, ctxTree, ctxEdit, ctxShell, ctxSession, memoryAppend];

/** Registers Alfred's language-model tools, each behind the gate. */
export function registerTools(host: HarnessHost): vscode.Disposable[] {
  return TOOLS.map(({ name, run }) => {
    const contract = contractOf(name);
    if (!contract) throw new Error(`No contract for ${name}`);
    return vscode.lm.registerTool(name, governedTool(contract, host, run));
  });
}
