/**
 * Reads what the fingerprint hashes from a workspace: the checks file, the prompt files in force
 * and the user's labels (`.alfred/labels.toml`: `name = "value"` lines). Missing files are simply
 * absent; a labels file that cannot be parsed gives no labels rather than failing a record.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'smol-toml';
import { CHECKS_PATH } from '../../protect/checksFile';
import type { FingerprintFiles } from './fingerprint';

export const LABELS_FILE = '.alfred/labels.toml';
/** The prompt files agents read by themselves, besides `.github/agents/*.agent.md`. */
const PROMPT_FILES = ['.github/copilot-instructions.md', 'AGENTS.md', 'CLAUDE.md'];
const AGENTS_DIR = '.github/agents';

/**
 * Every trace of every tool call asks for these: what was read is kept per workspace and read again
 * only when a stat of the files (and of the agents folder) tells that one of them changed.
 */
const kept = new Map<string, { stamp: string; files: FingerprintFiles }>();

function stampOf(workspaceFolder: string): string {
  return [CHECKS_PATH, LABELS_FILE, ...PROMPT_FILES, ...agentFiles(workspaceFolder)].map((rel) => {
    const st = fs.statSync(path.join(workspaceFolder, rel), { throwIfNoEntry: false });
    return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : '-';
  }).join('|');
}

export function readFingerprintFiles(workspaceFolder: string): FingerprintFiles {
  const stamp = stampOf(workspaceFolder);
  const cached = kept.get(workspaceFolder);
  if (cached?.stamp === stamp) return cached.files;
  const files = readFiles(workspaceFolder);
  kept.set(workspaceFolder, { stamp, files });
  return files;
}

function readFiles(workspaceFolder: string): FingerprintFiles {
  const read = (rel: string): Buffer | null => {
    try {
      return fs.readFileSync(path.join(workspaceFolder, rel));
    } catch {
      return null;
    }
  };
  const promptFiles = [...PROMPT_FILES, ...agentFiles(workspaceFolder)].flatMap((rel) => {
    const bytes = read(rel);
    return bytes ? [{ path: rel, bytes }] : [];
  });
  return { checks: read(CHECKS_PATH), promptFiles, labels: readLabels(read(LABELS_FILE)) };
}

/** `.github/agents/*.agent.md`, workspace-relative. */
function agentFiles(workspaceFolder: string): string[] {
  const dir = path.join(workspaceFolder, AGENTS_DIR);
  try {
    // Most workspaces have no agents folder: told by a stat, without the exception a listing throws (every trace asks).
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return [];
    return fs.readdirSync(dir).filter((n) => n.endsWith('.agent.md')).map((n) => `${AGENTS_DIR}/${n}`);
  } catch {
    return []; // unreadable: no agent files
  }
}

function readLabels(bytes: Buffer | null): Record<string, string> {
  if (!bytes) return {};
  try {
    const table = parse(bytes.toString('utf8'));
    const labels: Record<string, string> = {};
    for (const [k, v] of Object.entries(table)) {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') labels[k] = String(v);
    }
    return labels;
  } catch {
    return {};
  }
}
