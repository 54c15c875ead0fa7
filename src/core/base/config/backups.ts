/**
 * Backups of the files a configuration write replaces: `<stateDir>/backups/<id>/` with a
 * `manifest.json` (files, time, reason) and one stored copy per file that existed. The newest
 * KEEP_UNPINNED unpinned backups are kept; pinned ones are kept forever.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { atomicWrite, renameRetrying, writeNewFile } from '../fs/atomicWrite';
import type { WriteRequest } from './types';
import { randomHex } from '../crypto/random';

export const BACKUPS_DIR = 'backups';
export const MANIFEST = 'manifest.json';
export const KEEP_UNPINNED = 10;

export interface BackupFileEntry {
  path: string;
  /** False: the file did not exist, so restoring this backup deletes it. */
  existed: boolean;
  /** Permission bits of the file when it was backed up. */
  mode?: number;
  secret: boolean;
  /** The stored copy's name inside the backup folder, when the file existed. */
  stored?: string;
}

export interface BackupManifest {
  version: 1;
  id: string;
  createdAt: string;
  reason: string;
  title?: string;
  pinned: boolean;
  files: BackupFileEntry[];
}

export interface BackupInput {
  reason: string;
  title?: string;
  files: Array<{ path: string; text: string | null; mode?: number; secret?: boolean }>;
}

/** A backed-up file with its text (null: it did not exist). */
export interface BackedUpFile {
  path: string;
  text: string | null;
  mode?: number;
  secret: boolean;
}

export function backupsDir(stateDir: string): string {
  return path.join(stateDir, BACKUPS_DIR);
}

/** Sortable by time: `20250102T030405678Z-1a2b3c`. */
function newBackupId(now: Date): string {
  return `${now.toISOString().replace(/[-:.]/g, '')}-${randomHex(3)}`;
}

/**
 * Stores the previous versions, then prunes old unpinned backups. The folder is assembled under a
 * temporary name and renamed into place, so a half-written backup is never listed.
 */
export function createBackup(stateDir: string, input: BackupInput, opts: { now?: Date; keep?: number } = {}): BackupManifest {
  const now = opts.now ?? new Date();
  const root = backupsDir(stateDir);
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  const id = newBackupId(now);
  const tmp = path.join(root, `.partial-${id}`);
  fs.mkdirSync(tmp, { mode: 0o700 });
  try {
    const files: BackupFileEntry[] = input.files.map((f, i) => {
      const entry: BackupFileEntry = { path: f.path, existed: f.text !== null, secret: f.secret === true };
      if (f.mode !== undefined) entry.mode = f.mode;
      if (f.text !== null) {
        entry.stored = `${i}-${path.basename(f.path)}`;
        // Backups may hold secrets: only the user may read them.
        writeNewFile(path.join(tmp, entry.stored), f.text, 0o600);
      }
      return entry;
    });
    const manifest: BackupManifest = {
      version: 1, id, createdAt: now.toISOString(), reason: input.reason,
      ...(input.title ? { title: input.title } : {}), pinned: false, files,
    };
    writeNewFile(path.join(tmp, MANIFEST), JSON.stringify(manifest, null, 2) + '\n', 0o600);
    renameRetrying(tmp, path.join(root, id));
    pruneBackups(stateDir, opts.keep ?? KEEP_UNPINNED);
    return manifest;
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

export interface BackupList {
  /** Newest first. */
  backups: BackupManifest[];
  /** Backup folders that could not be read, with why; never fatal. */
  problems: string[];
}

export function listBackups(stateDir: string): BackupList {
  const root = backupsDir(stateDir);
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { backups: [], problems: [] };
    throw err;
  }
  const backups: BackupManifest[] = [];
  const problems: string[] = [];
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const file = path.join(root, name, MANIFEST);
    const manifest = readManifest(file);
    if (typeof manifest === 'string') problems.push(`${file}: ${manifest}`);
    else backups.push(manifest);
  }
  backups.sort((a, b) => (a.createdAt === b.createdAt ? b.id.localeCompare(a.id) : b.createdAt.localeCompare(a.createdAt)));
  return { backups, problems };
}

function readManifest(file: string): BackupManifest | string {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no manifest' : `not valid JSON: ${(err as Error).message}`;
  }
  const m = value as Partial<BackupManifest> | null;
  if (!m || typeof m !== 'object' || m.version !== 1) return 'unknown manifest version';
  if (typeof m.id !== 'string' || typeof m.createdAt !== 'string' || typeof m.reason !== 'string') return 'missing id, createdAt or reason';
  if (typeof m.pinned !== 'boolean' || !Array.isArray(m.files)) return 'missing pinned or files';
  if (!m.files.every((f) => f && typeof f.path === 'string' && typeof f.existed === 'boolean')) return 'a file entry lacks path or existed';
  return m as BackupManifest;
}

export function getBackup(stateDir: string, id: string): BackupManifest {
  if (!/^[\w-]+$/.test(id)) throw new Error(`"${id}" is not a backup id`);
  const file = path.join(backupsDir(stateDir), id, MANIFEST);
  const manifest = readManifest(file);
  if (typeof manifest === 'string') throw new Error(`backup ${id}: ${file}: ${manifest}`);
  return manifest;
}

/** Pins (kept forever) or unpins a backup; the manifest is replaced atomically. */
export function setPinned(stateDir: string, id: string, pinned: boolean): BackupManifest {
  const manifest = { ...getBackup(stateDir, id), pinned };
  atomicWrite(path.join(backupsDir(stateDir), id, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
  if (!pinned) pruneBackups(stateDir);
  return manifest;
}

/** Deletes unpinned backups beyond the newest `keep`; returns the ids removed. */
export function pruneBackups(stateDir: string, keep = KEEP_UNPINNED): string[] {
  const unpinned = listBackups(stateDir).backups.filter((b) => !b.pinned);
  const removed = unpinned.slice(keep).map((b) => b.id);
  for (const id of removed) fs.rmSync(path.join(backupsDir(stateDir), id), { recursive: true, force: true });
  return removed;
}

/** The files of a backup with their texts as they were. */
export function readBackupFiles(stateDir: string, id: string): BackedUpFile[] {
  const manifest = getBackup(stateDir, id);
  return manifest.files.map((f) => {
    let text: string | null = null;
    if (f.existed) {
      const stored = path.join(backupsDir(stateDir), id, f.stored ?? '');
      if (!f.stored || !fs.existsSync(stored)) throw new Error(`backup ${id}: the copy of ${f.path} is missing (${stored})`);
      text = fs.readFileSync(stored, 'utf8');
    }
    return { path: f.path, text, ...(f.mode !== undefined ? { mode: f.mode } : {}), secret: f.secret === true };
  });
}

/** A write that puts every file of a backup back as it was (a file that did not exist is deleted). */
export function restoreRequest(stateDir: string, id: string): WriteRequest {
  const manifest = getBackup(stateDir, id);
  return {
    files: readBackupFiles(stateDir, id).map((f) => ({ path: f.path, newText: f.text, secret: f.secret })),
    reason: `restore backup ${id}`,
    title: `Restore ${manifest.createdAt} (${manifest.reason})`,
  };
}
