/**
 * ctx_edit: replace an exact string in a workspace file, or create a new file. The write is
 * atomic (src/core/base/fs/atomicWrite.ts) and keeps the file's mode.
 * Protected paths are refused earlier, by the policy gate.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { atomicWrite } from '../../base/fs/atomicWrite';
import { type OpResult, ToolError } from './errors';
import { invalidateIgnoreRules } from './ignoreRules';
import { looksBinary, splitLines, statForRead } from './read';
import { displayPath, resolveWorkspacePath, type WorkspacePath } from './workspacePath';

export interface EditInput {
  path: string;
  oldString?: string;
  newString: string;
  replaceAll?: boolean;
}

/**
 * Writes through the storage module's atomic write (a temp file in the same folder, flushed, renamed
 * over the target). A new file gets the mode any editor would give it: 0666 less the umask.
 */
function writeWorkspaceFile(file: string, content: string, mode?: number): void {
  atomicWrite(file, content, { mode: mode ?? (0o666 & ~process.umask()) });
}

/** Non-overlapping occurrences, counted the way split/join replaces them. */
function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) count++;
  return count;
}

function quote(s: string, max = 200): string {
  return JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s);
}

/** Where the search went wrong, as far as can be told: points at the likely spot. */
function noMatchHint(content: string, oldString: string): string {
  const first = oldString.split(/\r?\n/).map((l) => l.trim()).find((l) => l !== '');
  const at = first === undefined ? -1 : splitLines(content).findIndex((l) => l.includes(first));
  const reread = 'Re-read the file with ctx_read and copy the text exactly, including whitespace and indentation.';
  if (at === -1) return reread;
  return `Its first line ${quote(first as string, 80)} is at line ${at + 1}, so the difference is after it or in whitespace. ${reread}`;
}

async function createFile(workspaceFolder: string, target: WorkspacePath, content: string): Promise<OpResult> {
  const shown = displayPath(target.rel);
  // lstat: a symlink counts as existing, even a dangling one.
  const existing = await fs.promises.lstat(target.abs).catch(() => undefined);
  if (existing) {
    const what = existing.isDirectory() ? 'a folder' : 'a file';
    throw new ToolError(`${shown} already exists (${what}); it is never overwritten. To change a file, give oldString with the text to replace.`, 'exists');
  }
  await fs.promises.mkdir(path.dirname(target.real), { recursive: true });
  writeWorkspaceFile(target.real, content);
  if (path.basename(target.real) === '.gitignore') invalidateIgnoreRules(workspaceFolder);
  const lines = splitLines(content).length;
  return {
    text: `Created ${shown} (${lines} line${lines === 1 ? '' : 's'}).`,
    data: { path: target.rel, created: true, replacements: 0 },
  };
}

export async function editOp(workspaceFolder: string, input: EditInput): Promise<OpResult> {
  const target = resolveWorkspacePath(workspaceFolder, input.path);
  const shown = displayPath(target.rel);
  if (target.rel === '') throw new ToolError('The path names the workspace folder itself; give a file path.', 'is-directory');
  if (input.oldString === undefined) return createFile(workspaceFolder, target, input.newString);
  if (input.oldString === '') {
    throw new ToolError('oldString is empty. Give the exact text to replace, or omit oldString to create a new file.', 'invalid-input');
  }

  const stats = await statForRead(target.real, shown);
  if (stats.isDirectory()) throw new ToolError(`${shown} is a folder, not a file.`, 'is-directory');
  if (!stats.isFile()) throw new ToolError(`${shown} is not a regular file.`, 'invalid-input');
  const bytes = await fs.promises.readFile(target.real);
  if (looksBinary(bytes)) throw new ToolError(`${shown} is a binary file; ctx_edit edits text files only.`, 'binary');
  const content = bytes.toString('utf8');

  let oldString = input.oldString;
  let newString = input.newString;
  let count = countOccurrences(content, oldString);
  // The model usually writes \n; a file with Windows line endings still deserves a match.
  if (count === 0 && content.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r')) {
    const crlf = (s: string) => s.replace(/\r?\n/g, '\r\n');
    const n = countOccurrences(content, crlf(oldString));
    if (n > 0) [oldString, newString, count] = [crlf(oldString), crlf(newString), n];
  }
  if (count === 0) {
    throw new ToolError(`oldString was not found in ${shown}: ${quote(input.oldString)}. ${noMatchHint(content, input.oldString)}`, 'no-match');
  }
  if (count > 1 && !input.replaceAll) {
    throw new ToolError(`oldString occurs ${count} times in ${shown}. Include more surrounding text so it occurs exactly once, or set replaceAll to true to replace all ${count}.`, 'ambiguous');
  }

  let updated: string;
  if (input.replaceAll) updated = content.split(oldString).join(newString);
  else {
    const at = content.indexOf(oldString);
    updated = content.slice(0, at) + newString + content.slice(at + oldString.length);
  }
  writeWorkspaceFile(target.real, updated, stats.mode & 0o7777);
  if (path.basename(target.real) === '.gitignore') invalidateIgnoreRules(workspaceFolder);
  return {
    text: `Edited ${shown}: replaced ${count} occurrence${count === 1 ? '' : 's'}.`,
    data: { path: target.rel, created: false, replacements: count },
  };
}
