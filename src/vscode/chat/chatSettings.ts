import * as vscode from 'vscode';
import { lowerOnly } from '../../core/rules/budget/workspaceLimits';
import { parseProfiles, type Profile, type ProfileProblem } from '../../core/models/profiles';
import { bySource, dailyBudgetCap } from '../settings';

export const DEFAULT_MAX_TOOL_ROUNDS = 20;

export interface ChatSettings {
  maxToolRounds: number;
  /** The radar is on; off means no pack, or the pinned ones. */
  autopilot: boolean;
  pinnedPacks: string[];
  persona: string;
  dailyBudgetUsd: number;
  profiles: Profile[];
  profileProblems: ProfileProblem[];
  /** alfred.chatTools: other tools offered besides Alfred's own (core/turn/chatTools.ts). */
  chatTools: string[];
}

/** `@alfred`'s settings, read fresh for every turn (they can change at any moment). */
export function readChatSettings(): ChatSettings {
  const c = vscode.workspace.getConfiguration('alfred');
  // A workspace may lower the limit, never raise it above the user's.
  const rounds = bySource<number>(c, 'maxToolRounds');
  const { profiles, problems } = parseProfiles(c.get('profiles'));
  return {
    maxToolRounds: Math.max(1, Math.floor(lowerOnly(rounds.user, rounds.workspace, DEFAULT_MAX_TOOL_ROUNDS))),
    autopilot: c.get<boolean>('autopilot') ?? true,
    pinnedPacks: (c.get<unknown[]>('pinnedPacks') ?? []).filter((p): p is string => typeof p === 'string' && p.trim() !== ''),
    persona: c.get<string>('persona') ?? 'alfred',
    dailyBudgetUsd: dailyBudgetCap(),
    profiles,
    profileProblems: problems,
    chatTools: (c.get<unknown[]>('chatTools') ?? []).filter((p): p is string => typeof p === 'string'),
  };
}
