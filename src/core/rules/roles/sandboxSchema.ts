/**
 * A role file's `[sandbox]` table (ARCHITECTURE.md, Protected paths hold against any command): what a
 * sandboxed command may write beyond the workspace, the temporary folders and the download caches
 * (`allow_write`), and which network names it may reach (`[sandbox.network]`: `allow`, `deny`).
 */
import type { NetworkRules } from './types';

type Report = (key: string, message: string) => void;

export interface SandboxDefinition {
  allowWrite?: string[];
  network?: Partial<NetworkRules>;
}

const SANDBOX_KEYS = ['allow_write', 'network'];
const NETWORK_KEYS = ['allow', 'deny'];
/** A host name, `*.` and a host name (its subdomains), or `*` (every name); letters, digits, `-` and `.`. */
const DOMAIN_PATTERN = /^(\*|(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/;

/** Why `value` is no domain pattern, or undefined when it is one. */
export function domainProblem(value: string): string | undefined {
  if (DOMAIN_PATTERN.test(value)) return undefined;
  if (value !== value.toLowerCase()) return `"${value}" must be written in lower case`;
  if (/[:/]/.test(value)) return `"${value}" is not a host name: write the name alone, without a scheme, a path or a port`;
  return `"${value}" is not a host name (letters, digits, "-" and "."), "*.name" for its subdomains, or "*" for every name`;
}

/** Why `value` is no path `allow_write` takes, or undefined when it is one. */
export function writePathProblem(value: string): string | undefined {
  if (value.includes('\0')) return 'a path must not hold a NUL character';
  if (!(value.startsWith('/') || value === '~' || value.startsWith('~/'))) {
    return `"${value}" must be an absolute path or start with "~/" (the workspace is writable already)`;
  }
  if (value.split('/').includes('..')) return `"${value}" must not hold ".." (write the folder itself)`;
  return undefined;
}

/** Reads `[sandbox]`; each bad value is reported with its key and left out. */
export function readSandboxTable(table: Record<string, unknown>, report: Report): SandboxDefinition {
  const def: SandboxDefinition = {};
  for (const key of Object.keys(table)) {
    if (!SANDBOX_KEYS.includes(key)) report(`sandbox.${key}`, `unknown key "${key}" in [sandbox] (expected ${SANDBOX_KEYS.join(', ')})`);
  }
  const allowWrite = readStrings(table.allow_write, 'sandbox.allow_write', 'a path', writePathProblem, report);
  if (allowWrite) def.allowWrite = allowWrite;
  if (table.network !== undefined) {
    const network = table.network;
    if (typeof network !== 'object' || network === null || Array.isArray(network)) {
      report('sandbox.network', '"network" must be a table ([sandbox.network])');
    } else {
      const n = network as Record<string, unknown>;
      for (const key of Object.keys(n)) {
        if (!NETWORK_KEYS.includes(key)) report(`sandbox.network.${key}`, `unknown key "${key}" in [sandbox.network] (expected ${NETWORK_KEYS.join(', ')})`);
      }
      const rules: Partial<NetworkRules> = {};
      for (const key of NETWORK_KEYS as (keyof NetworkRules)[]) {
        const list = readStrings(n[key], `sandbox.network.${key}`, 'a domain', domainProblem, report);
        if (list) rules[key] = list;
      }
      def.network = rules;
    }
  }
  return def;
}

function readStrings(value: unknown, key: string, what: string, problem: (v: string) => string | undefined, report: Report): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    report(key, `must be an array of strings, got ${Array.isArray(value) ? 'an array' : typeof value}`);
    return undefined;
  }
  let ok = true;
  value.forEach((item: unknown, i) => {
    const why = typeof item !== 'string' ? `${what} must be a string, got a ${typeof item}` : item === '' ? `${what} must not be empty` : problem(item);
    if (why) {
      report(`${key}[${i}]`, why);
      ok = false;
    }
  });
  return ok ? (value as string[]) : undefined;
}
