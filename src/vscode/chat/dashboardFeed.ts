import * as vscode from 'vscode';
import type { Harness } from '../../core/harness/harness';
import { chainHealth } from '../../core/models/failover';
import type { ModelLink } from '../../core/models/profiles';
import { readChatState } from '../../core/turn/chatState';
import type { FailoverView, PackView } from '../../protocol/dashboard';
import { readChatSettings } from './chatSettings';

/** `@alfred`'s part of the dashboard: the failover chains with their health, and the last pack. */

const label = (l: ModelLink): string => [l.vendor, l.family, l.id].filter(Boolean).join('/');

export function failoverView(harness: Harness | undefined): FailoverView {
  const { profiles, profileProblems } = readChatSettings();
  const state = harness ? readChatState(harness.stateDir).state : undefined;
  const active = state?.profile && profiles.some((p) => p.name === state.profile) ? state.profile : null;
  return {
    active,
    profiles: profiles.map((p) => {
      const saved = state?.failover[p.name];
      // Health is known for the profile in use (and any profile used before); the others are just their chain.
      if (p.name !== active && !saved) return { name: p.name, links: p.chain.map((l) => ({ label: label(l) })) };
      const health = chainHealth(saved ?? { active: 0, failures: {} }, p.chain, new Set(saved?.unavailable ?? []), Boolean(saved?.checkedAt));
      return { name: p.name, links: health.map((h) => ({ label: label(h.link), state: h.health, ...(h.failures ? { failures: h.failures } : {}) })) };
    }),
    problems: profileProblems.map((p) => `${p.path} ${p.key}: ${p.message}`),
  };
}

function reasonText(reason: string, matched: readonly string[]): string {
  const list = matched.join(', ');
  switch (reason) {
    case 'trigger': return vscode.l10n.t('Chosen by its trigger words: {0}', list);
    case 'hint': return vscode.l10n.t('Chosen by the repository: {0}', list);
    case 'sticky': return vscode.l10n.t('Kept from the previous prompt (no trigger word or repository hint matched)');
    case 'pinned': return vscode.l10n.t('Pinned (autopilot is off)');
    default: return reason;
  }
}

export function packView(harness: Harness | undefined): PackView | null {
  const last = harness ? readChatState(harness.stateDir).state.lastPack : undefined;
  if (!last?.packs.length) return null;
  return { name: last.packs.join(', '), reason: reasonText(last.reason, last.matched ?? []), ts: last.ts };
}
