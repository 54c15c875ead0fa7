import fs from 'node:fs';
import path from 'node:path';
import { formatOutcome } from '../../../workflow/completion/report';
import { verifyCompletion } from '../../../workflow/completion/verify';
import { agentSessionConfiguration } from '../../../usage/agentSession';
import { atomicWrite } from '../../../base/fs/atomicWrite';
import { withLock } from '../../../base/state/lock';
import { allowStopAnswer, blockStopAnswer } from '../output';
import type { HookHandler } from './types';

export const DEFAULT_MAX_STOP_BLOCKS = 3;
const FILE = 'stop-blocks.json';
const KEEP_SESSIONS = 50;

type Counts = Record<string, { blocks: number; ts: string }>;

function readCounts(dir: string): Counts {
  try {
    const data = JSON.parse(fs.readFileSync(path.join(dir, FILE), 'utf8')) as Counts;
    return data && typeof data === 'object' ? data : {};
  } catch {
    return {};
  }
}

/** Sets one agent session's count of forced continuations, keeping the newest sessions only. */
async function setBlocks(dir: string, session: string, blocks: number): Promise<void> {
  await withLock(dir, () => {
    const counts = { ...readCounts(dir), [session]: { blocks, ts: new Date().toISOString() } };
    const kept = Object.entries(counts).sort((a, b) => b[1].ts.localeCompare(a[1].ts)).slice(0, KEEP_SESSIONS);
    atomicWrite(path.join(dir, FILE), JSON.stringify(Object.fromEntries(kept)));
  });
}

/**
 * Stop: when the workspace declares acceptance checks, Alfred runs them itself and keeps the agent
 * working (decision: block, with the failing output) while they fail — at most `maxStopBlocks` times
 * in a row per agent session, so an agent that cannot fix them is not held forever. A stop that is
 * not a continuation (`stop_hook_active` false) starts the count again.
 */
export const stop: HookHandler = async (harness, input, event, options) => {
  const max = options.maxStopBlocks ?? DEFAULT_MAX_STOP_BLOCKS;
  const session = input.sessionId ?? 'unknown-session';
  const previous = input.stopHookActive ? (readCounts(harness.stateDir)[session]?.blocks ?? 0) : 0;
  const outcome = await verifyCompletion(harness, {
    trigger: `hook:${event}`, agentSession: session, ...(options.vscodeVersion ? { vscodeVersion: options.vscodeVersion } : {}),
    // The session's model as measured (its usage was charged just before this handler ran); `n/a` when none was.
    configuration: () => agentSessionConfiguration(harness.stateDir, session),
  });
  if (outcome.kind === 'no-checks') return allowStopAnswer();
  const record = async (decision: string) => harness.record([{
    type: 'StopChecked', agentSession: session, decision, accepted: outcome.accepted, blocks: previous, maxBlocks: max, source: `hook:${event}`,
  }]);
  if (outcome.accepted) {
    await setBlocks(harness.stateDir, session, 0);
    await record('allow');
    // No message: VS Code shows any systemMessage as a warning, and passing checks are not one.
    return allowStopAnswer();
  }
  if (previous >= max) {
    await record('allow-after-limit');
    return allowStopAnswer(`Alfred: the acceptance checks still fail after ${max} forced continuations; the agent was let stop. ${outcome.reason}`);
  }
  await setBlocks(harness.stateDir, session, previous + 1);
  await record('block');
  return blockStopAnswer(`Alfred: the work is not done — the acceptance checks fail (continuation ${previous + 1} of ${max}). Fix what they report, then stop again.\n\n${formatOutcome(outcome)}`, input.agent);
};
