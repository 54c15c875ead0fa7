/** Step one of a configuration write: what would change, shown as diffs, before anything is touched. */
import * as path from 'node:path';
import { redactedDiff } from './diff';
import { nodeConfigFs, type ConfigFs } from './fsOps';
import { isEnvFile } from './redact';
import type { PlannedFile, WritePlan, WriteRequest } from './types';
import { randomUuid } from '../crypto/random';

export interface PlanOptions {
  fs?: ConfigFs;
  /** How a path is shown in the diff (e.g. relative to the workspace); the path itself by default. */
  label?: (file: string) => string;
}

/**
 * Reads each target and keeps the files whose text would change. A plan with no files means there
 * is nothing to do. Throws, naming the path, for a relative path or a file listed twice.
 */
export function planWrite(req: WriteRequest, opts: PlanOptions = {}): WritePlan {
  const fs = opts.fs ?? nodeConfigFs;
  const label = opts.label ?? ((f: string) => f);
  if (!req.reason?.trim()) throw new Error('a configuration write needs a reason');
  const seen = new Set<string>();
  const files: PlannedFile[] = [];
  const unchanged: string[] = [];
  for (const change of req.files) {
    if (!path.isAbsolute(change.path)) throw new Error(`${change.path}: a configuration write needs an absolute path`);
    const key = path.resolve(change.path);
    if (seen.has(key)) throw new Error(`${change.path}: listed twice in one configuration write`);
    seen.add(key);
    const oldText = fs.readText(change.path);
    if (oldText === change.newText) {
      unchanged.push(change.path);
      continue;
    }
    // A `.env` file holds secrets whether or not the caller said so.
    const secret = change.secret === true || isEnvFile(change.path);
    const shown = label(change.path);
    const diff = redactedDiff(shown, oldText, change.newText, { allValues: secret });
    files.push({
      path: change.path,
      label: shown,
      change: oldText === null ? 'create' : change.newText === null ? 'delete' : 'modify',
      oldText,
      newText: change.newText,
      secret,
      diff: diff.text,
      added: diff.added,
      removed: diff.removed,
    });
  }
  return { id: randomUuid(), title: req.title?.trim() || req.reason, reason: req.reason, files, unchanged };
}
