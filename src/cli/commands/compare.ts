/**
 * `alfred compare CONTROL TREATMENT [--suite NAME|PATH] [--json] [--history]`: what one harness component
 * does, from a suite's trials (two condition names) or from recorded history (two fingerprint ids or
 * prefixes). Exit code 2, with the reasons on stderr, when the guard refuses the comparison.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { comparisonJson, compareTrials, renderComparison, type Comparison } from '../../core/trials/compare';
import { compareHistory, findGroup, readHistory, type History } from '../../core/trials/history';
import { outcomesPath, readOutcomes } from '../../core/trials/store';
import { loadSuite, suiteFilePath, suiteHash } from '../../core/trials/suite';
import { openHarness } from '../context';
import { json, UsageError, type CliIo } from '../io';
import type { CliCommand } from './command';

const USAGE = 'alfred compare CONTROL TREATMENT [--suite NAME|PATH] [--json] [--history]';

export const compareCommand: CliCommand = {
  name: 'compare',
  usage: USAGE,
  async run(args, io) {
    const [control, treatment, ...extra] = args.positionals;
    if (args.history && control === undefined) return listHistory(args.workspace, args.json, io);
    if (control === undefined || treatment === undefined || extra.length > 0) {
      throw new UsageError(`alfred compare: give a control and a treatment${args.history ? ' fingerprint' : ' condition'}.\n\nUsage: ${USAGE}`);
    }
    const comparison = args.history
      ? await historyComparison(args.workspace, control, treatment)
      : suiteComparison(args.workspace, control, treatment, args.suite);
    if (comparison.refused) {
      io.err(`alfred compare: refused: ${comparison.reasons.join('; ')}`);
      if (args.json) io.out(comparisonJson(comparison));
      return 2;
    }
    io.out(args.json ? comparisonJson(comparison) : renderComparison(comparison));
    return 0;
  },
};

/**
 * The suite's name: `--suite` as a name, or as the path of a suite file (as `alfred trial run` takes
 * it); without it, the name of `.alfred/trials.toml`.
 */
function suiteOf(workspace: string, suite: string | undefined): { name: string; planned?: number; hash?: string } {
  const file = suite === undefined ? suiteFilePath(workspace) : path.resolve(workspace, suite);
  const isFile = suite === undefined || /\.toml$/i.test(suite) || fs.statSync(file, { throwIfNoEntry: false })?.isFile() === true;
  if (!isFile) return { name: suite! };
  const parsed = loadSuite(file);
  const name = parsed.suite?.name ?? path.basename(file).replace(/\.toml$/i, '');
  return { name, ...(parsed.suite ? { planned: parsed.suite.trials, hash: suiteHash(parsed.suite) } : {}) };
}

function suiteComparison(workspace: string, control: string, treatment: string, suiteArg: string | undefined): Comparison {
  const suite = suiteOf(workspace, suiteArg);
  const file = outcomesPath(workspace, suite.name);
  if (!fs.existsSync(file)) throw new UsageError(`alfred compare: suite "${suite.name}" has no recorded trials (${file} does not exist); run alfred trial run first.`);
  const read = readOutcomes(file);
  const conditions = [...new Set(read.outcomes.map((o) => o.condition))];
  for (const name of [control, treatment]) {
    if (!conditions.includes(name)) {
      throw new UsageError(`alfred compare: suite "${suite.name}" has no recorded trial of condition "${name}" (recorded: ${conditions.join(', ') || 'none'}).`);
    }
  }
  const of = (name: string) => ({ name, outcomes: read.outcomes.filter((o) => o.condition === name) });
  const comparison = compareTrials(of(control), of(treatment), {
    suite: suite.name, suiteChanges: read.suiteChanges, ...(suite.planned !== undefined ? { plannedTrials: suite.planned } : {}),
  });
  const recorded = [...new Set(read.outcomes.map((o) => o.suiteHash))];
  if (suite.hash !== undefined && !recorded.includes(suite.hash)) {
    comparison.notes.push(`The suite file's plan has changed since these trials ran (hash ${suite.hash} now, ${recorded.join(', ')} recorded): the next alfred trial run records the change.`);
  }
  if (read.corrupt.length > 0) comparison.notes.push(`${read.corrupt.length} line${read.corrupt.length === 1 ? '' : 's'} of ${file} could not be read and ${read.corrupt.length === 1 ? 'was' : 'were'} left out.`);
  return comparison;
}

async function loadHistory(workspace: string): Promise<History> {
  const harness = await openHarness(workspace);
  return readHistory(harness.stateDir);
}

async function historyComparison(workspace: string, control: string, treatment: string): Promise<Comparison> {
  const history = await loadHistory(workspace);
  const c = findGroup(history.groups, control);
  const t = findGroup(history.groups, treatment);
  const missing = [c, t].filter((g): g is string => typeof g === 'string');
  if (missing.length > 0) throw new UsageError(`alfred compare --history: ${missing.join('; ')} (alfred compare --history lists them).`);
  const comparison = compareHistory(c as Exclude<typeof c, string>, t as Exclude<typeof t, string>);
  if (history.withoutFingerprint > 0) comparison.notes.push(`${history.withoutFingerprint} completion record${history.withoutFingerprint === 1 ? '' : 's'} older than fingerprints belong to no side.`);
  return comparison;
}

/** `alfred compare --history` alone: the fingerprints that have recorded outcomes, to pick two from. */
async function listHistory(workspace: string, asJson: boolean, io: CliIo): Promise<number> {
  const history = await loadHistory(workspace);
  if (asJson) {
    io.out(json({ groups: history.groups, withoutFingerprint: history.withoutFingerprint }));
    return 0;
  }
  if (history.groups.length === 0) io.out('No completion record carries a fingerprint yet.');
  for (const g of history.groups) {
    const c = g.fingerprint.components;
    io.out(`${g.fingerprint.id}  ${g.accepted} accepted, ${g.rejected} rejected  ${g.first.slice(0, 10)}…${g.last.slice(0, 10)}  model ${c.model ?? '?'} · role ${c.role ?? '?'} · pack ${c.pack ?? '?'} · persona ${c.persona ?? '?'} · handoff ${c.handoff ?? '?'}`);
  }
  return 0;
}
