/**
 * Progress handoff (ARCHITECTURE.md: Operations, handoffs and traces): what the next session
 * needs to pick the work up — branch, HEAD, changed files, the last command and its exit code,
 * pending operations, the next step. Kept in `<stateDir>/handoffs.jsonl`, newest last.
 */
import * as path from 'node:path';
import { changedFiles, gitState } from '../completion/git';
import type { Actor } from '../../base/actor';
import { appendJsonLines, readJsonLines } from '../../base/fs/jsonLines';
import { describeOperation, lastCommand, openOperations } from '../operations/lifecycle';
import { withLock } from '../../base/state/lock';
import { randomUuid } from '../../base/crypto/random';

export const HANDOFFS_FILE = 'handoffs.jsonl';
const MAX_FILES = 200;

export interface Handoff {
  version: 1;
  id: string;
  ts: string;
  /** Who wrote it: `user`, `agent`, `chat`, … */
  by: string;
  role: string;
  session: string | null;
  /** undefined: no git (branch and HEAD cannot be claimed). */
  branch?: string;
  head?: string;
  git: boolean;
  changedFiles: string[];
  lastCommand?: { operation: string; command: string; state: string; exitCode: number | null; at: string };
  pendingOperations: Array<{ id: string; state: string; summary: string }>;
  nextStep: string;
}

/** What handoffs use of the harness: the workspace and state folders, who acts now. */
export interface HandoffHost {
  readonly workspaceFolder: string;
  readonly stateDir: string;
  actor(): Actor;
}

export function handoffsPath(stateDir: string): string {
  return path.join(stateDir, HANDOFFS_FILE);
}

/** Records the workspace's state now with the given next step, and returns it. */
export async function writeHandoff(harness: HandoffHost, input: { nextStep: string; by: string }): Promise<Handoff> {
  const nextStep = input.nextStep.trim();
  if (nextStep === '') throw new Error('A handoff needs a next step: say what the next session should do first.');
  const git = await gitState(harness.workspaceFolder);
  const changed = git ? (await changedFiles(harness.workspaceFolder, git)) ?? [] : [];
  const last = lastCommand(harness.stateDir);
  const handoff: Handoff = {
    version: 1, id: randomUuid(), ts: new Date().toISOString(), by: input.by,
    ...harness.actor(),
    git: git !== undefined, ...(git?.branch ? { branch: git.branch } : {}), ...(git?.head ? { head: git.head } : {}),
    changedFiles: changed.slice(0, MAX_FILES),
    ...(last ? {
      lastCommand: {
        operation: last.id, command: typeof last.args.command === 'string' ? last.args.command : describeOperation(last),
        state: last.state, exitCode: last.exitCode ?? null, at: last.updatedAt,
      },
    } : {}),
    pendingOperations: openOperations(harness.stateDir).map((o) => ({ id: o.id, state: o.state, summary: describeOperation(o) })),
    nextStep,
  };
  await withLock(harness.stateDir, () => appendJsonLines(handoffsPath(harness.stateDir), [handoff]));
  return handoff;
}

/** The newest handoff, or undefined; corrupt lines after it are skipped (and counted). */
export function latestHandoff(stateDir: string): { handoff?: Handoff; corrupt: number } {
  let newest = 0;
  const { records, corrupt } = readJsonLines(handoffsPath(stateDir), (v, line) => {
    const h = v as Handoff | null;
    if (!(h && h.version === 1 && typeof h.nextStep === 'string' && Array.isArray(h.changedFiles))) return 'not a handoff';
    newest = line;
    return h;
  });
  const handoff = records.at(-1);
  return { ...(handoff ? { handoff } : {}), corrupt: corrupt.filter((c) => c.line > newest).length };
}
