/**
 * ctx_read: a workspace text file, whole or a range of its lines. Folders, binary files and big
 * files read whole are refused with a message saying what to do instead.
 */
import * as fs from 'node:fs';
import * as readline from 'node:readline';
import { errnoCode, type OpResult, ToolError } from './errors';
import { displayPath, resolveWorkspacePath } from './workspacePath';

/** Files above this size are read only by line range, and skipped by search. */
export const MAX_TEXT_BYTES = 2 * 1024 * 1024;
const SNIFF_BYTES = 8192;

export interface ReadInput {
  path: string;
  startLine?: number;
  endLine?: number;
}

/** A file is taken as binary when its first 8 KB hold a NUL byte (as git and grep do). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, SNIFF_BYTES).includes(0);
}

/** The lines of a text; a final line break does not start another line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Stats a path for reading, turning the expected failures into ToolErrors. */
export async function statForRead(abs: string, shown: string): Promise<fs.Stats> {
  try {
    return await fs.promises.stat(abs);
  } catch (e) {
    const code = errnoCode(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new ToolError(`${shown} does not exist. Use ctx_tree or ctx_search to find the right path.`, 'not-found');
    }
    if (code === 'EACCES' || code === 'EPERM') throw new ToolError(`${shown} cannot be read: permission denied.`, 'not-found');
    throw e;
  }
}

async function readHead(abs: string): Promise<Buffer> {
  const handle = await fs.promises.open(abs, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Streams a big file, keeping only the wanted lines; counts them all. */
async function streamRange(abs: string, start: number, end: number | undefined, shown: string) {
  const lines: string[] = [];
  let total = 0;
  let kept = 0;
  const input = fs.createReadStream(abs, 'utf8');
  const rl = readline.createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of rl) {
      total++;
      if (total < start || (end !== undefined && total > end)) continue;
      kept += line.length + 1;
      if (kept > MAX_TEXT_BYTES) {
        throw new ToolError(`Lines ${start}-${end ?? 'end'} of ${shown} are more than 2 MB; ask for a smaller line range.`, 'too-large');
      }
      lines.push(line);
    }
  } finally {
    rl.close();
    input.destroy();
  }
  return { lines, total };
}

export async function readFileOp(workspaceFolder: string, input: ReadInput): Promise<OpResult> {
  const { startLine, endLine } = input;
  if (startLine !== undefined && endLine !== undefined && endLine < startLine) {
    throw new ToolError(`endLine (${endLine}) is before startLine (${startLine}).`, 'invalid-range');
  }
  const target = resolveWorkspacePath(workspaceFolder, input.path);
  const shown = displayPath(target.rel);
  const stats = await statForRead(target.abs, shown);
  if (stats.isDirectory()) throw new ToolError(`${shown} is a folder, not a file. Use ctx_tree to list it.`, 'is-directory');
  if (!stats.isFile()) throw new ToolError(`${shown} is not a regular file.`, 'invalid-input');
  if (looksBinary(await readHead(target.abs))) {
    throw new ToolError(`${shown} is a binary file (${stats.size} bytes); ctx_read reads text files only.`, 'binary');
  }
  const ranged = startLine !== undefined || endLine !== undefined;
  const big = stats.size > MAX_TEXT_BYTES;
  if (big && !ranged) {
    const mb = (stats.size / 1024 / 1024).toFixed(1);
    throw new ToolError(`${shown} is ${mb} MB, over the 2 MB limit for a whole read. Give startLine and endLine to read a line range.`, 'too-large');
  }

  const start = startLine ?? 1;
  let lines: string[];
  let total: number;
  let whole: string | undefined;
  if (big) {
    ({ lines, total } = await streamRange(target.abs, start, endLine, shown));
  } else {
    whole = await fs.promises.readFile(target.abs, 'utf8');
    const all = splitLines(whole);
    total = all.length;
    lines = all.slice(start - 1, endLine ?? total);
  }
  const data = { path: target.rel, totalLines: total, startLine: 0, endLine: 0, partial: false };
  if (total === 0) return { text: '(empty file)', data };
  if (start > total) {
    throw new ToolError(`startLine ${start} is past the end of ${shown}, which has ${total} lines.`, 'invalid-range');
  }
  const end = Math.min(endLine ?? total, total);
  const partial = start > 1 || end < total;
  const text = !partial && whole !== undefined ? whole : lines.join('\n');
  return { text, data: { ...data, startLine: start, endLine: end, partial } };
}
