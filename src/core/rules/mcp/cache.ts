/**
 * Where audits are kept, in the state folder (outside the workspace, where agents' tools cannot write):
 * `mcp-audit/<name>@<version>.json` holds what a version's tarball showed, which never changes, so a
 * version is downloaded once; `mcp-audit/latest.json` holds a workspace's latest results
 * (`{ at, audits }`), which the dashboard and the doctor read.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { atomicWrite } from '../../base/fs/atomicWrite';
import { readIfExists } from '../../base/fs/readIfExists';
import type { McpAudit, McpAuditLatest } from './types';

/** What one version's tarball showed, plus the last curation seen (used when the registry does not answer). */
export interface PackageFacts {
  name: string;
  version: string;
  installScripts: Record<string, string>;
  hosts: McpAudit['hosts'];
  binaries: string[];
  dependencyCount: number;
  auditedAt: string;
  curation?: McpAudit['curation'];
}

export const auditDir = (stateDir: string): string => path.join(stateDir, 'mcp-audit');

/** `@scope/pkg` keeps one file name: the name is URI-encoded (a plain name is unchanged). */
export function factsPath(stateDir: string, name: string, version: string): string {
  return path.join(auditDir(stateDir), `${encodeURIComponent(name)}@${encodeURIComponent(version)}.json`);
}

function isFacts(v: unknown, name: string, version: string): v is PackageFacts {
  const f = v as PackageFacts | null;
  return typeof f === 'object' && f !== null && f.name === name && f.version === version && Array.isArray(f.hosts)
    && Array.isArray(f.binaries) && typeof f.installScripts === 'object' && typeof f.dependencyCount === 'number' && typeof f.auditedAt === 'string';
}

/** A cached version's facts; a missing, corrupt or foreign file is no cache. */
export function readFacts(stateDir: string, name: string, version: string): PackageFacts | undefined {
  const text = readIfExists(factsPath(stateDir, name, version));
  if (text === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return isFacts(v, name, version) ? v : undefined;
  } catch {
    return undefined;
  }
}

export function writeFacts(stateDir: string, facts: PackageFacts): void {
  fs.mkdirSync(auditDir(stateDir), { recursive: true, mode: 0o700 });
  atomicWrite(factsPath(stateDir, facts.name, facts.version), `${JSON.stringify(facts, null, 2)}\n`);
}

export const latestPath = (stateDir: string): string => path.join(auditDir(stateDir), 'latest.json');

export function writeLatest(stateDir: string, latest: McpAuditLatest): void {
  fs.mkdirSync(auditDir(stateDir), { recursive: true, mode: 0o700 });
  atomicWrite(latestPath(stateDir), `${JSON.stringify(latest, null, 2)}\n`);
}

/** The workspace's latest audit, or undefined when none was run (or the file is unreadable). */
export function readLatest(stateDir: string): McpAuditLatest | undefined {
  const text = readIfExists(latestPath(stateDir));
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as McpAuditLatest;
    return typeof v === 'object' && v !== null && typeof v.at === 'string' && Array.isArray(v.audits) ? v : undefined;
  } catch {
    return undefined;
  }
}
