/**
 * The latest MCP audit of a workspace (`<state folder>/mcp-audit/latest.json`, written by the audit),
 * read for the gate: re-read only when the file changes, since the gate runs on every tool call.
 */
import * as fs from 'node:fs';
import type { McpAuditLatest } from '../mcp/types';
import { latestPath } from '../mcp/cache';
import { NO_AUDIT, trustFromAudits, type McpTrust } from './mcpTrust';

/** The audit's own path (rules/mcp/cache.ts), one definition. */
export const latestAuditPath = latestPath;

/** The latest results, or undefined when there are none or the file is not a list of audits. */
export function readLatestAudit(stateDir: string): McpAuditLatest | undefined {
  let text: string;
  try {
    text = fs.readFileSync(latestAuditPath(stateDir), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const doc = JSON.parse(text) as Partial<McpAuditLatest> | null;
    if (!doc || typeof doc !== 'object' || !Array.isArray(doc.audits)) return undefined;
    const audits = doc.audits.filter((a) => a && typeof a === 'object' && a.server && typeof a.server.name === 'string' && a.curation && typeof a.curation === 'object');
    return { at: typeof doc.at === 'string' ? doc.at : '', audits };
  } catch {
    return undefined;
  }
}

const cache = new Map<string, { stamp: string; trust: McpTrust }>();

/** The trust index of the latest audit; no file (or a broken one) is no audit: every server unaudited. */
export function readMcpTrust(stateDir: string): McpTrust {
  const file = latestAuditPath(stateDir);
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(file, { throwIfNoEntry: false }); // no audit is common: no exception for it
  } catch { /* unreadable: no audit */ }
  if (!st) {
    cache.delete(file);
    return NO_AUDIT;
  }
  const stamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
  const hit = cache.get(file);
  if (hit && hit.stamp === stamp) return hit.trust;
  const latest = readLatestAudit(stateDir);
  const trust = latest ? trustFromAudits(latest.audits) : NO_AUDIT;
  cache.set(file, { stamp, trust });
  return trust;
}
