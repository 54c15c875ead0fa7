import type { Harness } from '../../../harness/harness';
import type { HookEvent } from '../events';
import type { HookInput } from '../input';
import type { HookAnswer } from '../output';

/** Options a caller may set for a run (the extension and tests pass their own). */
export interface HookRunOptions {
  /** Most times a Stop hook keeps an agent working on failing checks, per agent session. */
  maxStopBlocks?: number;
  /** Passed to completion records. */
  vscodeVersion?: string;
}

export type HookHandler = (harness: Harness, input: HookInput, event: HookEvent, options: HookRunOptions) => Promise<HookAnswer>;
