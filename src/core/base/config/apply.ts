/** The last steps of a confirmed configuration write: check nothing moved, back up, write atomically. */
import { DEFAULT_FILE_MODE, SECRET_FILE_MODE, writeAllOrNothing, type FileWrite } from './atomicWrite';
import { createBackup, readBackupFiles, type BackupManifest } from './backups';
import { nodeConfigFs, type ConfigFs } from './fsOps';
import type { NewEvent } from '../events/types';
import type { WritePlan } from './types';

export interface ApplyOptions {
  stateDir: string;
  fs?: ConfigFs;
  now?: Date;
}

export interface ApplyResult {
  backup: BackupManifest;
  /** Paths written or deleted, in the plan's order. */
  written: string[];
}

export class StalePlanError extends Error {
  constructor(readonly file: string) {
    super(`${file} changed after the diff was shown; nothing was written. Review the new diff and confirm again.`);
    this.name = 'StalePlanError';
  }
}

/**
 * Writes a confirmed plan: every target must still hold the text the diff was made from, the
 * previous versions go to a backup, then all files are written or none (see atomicWrite.ts).
 */
export function applyPlan(plan: WritePlan, opts: ApplyOptions): ApplyResult {
  const fs = opts.fs ?? nodeConfigFs;
  if (plan.files.length === 0) throw new Error('nothing to write: the plan has no changes');
  for (const f of plan.files) {
    if (fs.readText(f.path) !== f.oldText) throw new StalePlanError(f.path);
  }
  // Write through symbolic links (a role folder linked from a dotfiles repository stays a link).
  const targets = plan.files.map((f) => ({ file: f, target: fs.realPath(f.path) }));
  const backup = createBackup(opts.stateDir, {
    reason: plan.reason,
    title: plan.title,
    files: targets.map(({ file, target }) => ({ path: target, text: file.oldText, mode: fs.mode(target), secret: file.secret })),
  }, { now: opts.now });
  const writes: FileWrite[] = targets.map(({ file, target }) => ({
    path: target,
    text: file.newText,
    mode: file.secret ? SECRET_FILE_MODE : (fs.mode(target) ?? DEFAULT_FILE_MODE),
  }));
  writeAllOrNothing(writes, readBackupFiles(opts.stateDir, backup.id), fs);
  return { backup, written: plan.files.map((f) => f.path) };
}

/** The `ConfigWritten` event of a write: paths and kinds of change, never contents. */
export function configWrittenEvent(plan: WritePlan, result: ApplyResult): NewEvent {
  return {
    type: 'ConfigWritten',
    reason: plan.reason,
    files: plan.files.map((f) => ({ path: f.path, change: f.change })),
    backup: result.backup.id,
  };
}
