/**
 * `@anthropic-ai/sandbox-runtime` (srt) as the comparison benchmark runs it: its own CLI, one process
 * per command as an agent's terminal would start it, with a settings file written for the case.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
export const SRT_CLI = path.join(ROOT, 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'dist', 'cli.js');

export function srtVersion(): string {
  const pkg = path.join(ROOT, 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'package.json');
  return fs.existsSync(pkg) ? (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { version: string }).version : '';
}

/** srt's settings (its README, "Configuration"): writes allow-only, reads open but for denyRead, network allow-only. */
export interface SrtSettings {
  network: { allowedDomains: string[]; deniedDomains: string[] };
  filesystem: { denyRead: string[]; allowWrite: string[]; denyWrite: string[] };
}

/** Writes `settings` to `file` and returns the argv that runs `command` (a shell line) under srt with them. */
export function srtArgv(file: string, settings: SrtSettings, command: string): string[] {
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
  return [process.execPath, SRT_CLI, '--settings', file, '-c', command];
}

/**
 * srt configured as close to Alfred's plan as it allows: writable where Alfred's sandbox writes (the
 * workspace, the role's allow_write), read-only every path Alfred protects there (its governance
 * files, protected globs, hard links, the homes a writable folder holds), the role's network names.
 * srt takes literal paths for writes on Linux, and Alfred's plan lists real paths, so nothing is lost
 * in the translation. What srt cannot take: Alfred's copies of the temporary folders and download
 * caches (srt has no such mount; its own writable temporary folder is /tmp/claude).
 */
export function srtLikeAlfred(plan: { writable?: string[]; readOnly: string[] }, closed: readonly string[], allowedDomains: readonly string[]): SrtSettings {
  return {
    network: { allowedDomains: [...allowedDomains], deniedDomains: [] },
    filesystem: { denyRead: [], allowWrite: [...(plan.writable ?? [])], denyWrite: [...new Set([...plan.readOnly, ...closed])] },
  };
}

/** srt as its README's first example sets it up: the working folder writable, its built-in protected files, nothing else. */
export function srtAsShipped(workspace: string, allowedDomains: readonly string[]): SrtSettings {
  return { network: { allowedDomains: [...allowedDomains], deniedDomains: [] }, filesystem: { denyRead: [], allowWrite: [workspace], denyWrite: [] } };
}
