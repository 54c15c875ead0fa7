/** The corpus table (case × client, and the sample under each other role) printed at the end of the agents stage. */
import type { CorpusCase } from '../../unit/adversarial/corpusHome';
import { CLIENT_VERSIONS } from './clients';
import type { ClientId } from './hookFiles';
import type { PlayResult, Verdict } from './playCorpus';

const CELL = 12;
const NAME = 70;

function cell(v: Verdict | undefined): string {
  if (!v) return '?';
  if (v.notApplicable) return '–';
  return v.failure ? 'GOT THROUGH' : 'held';
}

const pad = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));

export function printTable(cases: CorpusCase[], clients: readonly ClientId[], roles: string[], results: Map<string, PlayResult>,
  key: (client: ClientId, role: string) => string): void {
  const lines: string[] = [];
  const header = (role: string) => `${pad(`case (under ${role})`, NAME)} ${clients.map((c) => pad(c, CELL)).join(' ')}`;
  const rows = (role: string, list: CorpusCase[]) => {
    lines.push('', header(role));
    for (const c of list) lines.push(`${pad(c.name, NAME)} ${clients.map((cl) => pad(cell(results.get(key(cl, role))?.verdicts.get(c.name)), CELL)).join(' ')}`);
  };
  const sampled = new Set([...results.values()].flatMap((r) => [...r.verdicts.keys()]));
  rows('coder', cases.filter((c) => (c.role ?? 'coder') === 'coder'));
  for (const role of roles) rows(role, cases.filter((c) => sampled.has(c.name) && [...clients].some((cl) => results.get(key(cl, role))?.verdicts.has(c.name))));
  lines.push('', `versions: ${clients.map((c) => `${c} ${CLIENT_VERSIONS[c]}`).join(', ')}`);
  lines.push(`sessions: ${[...results.entries()].map(([k, r]) => `${k} ${Math.round(r.ms / 1000)} s`).join(', ')}`);
  const failures = [...results.entries()].flatMap(([k, r]) => [...r.verdicts.entries()].filter(([, v]) => v.failure).map(([name, v]) => `  ${k}: ${name}: ${v.failure}`));
  if (failures.length) lines.push('', `${failures.length} got through:`, ...failures);
  const held = [...results.values()].reduce((n, r) => n + [...r.verdicts.values()].filter((v) => !v.notApplicable && !v.failure).length, 0);
  lines.push('', `${held} held, ${failures.length} got through`);
  process.stdout.write(`\n${lines.join('\n')}\n`);
}
