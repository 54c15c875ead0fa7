/**
 * Reads what the fingerprint hashes from a workspace: the checks file, the prompt files in force
 * and the user's labels (`.alfred/labels.toml`: `name = "value"` lines). Missing files are simply
 * absent; a labels file that cannot be parsed gives no labels rather than failing a record.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'smol-toml';
import { CHECKS_PATH } from '../completion/checksFile';
import type { FingerprintFiles } from './fingerprint';

export const LABELS_FILE = '.alfred/labels.toml';
/** The prompt files agents read by themselves, besides `.github/agents/*.agent.md`. */
const PROMPT_FILES = ['.github/copilot-instructions.md', 'AGENTS.md', 'CLAUDE.md'];
const AGENTS_DIR = '.github/agents';

export function readFingerprintFiles(workspaceFolder: string): FingerprintFiles {
  const read = (rel: string): Buffer | null => {
    try {
      return fs.readFileSync(path.join(workspaceFolder, rel));
    } catch {
      return null;
    }
  };
  let agents: string[] = [];
  try {
    agents = fs.readdirSync(path.join(workspaceFolder, AGENTS_DIR)).filter((n) => n.endsWith('.agent.md')).map((n) => `${AGENTS_DIR}/${n}`);
  } catch {
    // No agent files.
  }
  const promptFiles = [...PROMPT_FILES, ...agents].flatMap((rel) => {
    const bytes = read(rel);
    return bytes ? [{ path: rel, bytes }] : [];
  });
  return { checks: read(CHECKS_PATH), promptFiles, labels: readLabels(read(LABELS_FILE)) };
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
