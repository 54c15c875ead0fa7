import * as vscode from 'vscode';
import type { Harness } from '../../core/harness/harness';
import { hintMatches } from '../../core/workflow/packs/hints';
import { loadPacks } from '../../core/workflow/packs/loader';
import { detectPack } from '../../core/workflow/packs/radar';
import type { LoadedPacks, Pack } from '../../core/workflow/packs/types';
import { updateChatState } from '../../core/turn/chatState';
import type { PackStep } from '../../core/turn/composer';
import type { ChatSettings } from './chatSettings';

/** Built-in packs ship in the extension's `packs/`; the workspace adds `.alfred/packs/` when trusted. */
export function packsFor(harness: Harness, extensionUri: vscode.Uri): LoadedPacks {
  return loadPacks({
    builtinDir: vscode.Uri.joinPath(extensionUri, 'packs').fsPath,
    workspaceFolder: harness.workspaceFolder,
    trusted: vscode.workspace.isTrusted,
  });
}

const injected = (p: Pack) => ({ name: p.name, context: p.context, ...(p.recommendedRole ? { recommendedRole: p.recommendedRole } : {}) });

/**
 * Step 2 of the turn composer. Autopilot on: the radar picks one pack for the prompt (triggers, then
 * repository hints, then the conversation's last pack). Autopilot off: the pinned packs, or none.
 */
export async function selectPacks(harness: Harness, loaded: LoadedPacks, settings: ChatSettings, prompt: string, lastPacks: readonly string[] | undefined): Promise<PackStep> {
  let step: PackStep;
  if (!settings.autopilot) {
    const pinned = settings.pinnedPacks.map((n) => loaded.packs.get(n)).filter((p): p is Pack => p !== undefined);
    step = { packs: pinned.map(injected), reason: pinned.length ? 'pinned' : 'off' };
  } else {
    const packs = [...loaded.packs.values()];
    const pick = detectPack({
      prompt,
      packs,
      hintMatches: (hint) => hintMatches(harness.workspaceFolder, hint),
      ...(lastPacks?.length === 1 ? { last: lastPacks[0] } : {}),
    });
    const pack = pick.pack ? loaded.packs.get(pick.pack) : undefined;
    step = { packs: pack ? [injected(pack)] : [], reason: pick.reason, score: pick.score, matched: pick.matched };
  }
  // Remembered for the dashboard's "active pack"; the conversation's own stickiness comes from its history.
  await updateChatState(harness.stateDir, (state) => {
    state.lastPack = { packs: step.packs.map((p) => p.name), reason: step.reason, ...(step.matched?.length ? { matched: [...step.matched] } : {}), ts: new Date().toISOString() };
  });
  return step;
}
