/**
 * The project memory, `.alfred/memory.md`: read into `@alfred`'s prompt and appended to by the governed
 * `alfred_memory_append` tool, both only while the memory policy is on (workflow/memory/policy.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readMemoryPolicy } from './policy';

export const MEMORY_FILE = '.alfred/memory.md';
/** What goes into a prompt: the newest part of a longer memory, so it cannot eat the context. */
export const MAX_MEMORY_CHARS = 16_000;
export const MAX_ENTRY_CHARS = 2_000;

export interface MemoryText {
  text: string;
  /** Older entries were left out to keep MAX_MEMORY_CHARS. */
  truncated: boolean;
}

/** The memory to show the model, or undefined when memory is off, or there is none yet. */
export function readMemory(workspaceFolder: string, trusted = true): MemoryText | undefined {
  if (!readMemoryPolicy(workspaceFolder, trusted).on) return undefined;
  const file = path.join(workspaceFolder, MEMORY_FILE);
  let text: string;
  try {
    if (fs.lstatSync(file).isSymbolicLink()) return undefined;
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  if (text.trim() === '') return undefined;
  return text.length > MAX_MEMORY_CHARS ? { text: text.slice(text.length - MAX_MEMORY_CHARS), truncated: true } : { text, truncated: false };
}

/** The prompt block; the closing tag inside the text is broken so a memory entry cannot end the block early. */
export function memoryBlock(memory: MemoryText): string {
  const body = memory.text.trim().split('</project-memory>').join('<\\/project-memory>');
  const note = memory.truncated ? '\n\n(older entries left out)' : '';
  return `<project-memory>\nWhat earlier sessions in this project chose to remember (${MEMORY_FILE}):${note}\n\n${body}\n\n</project-memory>`;
}

export type AppendResult = { ok: true; file: string; entry: string } | { ok: false; why: string };

/** Appends one dated entry; refused while memory is off, for an empty or too long entry, or through a symlink. */
export function appendMemory(workspaceFolder: string, text: string, now: Date = new Date(), trusted = true): AppendResult {
  const policy = readMemoryPolicy(workspaceFolder, trusted);
  if (!policy.on) return { ok: false, why: `Project memory is off: ${policy.why}. Only the user turns it on, with {"allow": true} in .alfred/memory-policy.json.` };
  const body = text.trim();
  if (body === '') return { ok: false, why: 'The memory entry is empty.' };
  if (body.length > MAX_ENTRY_CHARS) return { ok: false, why: `The memory entry has ${body.length} characters; at most ${MAX_ENTRY_CHARS} are kept per entry. Say it shorter.` };
  const file = path.join(workspaceFolder, MEMORY_FILE);
  try {
    if (fs.lstatSync(file).isSymbolicLink()) return { ok: false, why: `${MEMORY_FILE} is a symbolic link; Alfred appends only to a plain file.` };
  } catch {
    // not there yet: created below
  }
  const entry = `\n## ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC\n\n${body}\n`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, entry, 'utf8');
  return { ok: true, file, entry };
}
