/** When an agent hook last ran Alfred in this workspace, for the dashboard's governance section. */
import { lastEvent } from '../../base/events/tail';
import type { AlfredEvent } from '../../base/events/types';

export interface HookRun {
  ts: string;
  /** The event as the agent named it: `PreToolUse`, `preToolUse`, `Stop`, … */
  event: string;
  tool?: string;
  /** Alfred failed while handling it (a HookError). */
  failed: boolean;
}

const PREFIX = 'hook:';

/** A hook's record: its `source` is `hook:<Event>`, or it is the HookError a failing hook wrote. */
export function hookRunOf(e: AlfredEvent): HookRun | undefined {
  const tool = typeof e.tool === 'string' && e.tool ? { tool: e.tool } : {};
  if (typeof e.source === 'string' && e.source.startsWith(PREFIX)) {
    return { ts: e.ts, event: e.source.slice(PREFIX.length), failed: false, ...tool };
  }
  if (e.type === 'HookError') return { ts: e.ts, event: typeof e.event === 'string' ? e.event : '?', failed: true, ...tool };
  return undefined;
}

/** The newest hook run in the log, read from its tail. */
export function lastHookRun(stateDir: string): HookRun | undefined {
  const e = lastEvent(stateDir, (ev) => hookRunOf(ev) !== undefined, { mustContain: [`"${PREFIX}`, '"HookError"'] });
  return e && hookRunOf(e);
}
