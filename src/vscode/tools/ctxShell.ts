import * as os from 'node:os';
import { protectedGlobsReader } from '../../core/completion/protectGlobs';
import type { Harness } from '../../core/harness';
import { planSandbox, type SandboxPlan } from '../../core/sandbox/index';
import { shellOp } from '../../core/tools/ops/shell';
import { readSettings } from '../settings';
import { defineTool } from './governedTool';

/**
 * ctx_shell: a command in the workspace, output and exit code captured, stopped at its timeout; in
 * the kernel sandbox (protected paths read-only) wherever there is one and the role does not turn it off.
 */
export const ctxShell = defineTool<Parameters<typeof shellOp>[1]>('ctx_shell', (input, { harness, signal, operationEnv }) => {
  const sandbox = plan(harness);
  return shellOp(harness.workspaceFolder, input, {
    signal,
    env: { ...process.env, ...operationEnv },
    defaultTimeoutSeconds: readSettings().shellTimeoutSeconds,
    sandbox,
    ...(sandbox.kind === 'unsandboxed' && sandbox.why === 'unavailable' && firstTime(harness.workspaceFolder) ? { note: sandbox.note } : {}),
  });
});

/** checks.toml's `protect` globs, one reader per workspace (it parses the file again only when it changed). */
const globReaders = new Map<string, () => readonly string[]>();
/** Workspaces already told that there is no sandbox: once is enough, every result would cost tokens. */
const told = new Set<string>();

/** Planned on every call: the role, checks.toml and the governance folders may have changed since the last. */
function plan(harness: Harness): SandboxPlan {
  let globs = globReaders.get(harness.workspaceFolder);
  if (!globs) globReaders.set(harness.workspaceFolder, (globs = protectedGlobsReader(harness.workspaceFolder)));
  return planSandbox({
    role: harness.activeRole().role,
    workspaceFolder: harness.workspaceFolder,
    protectedGlobs: globs(),
    stateDir: harness.stateDir,
    env: process.env,
    home: os.homedir(),
  });
}

function firstTime(workspaceFolder: string): boolean {
  if (told.has(workspaceFolder)) return false;
  told.add(workspaceFolder);
  return true;
}
