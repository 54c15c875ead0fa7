/**
 * Every suite of a workspace that has recorded trials, with its conditions' counts and each
 * condition compared with the control: what the dashboard's "Trials" section shows.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareTrials, type Comparison } from './compare';
import { outcomesPath, readOutcomes, TRIALS_DIR } from './store';
import { loadSuite, suiteFilePath } from './suite';

export interface ConditionSummary {
  name: string;
  control: boolean;
  trials: number;
  accepted: number;
  interrupted: number;
}

export interface SuiteOverview {
  name: string;
  /** The control condition: the suite file's, else the first condition recorded. */
  control: string | null;
  conditions: ConditionSummary[];
  /** Each other condition against the control, refused ones included. */
  comparisons: Comparison[];
  suiteChanges: number;
  corrupt: number;
}

/** Names of the suites with an outcomes file, sorted. */
export function listSuites(workspaceFolder: string): string[] {
  const dir = path.join(workspaceFolder, ...TRIALS_DIR.split('/'));
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // no trials yet
  }
  return entries.filter((e) => e.isDirectory() && fs.existsSync(outcomesPath(workspaceFolder, e.name))).map((e) => e.name).sort();
}

export function trialsOverview(workspaceFolder: string): SuiteOverview[] {
  const declared = loadSuite(suiteFilePath(workspaceFolder)).suite;
  return listSuites(workspaceFolder).map((name) => {
    const read = readOutcomes(outcomesPath(workspaceFolder, name));
    const names = [...new Set(read.outcomes.map((o) => o.condition))];
    const fromFile = declared?.name === name ? declared.conditions.find((c) => c.control)?.name : undefined;
    const control = fromFile !== undefined && names.includes(fromFile) ? fromFile : (names[0] ?? null);
    const of = (condition: string) => ({ name: condition, outcomes: read.outcomes.filter((o) => o.condition === condition) });
    const conditions = names.map((n) => {
      const outcomes = of(n).outcomes;
      return {
        name: n, control: n === control, trials: outcomes.length,
        accepted: outcomes.filter((o) => o.status === 'accepted').length, interrupted: outcomes.filter((o) => o.status === 'interrupted').length,
      };
    });
    const plan = declared?.name === name ? { plannedTrials: declared.trials } : {};
    const comparisons = control === null ? [] : names.filter((n) => n !== control)
      .map((n) => compareTrials(of(control), of(n), { suite: name, suiteChanges: read.suiteChanges, ...plan }));
    return { name, control, conditions, comparisons, suiteChanges: read.suiteChanges.length, corrupt: read.corrupt.length };
  });
}
