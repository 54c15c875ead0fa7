/** Validation of a pack's `domain.json`: the JSON Schema (ajv) plus the hint syntax, each problem with path and key. */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { PACK_NAME_PATTERN, type PackManifest, type PackProblem } from './types';

const triggerList = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 80 } } as const;

export const DOMAIN_SCHEMA = {
  type: 'object',
  required: ['name', 'description', 'triggers'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    name: { type: 'string', minLength: 1, maxLength: 64 },
    description: { type: 'string', minLength: 1, maxLength: 500 },
    triggers: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: '^[a-z]{2}(-[A-Za-z]{2})?$' },
      additionalProperties: triggerList,
    },
    hints: { type: 'array', items: { type: 'string', minLength: 1 } },
    recommendedRole: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
  },
} as const;

// Compiled on first use: compiling (with ajv's meta-schema) costs more than the rest of loading the
// command line, which every hook call without a hook server does.
let compiled: ValidateFunction | undefined;
const domainValidator = (): ValidateFunction => (compiled ??= new Ajv({ allErrors: true, strict: true }).compile(DOMAIN_SCHEMA));

/** `/triggers/es/0` → `triggers.es[0]`. */
function keyOf(e: ErrorObject): string {
  const parts = e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'additionalProperties') parts.push(String(e.params.additionalProperty));
  if (e.keyword === 'required') parts.push(String(e.params.missingProperty));
  if (e.keyword === 'propertyNames') parts.push(String(e.params.propertyName));
  return parts.reduce((key, p) => (/^\d+$/.test(p) ? `${key}[${p}]` : key ? `${key}.${p}` : p), '');
}

function messageOf(e: ErrorObject): string {
  switch (e.keyword) {
    case 'additionalProperties': return `unknown key "${String(e.params.additionalProperty)}" (expected name, description, triggers, hints, recommendedRole)`;
    case 'required': return `missing required key "${String(e.params.missingProperty)}"`;
    case 'propertyNames': return `"${String(e.params.propertyName)}" is not a language code (use en, es, …)`;
    default: return e.message ?? 'is invalid';
  }
}

/**
 * Why a repository hint is malformed, or undefined when it is fine: a relative path, a trailing `/`
 * for a folder, and at most one `*`, only in the last segment (`db/*.sql`).
 */
export function hintProblem(hint: string): string | undefined {
  if (hint.startsWith('/') || /^[A-Za-z]:/.test(hint)) return 'must be relative to the workspace folder';
  if (hint.includes('\\')) return 'use "/" between folders';
  const segments = hint.replace(/\/$/, '').split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return 'has an empty, "." or ".." segment';
  const stars = (hint.match(/\*/g) ?? []).length;
  if (stars > 1) return 'may contain one "*" only';
  if (stars === 1 && !segments[segments.length - 1]!.includes('*')) return 'may use "*" in its last segment only';
  if (/[?[\]{}!]/.test(hint)) return 'may use "*" as its only wildcard';
  return undefined;
}

export interface ParsedManifest {
  manifest?: PackManifest;
  problems: PackProblem[];
}

/** Validates a parsed `domain.json` read from `file` in the folder named `folderName`. */
export function validateManifest(doc: unknown, file: string, folderName: string): ParsedManifest {
  const problems: PackProblem[] = [];
  const report = (key: string, message: string, severity: PackProblem['severity'] = 'error') =>
    problems.push({ path: file, key, message, pack: folderName, severity });
  const validateDomain = domainValidator();
  if (!validateDomain(doc)) {
    // A bad property name yields the inner pattern error too; the propertyNames one says it better.
    for (const e of validateDomain.errors ?? []) if (e.propertyName === undefined || e.keyword === 'propertyNames') report(keyOf(e), messageOf(e));
    return { problems };
  }
  const m = doc as unknown as PackManifest;
  if (m.name !== folderName) report('name', `must equal the pack's folder name "${folderName}" (it is "${m.name}")`);
  else if (!PACK_NAME_PATTERN.test(m.name)) report('name', 'must be lower case letters, digits and "-", starting with a letter or digit');
  const all = Object.values(m.triggers).flat();
  if (all.length === 0) report('triggers', 'needs at least one trigger');
  for (const [lang, list] of Object.entries(m.triggers)) {
    list.forEach((t, i) => {
      if (t.trim() !== t) report(`triggers.${lang}[${i}]`, 'has leading or trailing spaces');
      else if (t.indexOf('*') !== -1 && t.indexOf('*') !== t.length - 1) report(`triggers.${lang}[${i}]`, 'may use "*" only at its end (a stem)');
      else if (t === '*') report(`triggers.${lang}[${i}]`, 'is a bare "*": it would match every prompt');
    });
  }
  (m.hints ?? []).forEach((h, i) => {
    const why = hintProblem(h);
    if (why) report(`hints[${i}]`, `"${h}" ${why}`);
  });
  return problems.length ? { problems } : { manifest: m, problems };
}
