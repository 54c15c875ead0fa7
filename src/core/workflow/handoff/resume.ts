/**
 * On resume, a handoff is a set of claims, each checked against the live workspace before it is
 * offered (branch, HEAD, changed files, pending operations); stale ones are marked, and the whole is
 * presented as what an earlier session said, never as fact.
 */
import { changedFiles, gitState } from '../completion/git';
import { readOperations } from '../operations/store';
import { latestHandoff, type Handoff, type HandoffHost } from './handoff';

export type ClaimStatus = 'current' | 'stale' | 'unverifiable';

export interface Claim {
  kind: 'branch' | 'head' | 'changed-file' | 'last-command' | 'pending-operation' | 'next-step';
  /** What the handoff says. */
  text: string;
  status: ClaimStatus;
  /** What the workspace shows now, when it differs. */
  now?: string;
}

export interface CheckedHandoff {
  handoff: Handoff;
  claims: Claim[];
  stale: number;
}

/** Checks each claim of `handoff` (default: the newest) against the workspace now. */
export async function checkHandoff(harness: Pick<HandoffHost, 'workspaceFolder' | 'stateDir'>, handoff?: Handoff): Promise<CheckedHandoff | undefined> {
  const h = handoff ?? latestHandoff(harness.stateDir).handoff;
  if (!h) return undefined;
  const git = await gitState(harness.workspaceFolder);
  const changedNow = git ? await changedFiles(harness.workspaceFolder, git) : undefined;
  const claims: Claim[] = [];

  if (h.branch !== undefined) {
    const now = git?.branch;
    claims.push({ kind: 'branch', text: `on branch ${h.branch}`, ...compare(git !== undefined, h.branch === now, now ?? (git ? 'detached HEAD' : 'no git')) });
  }
  if (h.head !== undefined) {
    const now = git?.head;
    claims.push({ kind: 'head', text: `HEAD at ${h.head.slice(0, 12)}`, ...compare(git !== undefined, h.head === now, now ? now.slice(0, 12) : 'no commit') });
  }
  for (const f of h.changedFiles) {
    const still = changedNow?.includes(f) ?? false;
    claims.push({ kind: 'changed-file', text: `${f} changed`, ...compare(changedNow !== undefined, still, 'no longer differs from HEAD') });
  }
  if (h.lastCommand) {
    const c = h.lastCommand;
    claims.push({ kind: 'last-command', text: `last command \`${c.command}\` ${c.exitCode === null ? `ended ${c.state}` : `exited ${c.exitCode}`}`, status: 'unverifiable' });
  }
  const ops = new Map(readOperations(harness.stateDir).operations.map((o) => [o.id, o]));
  for (const p of h.pendingOperations) {
    const now = ops.get(p.id);
    const same = now?.state === p.state;
    claims.push({ kind: 'pending-operation', text: `${p.summary} is ${p.state}`, ...compare(true, same, now ? `now ${now.state}` : 'no longer in the operations log') });
  }
  claims.push({ kind: 'next-step', text: h.nextStep, status: 'unverifiable' });
  return { handoff: h, claims, stale: claims.filter((c) => c.status === 'stale').length };
}

function compare(checkable: boolean, same: boolean, now: string): { status: ClaimStatus; now?: string } {
  if (!checkable) return { status: 'unverifiable' };
  return same ? { status: 'current' } : { status: 'stale', now };
}

const MARK: Record<ClaimStatus, string> = { current: '✔', stale: '✖ STALE', unverifiable: '?' };

/** Markdown for a new session (chat, the SessionStart hook): claims marked, never stated as fact. */
export function renderHandoff(checked: CheckedHandoff): string {
  const { handoff: h, claims } = checked;
  const lines = [
    `A handoff written ${h.ts} by ${h.by} (role ${h.role}) says the following. Each claim was checked against the workspace now; treat them as notes, not facts${checked.stale ? ` — ${checked.stale} ${checked.stale === 1 ? 'is' : 'are'} stale` : ''}.`,
    '',
  ];
  for (const c of claims) {
    if (c.kind === 'next-step') continue;
    lines.push(`- ${MARK[c.status]} ${c.text}${c.status === 'stale' && c.now ? ` (now: ${c.now})` : ''}`);
  }
  if (h.changedFiles.length === 0) lines.push('- (no changed files were recorded)');
  lines.push('', `Next step (as written): ${h.nextStep}`);
  return lines.join('\n');
}

/** The newest handoff, checked and rendered; undefined when none was written. */
export async function resumeHandoff(harness: Pick<HandoffHost, 'workspaceFolder' | 'stateDir'>): Promise<{ checked: CheckedHandoff; text: string } | undefined> {
  const checked = await checkHandoff(harness);
  return checked ? { checked, text: renderHandoff(checked) } : undefined;
}
