/**
 * The hook server's harnesses, kept between requests: opening one reads and parses every role file,
 * a few milliseconds of each tool call. A kept harness is used only while what it read at opening is
 * unchanged (the role files' names, sizes and times, whether .vscode/settings.json exists, the folder
 * itself); everything else a harness reads (the ledger, the runtime role, the settings' content,
 * checks.toml) it reads afresh on each call anyway.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Harness } from '../harness';
import { listRoleFiles } from '../roles/loader';

export type OpenHarness = (folder: string, env: NodeJS.ProcessEnv, cwd: string, traceLater: TraceLater) => Promise<Harness>;
type TraceLater = (write: () => Promise<void>) => void;

/**
 * A served call's trace is not part of its answer: written on the next turn of the loop, after the
 * answer's promise chain has handed the reply to the socket.
 */
const afterReply: TraceLater = (write) => {
  setImmediate(() => void write());
};

/** Workspaces an agent session touches are few; past this the least recently used is dropped. */
const MAX_ENTRIES = 16;

function statStamp(file: string): string {
  try {
    const st = fs.statSync(file, { throwIfNoEntry: false });
    return st ? `${st.isDirectory() ? 'd' : 'f'}:${st.ino}:${st.size}:${st.mtimeMs}` : '-';
  } catch {
    return '-';
  }
}

/** What the harness read when it was opened, as a string that changes when any of it does. */
function stampOf(harness: Harness): string {
  const folder = harness.workspaceFolder;
  const parts = [statStamp(folder), fs.existsSync(path.join(folder, '.vscode', 'settings.json')) ? 'settings' : ''];
  for (const { dir } of harness.roleFolders()) {
    try {
      for (const file of listRoleFiles(dir)) parts.push(`${file}=${statStamp(file)}`);
    } catch (err) {
      parts.push(`${dir}!${(err as NodeJS.ErrnoException).code}`);
    }
  }
  return parts.join('\n');
}

export class HarnessCache {
  private readonly entries = new Map<string, { harness: Harness; stamp: string }>();

  constructor(private readonly open: OpenHarness) {}

  /** The harness of `folder` (relative to `cwd`) under the role variables of `env`. */
  async get(folder: string, env: NodeJS.ProcessEnv, cwd: string): Promise<Harness> {
    const key = JSON.stringify([path.resolve(cwd, folder), env.ALFRED_ROLE ?? null, env.LEAN_CTX_ROLE ?? null]);
    const kept = this.entries.get(key);
    this.entries.delete(key);
    if (kept && stampOf(kept.harness) === kept.stamp) {
      this.entries.set(key, kept);
      return kept.harness;
    }
    const harness = await this.open(folder, env, cwd, afterReply);
    this.entries.set(key, { harness, stamp: stampOf(harness) });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return harness;
  }
}
