import * as vscode from 'vscode';
import { parseProfiles, type Profile, type ProfileProblem } from '../../core/models/profiles';

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
}

/** `@alfred`'s settings, read fresh for every turn (they can change at any moment). */
export function readChatSettings(): ChatSettings {
  const c = vscode.workspace.getConfiguration('alfred');
  const rounds = c.get<number>('maxToolRounds');
  const { profiles, problems } = parseProfiles(c.get('profiles'));
  return {
    maxToolRounds: typeof rounds === 'number' && rounds >= 1 ? Math.floor(rounds) : DEFAULT_MAX_TOOL_ROUNDS,
    autopilot: c.get<boolean>('autopilot') ?? true,
    pinnedPacks: (c.get<unknown[]>('pinnedPacks') ?? []).filter((p): p is string => typeof p === 'string' && p.trim() !== ''),
    persona: c.get<string>('persona') ?? 'alfred',
    dailyBudgetUsd: Math.max(0, c.get<number>('dailyBudgetUsd') ?? 0),
    profiles,
    profileProblems: problems,
  };
}
