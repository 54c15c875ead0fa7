/** The runtime role switch, persisted per workspace in the state folder, shared by the extension and `alfred`. */
import fs from 'node:fs';
import path from 'node:path';
import { atomicWrite } from '../../base/fs/atomicWrite';

export const RUNTIME_FILE = 'runtime.json';

export interface RuntimeRole {
  role: string;
  ts: string;
  /** Who asked: `user`, `agent (confirmed)`, `cli`, … */
  by: string;
}

export function readRuntimeRole(dir: string): RuntimeRole | undefined {
  try {
    const file = path.join(dir, RUNTIME_FILE);
    // Usually missing (no switch was asked for): asked without an exception, on every governed call.
    if (!fs.existsSync(file)) return undefined;
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<RuntimeRole>;
    return typeof data.role === 'string' && data.role ? { role: data.role, ts: String(data.ts ?? ''), by: String(data.by ?? '') } : undefined;
  } catch {
    return undefined; // missing or unreadable: no runtime switch
  }
}

/** Atomic, so a reader never sees half a file. `undefined` clears it. */
export function writeRuntimeRole(dir: string, value: RuntimeRole | undefined): void {
  const file = path.join(dir, RUNTIME_FILE);
  if (!value) {
    fs.rmSync(file, { force: true });
    return;
  }
  atomicWrite(file, `${JSON.stringify(value)}\n`);
}
