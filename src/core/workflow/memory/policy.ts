/**
 * Per-project memory is opt-in (issue 16): `.alfred/memory-policy.json` holding `{ "allow": true }`
 * turns it on, and nothing else does. The file sits in `.alfred/`, a governance folder no agent tool
 * may write (protect/toolPaths.ts), so only the user turns memory on; an untrusted workspace never has it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isObject } from '../../base/isObject';

export const MEMORY_POLICY_FILE = '.alfred/memory-policy.json';

export type MemoryPolicy = { on: true } | { on: false; why: string };

/** Whether memory is on for the workspace; absent, unreadable, not JSON, or `allow` not exactly `true`: off. */
export function readMemoryPolicy(workspaceFolder: string, trusted = true): MemoryPolicy {
  if (!trusted) return { on: false, why: 'the workspace is not trusted (Workspace Trust)' };
  const file = path.join(workspaceFolder, MEMORY_POLICY_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { on: false, why: code === 'ENOENT' ? `${MEMORY_POLICY_FILE} does not exist` : `${MEMORY_POLICY_FILE} cannot be read (${code ?? String(err)})` };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { on: false, why: `${MEMORY_POLICY_FILE} is not valid JSON` };
  }
  const allow = isObject(doc) ? doc.allow : undefined;
  return allow === true ? { on: true } : { on: false, why: `${MEMORY_POLICY_FILE} does not say "allow": true` };
}
