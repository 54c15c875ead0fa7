/**
 * The harness fingerprint: the configuration that produced a trace, a completion record or a model
 * charge, as named components with stable keys, so two runs can be compared field by field
 * (issue 15). Pure: the files it hashes are read by `readFingerprintFiles` (files.ts).
 */
import { DEFAULT_MAX_REPEATED_CALLS } from '../../rules/policy/repetition';
import type { Role } from '../../rules/roles/types';
import { sha256Hasher, sha256Hex } from '../../base/crypto/sha256';
import { isObject } from '../../base/isObject';

/** Unknown to the caller that built the fingerprint. */
export const UNKNOWN = 'n/a';
/** Hex digits kept of a sha256: enough to tell configurations apart, short enough to read. */
const SHORT = 12;

export interface HarnessFingerprint {
  /** Short sha256 of the canonical JSON of `components`. */
  id: string;
  /** alfred, model, endpoint, role, rolePolicy, pack, persona, handoff, checks, promptFiles, label.<name>. */
  components: Record<string, string>;
}

/** The parts of a role that decide what it allows: its name, source and description are left out. */
export type RolePolicy = Pick<Role, 'name' | 'shellPolicy' | 'sandbox' | 'tools' | 'limits' | 'failClosed' | 'mcp'>;

export interface FingerprintFiles {
  /** `.alfred/checks.toml`'s bytes, or null when it does not exist. */
  checks: Uint8Array | null;
  /** The prompt files in force that exist, path relative to the workspace (any order). */
  promptFiles: ReadonlyArray<{ path: string; bytes: Uint8Array }>;
  /** The user's labels (`.alfred/labels.toml`). */
  labels: Readonly<Record<string, string>>;
}

export interface FingerprintInputs extends FingerprintFiles {
  alfred: string;
  role: RolePolicy;
  model?: string;
  /** Where the model's requests went (endpoint.ts): a provider's URL, else its vendor's name. */
  endpoint?: string;
  /** The pack chosen, `off` when none; absent when the caller cannot know. */
  pack?: string;
  persona?: boolean;
  handoff?: boolean;
}

/** What a caller may know of the configuration a session ran under; what it leaves out is `n/a`. */
export type SessionConfiguration = Pick<FingerprintInputs, 'model' | 'endpoint' | 'pack' | 'persona' | 'handoff'>;

export function harnessFingerprint(inputs: FingerprintInputs): HarnessFingerprint {
  const onOff = (v: boolean | undefined): string => (v === undefined ? UNKNOWN : v ? 'on' : 'off');
  const components: Record<string, string> = {
    alfred: inputs.alfred,
    model: inputs.model || UNKNOWN,
    endpoint: inputs.endpoint || UNKNOWN,
    role: inputs.role.name,
    rolePolicy: once(inputs.role, () => shortHash(canonicalJson(rolePolicyOf(inputs.role)))),
    pack: inputs.pack || UNKNOWN,
    persona: onOff(inputs.persona),
    handoff: onOff(inputs.handoff),
    checks: inputs.checks ? once(inputs.checks, () => shortHash(inputs.checks!)) : 'none',
    promptFiles: once(inputs.promptFiles, () => promptFilesHash(inputs.promptFiles)),
  };
  for (const [name, value] of Object.entries(inputs.labels)) components[`label.${name}`] = value;
  return { id: shortHash(canonicalJson(components)), components };
}

/**
 * A hash of a value computed once per object: a trace is written on every tool call, and the loaded
 * role and the files read under one stamp (files.ts) stay the same objects until they change.
 */
const hashes = new WeakMap<object, string>();
function once(key: object, hash: () => string): string {
  let h = hashes.get(key);
  if (h === undefined) hashes.set(key, (h = hash()));
  return h;
}

/** The rules as the gate applies them: an absent optional limit hashes as its default, so both spellings match. */
function rolePolicyOf(role: RolePolicy): Omit<RolePolicy, 'name'> {
  const limits = { ...role.limits, maxRepeatedCalls: role.limits.maxRepeatedCalls ?? DEFAULT_MAX_REPEATED_CALLS, maxSubagents: role.limits.maxSubagents ?? 0 };
  // [mcp] only when the role sets it, so the hash of a role without it stays what it was.
  return { shellPolicy: role.shellPolicy, sandbox: role.sandbox, tools: role.tools, limits, failClosed: role.failClosed, ...(role.mcp ? { mcp: role.mcp } : {}) };
}

function promptFilesHash(files: FingerprintFiles['promptFiles']): string {
  if (files.length === 0) return 'none';
  const hash = sha256Hasher();
  // Length-prefixed so that no path/content split can collide with another.
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(`${Buffer.byteLength(f.path)}:${f.path}:${f.bytes.length}:`).update(f.bytes);
  }
  return hash.hex().slice(0, SHORT);
}

export function shortHash(data: string | Uint8Array): string {
  return sha256Hex(data).slice(0, SHORT);
}

/** JSON with every object's keys sorted, so the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (
    isObject(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]))
      : v
  ));
}
