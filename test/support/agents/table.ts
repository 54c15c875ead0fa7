/** The corpus table (case × path) printed at the end of the agents stage. */
import type { CorpusCase } from '../../unit/adversarial/corpusHome';
import type { Verdict } from './playCorpus';

const CELL = 12;
const NAME = 64;

export interface TableSection {
  title: string;
  cases: CorpusCase[];
  /** Column name → the verdict of each case (undefined: that path was not run in this section). */
  columns: Array<[string, Map<string, Verdict> | undefined]>;
}

function cell(v: Verdict | undefined): string {
  if (!v) return '';
  if (v.notApplicable) return '–';
  return v.failure ? 'GOT THROUGH' : 'held';
}

const pad = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));

/** The table, then every case that got through with what got through, then the counts. */
export function formatTable(sections: TableSection[], notes: string[]): string {
  const lines: string[] = [];
  const failures: string[] = [];
  let held = 0;
  for (const section of sections) {
    lines.push('', `${pad(section.title, NAME)} ${section.columns.map(([name]) => pad(name, CELL)).join(' ')}`);
    for (const c of section.cases) {
      lines.push(`${pad(c.name, NAME)} ${section.columns.map(([, v]) => pad(cell(v?.get(c.name)), CELL)).join(' ')}`);
      for (const [name, verdicts] of section.columns) {
        const v = verdicts?.get(c.name);
        if (v?.failure) failures.push(`  ${section.title} · ${name} · ${c.name}: ${v.failure}`);
        else if (v && !v.notApplicable) held++;
      }
    }
  }
  lines.push('', ...notes);
  if (failures.length) lines.push('', `got through (${failures.length}):`, ...failures);
  lines.push('', `corpus table: ${held} held, ${failures.length} got through`);
  return `\n${lines.join('\n')}\n`;
}
