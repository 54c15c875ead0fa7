/**
 * The hook server's harnesses, kept between requests: opening one reads and parses every role file,
 * a few milliseconds of each tool call. A kept harness is used only while what it read at opening is
 * unchanged (the role folders and files, the team's budgets file, whether .vscode/settings.json
 * exists, which folder it is); everything else a harness reads (the ledger, the runtime role, the
 * settings' content, checks.toml) it reads afresh on each call anyway.
 */
import path from 'node:path';
import { exists, lookup, readdir, readsOf, stat } from '../../base/fs/keptReads';
import type { Harness } from '../../harness/harness';
import { isRoleFile } from '../../rules/roles/loader';
import { TEAM_FILE } from '../../ledger/team/config';
import { FORWARDED_ENV } from './serverProtocol';

export type OpenHarness = (folder: string, env: NodeJS.ProcessEnv, cwd: string, traceLater: TraceLater) => Promise<Harness>;
type TraceLater = (write: () => Promise<void>) => void;

/**
 * A served call's trace is not part of its answer: written once the launcher and the agent that ran it
 * have had the machine to themselves. Written on the loop's next turn, it competed with them for the
 * CPU and cost the call 0.2 ms end to end (the launcher's fast path, measured side by side on two cores).
 */
const TRACE_AFTER_MS = 20;
const afterReply: TraceLater = (write) => {
  setTimeout(() => void write(), TRACE_AFTER_MS);
};

/** Workspaces an agent session touches are few; past this the least recently used is dropped. */
const MAX_ENTRIES = 16;

/**
 * Reads what the harness read at opening, through fs/keptReads, so that checking it later costs a
 * stat of each path (no folder listed again): the folder itself, whether its settings file exists,
 * the team's budgets file (read when the harness opens its team ledger), each role folder and role file.
 */
function openingReads(harness: Harness): { unchanged: () => boolean } {
  return readsOf(() => {
    lookup(harness.workspaceFolder);
    exists(path.join(harness.workspaceFolder, '.vscode', 'settings.json'));
    stat(path.join(harness.workspaceFolder, TEAM_FILE));
    for (const { dir } of harness.roleFolders()) {
      if (!stat(dir)?.isDirectory()) continue;
      try {
        for (const entry of readdir(dir)) if (isRoleFile(entry)) stat(path.join(dir, entry.name));
      } catch {
        // Unreadable (the harness reported it): the folder's stat, noted above, tells when that changes.
      }
    }
  });
}

export class HarnessCache {
  private readonly entries = new Map<string, { harness: Harness; reads: { unchanged: () => boolean } }>();

  constructor(private readonly open: OpenHarness) {}

  /** The harness of `folder` (relative to `cwd`) under the caller's variables of `env` (each caller environment its own). */
  async get(folder: string, env: NodeJS.ProcessEnv, cwd: string): Promise<Harness> {
    const key = JSON.stringify([path.resolve(cwd, folder), ...FORWARDED_ENV.map((name) => env[name] ?? null)]);
    const kept = this.entries.get(key);
    this.entries.delete(key);
    if (kept?.reads.unchanged()) {
      this.entries.set(key, kept);
      return kept.harness;
    }
    const harness = await this.open(folder, env, cwd, afterReply);
    this.entries.set(key, { harness, reads: openingReads(harness) });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return harness;
  }
}
