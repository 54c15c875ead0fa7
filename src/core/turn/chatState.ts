/**
 * `@alfred`'s state between turns, in `chat.json` of the state folder (outside the workspace, where
 * agents' tools cannot write): the active failover profile, each profile's failover state and which
 * links resolved last time, and the last pack chosen (for the dashboard).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { atomicWrite } from '../base/fs/atomicWrite';
import type { FailoverState } from '../models/failover';
import { withLock } from '../base/state/lock';

export const CHAT_STATE_FILE = 'chat.json';

export interface ProfileState extends FailoverState {
  /** Link keys that did not resolve when last checked. */
  unavailable?: string[];
  checkedAt?: string;
}

export interface LastPack {
  /** Pack names (one, or several pinned ones); empty when no pack was used. */
  packs: string[];
  reason: string;
  /** The triggers or hints that matched. */
  matched?: string[];
  ts: string;
}

export interface ChatState {
  version: 1;
  /** The active profile; none means the chat's selected model (`request.model`). */
  profile?: string;
  failover: Record<string, ProfileState>;
  lastPack?: LastPack;
  /** Tools the user added to `@alfred`'s offer in this workspace (`/tools add`): names, globs, categories. */
  tools?: string[];
}

const empty = (): ChatState => ({ version: 1, failover: {} });

function valid(value: unknown): value is ChatState {
  const v = value as Partial<ChatState> | null;
  return typeof v === 'object' && v !== null && v.version === 1 && typeof v.failover === 'object' && v.failover !== null
    && (v.profile === undefined || typeof v.profile === 'string');
}

export interface ChatStateFile {
  state: ChatState;
  /** Why the file was ignored (corrupt); a fresh state stands in. */
  problem?: string;
}

/** The state as on disk, without the lock (for display). */
export function readChatState(dir: string): ChatStateFile {
  const file = path.join(dir, CHAT_STATE_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { state: empty() };
    return { state: empty(), problem: `${file}: ${(err as Error).message}` };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return valid(parsed) ? { state: parsed } : { state: empty(), problem: `${file}: not a chat state (version 1); started afresh` };
  } catch (err) {
    return { state: empty(), problem: `${file}: not valid JSON (${(err as Error).message}); started afresh` };
  }
}

/** Read, change and write atomically under the state folder's lock. */
export function updateChatState<T>(dir: string, fn: (state: ChatState) => T): Promise<{ state: ChatState; result: T; problem?: string }> {
  return withLock(dir, () => {
    const { state, problem } = readChatState(dir);
    const result = fn(state);
    atomicWrite(path.join(dir, CHAT_STATE_FILE), JSON.stringify(state, null, 2) + '\n');
    return { state, result, ...(problem ? { problem } : {}) };
  });
}
