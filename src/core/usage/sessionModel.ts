/**
 * The model an agent session (Copilot, Claude Code, Copilot CLI) last used, as Alfred measured it:
 * the newest request of that session in `usage.jsonl` whose tokens the agent or its provider
 * reported. Only that session's lines are parsed; the newest is the latest request to end (a
 * sub-agent's requests are the session's too, and end before the answer that follows them).
 */
import * as path from 'node:path';
import { readJsonLines } from '../base/fs/jsonLines';
import { USAGE_FILE } from '../models/usageLog';
import type { UsageRecord } from '../models/spend';

/** The model of the session's latest measured request; undefined when none was measured. */
export function latestMeasuredModel(stateDir: string, agentSession: string): string | undefined {
  const needle = `"agentSession":${JSON.stringify(agentSession)}`;
  const { records } = readJsonLines(path.join(stateDir, USAGE_FILE), (v) => {
    const r = v as Partial<UsageRecord> | null;
    const ok = r && typeof r === 'object' && r.agentSession === agentSession && r.measured === 'reported'
      && typeof r.model === 'string' && r.model !== '' && typeof r.ts === 'string';
    return ok ? (r as UsageRecord) : 'not a measured request of the session';
  }, { skip: (line) => !line.includes(needle) });
  let latest: UsageRecord | undefined;
  for (const r of records) if (!latest || r.ts >= latest.ts) latest = r;
  return latest?.model;
}
