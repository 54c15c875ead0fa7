/**
 * Copilot's model usage, machine-wide, and each workspace's share of it.
 *
 * Copilot's OTel settings are user settings read once when it starts, so one endpoint serves every
 * window: whichever window runs Alfred's OTLP receiver turns what Copilot exports into usage records
 * and appends them here (`<ALFRED_HOME>/usage/copilot-otel.jsonl`). Each workspace then charges the
 * records of ITS agent sessions — the session ids its Copilot hooks have seen — reading only what
 * was appended since its last read (FileTail; the position and the sessions are kept in its state
 * folder). The hook processes and the extension may read at once: the ledger's ids keep each
 * record charged once, and the lock keeps the sessions list whole.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { atomicWrite, renameRetrying } from '../base/fs/atomicWrite';
import { appendJsonLines } from '../base/fs/jsonLines';
import { withLock } from '../base/state/lock';
import { alfredHome } from '../base/state/paths';
import { FileTail, type TailState } from './tail';
import type { ModelUsageRecord } from './types';

export const SPOOL_FILE = 'copilot-otel.jsonl';
/** In the workspace state folder: where the spool was left, and the agent sessions seen here. */
export const SPOOL_PLACE_FILE = 'copilot-usage.json';
/** Beside the spool: written while a receiver serves and Copilot's settings send to it. */
export const EXPORT_MARKER_FILE = 'copilot-otel.json';
/** The spool is rotated past this size (FileTail reads the rest of the old file first). */
const ROTATE_BYTES = 16 << 20;
/** Copilot sessions remembered per workspace: far more than run at once. */
const MAX_SESSIONS = 256;

export function usageHome(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(alfredHome(env), 'usage');
}

export function spoolPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(usageHome(env), SPOOL_FILE);
}

/** Appends records (from one process: the receiver's window). */
export function appendToSpool(file: string, records: readonly ModelUsageRecord[]): void {
  if (records.length === 0) return;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    if (fs.statSync(file).size > ROTATE_BYTES) renameRetrying(file, `${file}.1`);
  } catch {
    // No spool yet.
  }
  appendJsonLines(file, records);
}

interface Place { tail?: TailState; sessions: string[] }

function loadPlace(stateDir: string): Place {
  try {
    const data = JSON.parse(fs.readFileSync(path.join(stateDir, SPOOL_PLACE_FILE), 'utf8')) as Partial<Place>;
    return { ...(data.tail ? { tail: data.tail } : {}), sessions: Array.isArray(data.sessions) ? data.sessions.filter((s) => typeof s === 'string') : [] };
  } catch {
    return { sessions: [] };
  }
}

function savePlace(stateDir: string, place: Place): void {
  // No fsync (this runs in hooks): a place lost with a power cut is read again, and the ledger's ids charge each record once.
  atomicWrite(path.join(stateDir, SPOOL_PLACE_FILE), JSON.stringify(place), { fsync: false });
}

function isRecord(v: unknown): v is ModelUsageRecord {
  if (!v || typeof v !== 'object') return false;
  const r = v as Record<string, unknown>;
  return typeof r.id === 'string' && typeof r.model === 'string' && typeof r.sessionId === 'string'
    && [r.inputTokens, r.outputTokens, r.cachedInputTokens, r.cacheCreationInputTokens, r.reasoningTokens].every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0);
}

export interface SpoolRead {
  /** This workspace's records appended since the last read. */
  records: ModelUsageRecord[];
  /** Lines that were not usage records (torn or foreign): skipped. */
  skipped: number;
}

/**
 * The records of this workspace's Copilot sessions appended since its last read. `session`, when
 * given (a hook's), joins the sessions of this workspace first, so its own records count from now.
 * A workspace that never read starts at the spool's end: what was spent before Alfred saw any of its
 * sessions belongs to none of them.
 */
export async function readNewCopilotUsage(stateDir: string, spool: string, session?: string): Promise<SpoolRead> {
  // Every Copilot hook comes here: when its session is known and nothing was appended, no lock, no write.
  if (nothingNew(loadPlace(stateDir), spool, session)) return { records: [], skipped: 0 };
  return withLock(stateDir, () => {
    const place = loadPlace(stateDir);
    const before = JSON.stringify(place);
    if (session && !place.sessions.includes(session)) place.sessions = [...place.sessions, session].slice(-MAX_SESSIONS);
    const mine = new Set(place.sessions);
    const out: SpoolRead = { records: [], skipped: 0 };
    if (mine.size > 0) {
      // A spool that does not exist yet is created empty, so the position starts at its start
      // (records appended later are this workspace's to read), not at the end of the first read.
      if (!place.tail) ensureFile(spool);
      const tail = new FileTail(spool, place.tail, { from: 'end' });
      for (let round = 0; round < 64; round++) {
        const read = tail.read();
        for (const line of read.lines) {
          let value: unknown;
          try {
            value = JSON.parse(line);
          } catch {
            out.skipped++;
            continue;
          }
          if (!isRecord(value)) out.skipped++;
          else if (mine.has(value.sessionId!)) out.records.push({ ...value, measured: true });
        }
        if (!read.more) break;
      }
      if (tail.state) place.tail = tail.state;
    }
    if (JSON.stringify(place) !== before) savePlace(stateDir, place);
    return out;
  });
}

/** The session (if any) is already this workspace's, and the spool is the file last read, read to its end. */
function nothingNew(place: Place, spool: string, session: string | undefined): boolean {
  if (session ? !place.sessions.includes(session) : place.sessions.length === 0) return !session;
  if (!place.tail) return false;
  const st = fs.statSync(spool, { bigint: true, throwIfNoEntry: false });
  return st !== undefined && String(st.dev) === place.tail.dev && String(st.ino) === place.tail.ino && Number(st.size) === place.tail.offset;
}

function ensureFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, 'a', 0o600));
}

/** Whether Copilot's usage reaches Alfred: a receiver wrote the marker and Copilot's settings point at it. */
export function copilotExportOn(env: NodeJS.ProcessEnv = process.env): boolean {
  try {
    return fs.statSync(path.join(usageHome(env), EXPORT_MARKER_FILE), { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}
