/**
 * `alfred trial run [--suite PATH] [--condition NAME] [--json]`: runs a trial suite through the
 * headless agent loop (src/core/trials/runner.ts). A progress bar on a terminal, one line per trial
 * otherwise; Ctrl-C stops cleanly (the running trial is recorded `interrupted`), and running the
 * same command again resumes.
 */
import * as path from 'node:path';
import { publishedPricingReader } from '../../core/rules/budget/pricingFile';
import { parseProviders } from '../../core/models/providers/config';
import { resolveKey } from '../../core/models/providers/keys';
import { PROVIDERS_FILE, publishedJsonReader } from '../../core/base/state/published';
import type { TrialOutcome } from '../../core/trials/outcome';
import { runSuite, type RunProgress, type RunReport } from '../../core/trials/runner';
import { loadSuite, suiteFilePath } from '../../core/trials/suite';
import { builtinRolesDir, alfredVersion, openHarness } from '../context';
import { json, UsageError } from '../io';
import type { CliCommand } from './command';

const BAR_WIDTH = 24;

export function trialLine(index: number, total: number, key: string, o: TrialOutcome): string {
  const escaped = o.escapedDefect === true ? ' · escaped defect' : '';
  return `[${index}/${total}] ${key} ${o.status}${escaped} · ${o.duplicatedToolActions} duplicated tool action${o.duplicatedToolActions === 1 ? '' : 's'} · ${o.tokens} tokens · $${o.costUsd.toFixed(4)} · ${(o.wallMs / 1000).toFixed(1)} s`;
}

function bar(done: number, total: number, what: string): string {
  const filled = total === 0 ? BAR_WIDTH : Math.round((done / total) * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${done}/${total} ${what}`;
}

/** Per condition, how many trials ended with each status (this run and earlier ones). */
function summary(report: RunReport): string[] {
  const counts = new Map<string, Map<string, number>>();
  for (const o of [...report.recordedInterrupted, ...report.ran]) {
    const byStatus = counts.get(o.condition) ?? new Map<string, number>();
    byStatus.set(o.status, (byStatus.get(o.status) ?? 0) + 1);
    counts.set(o.condition, byStatus);
  }
  return [...counts].map(([c, m]) => `  ${c}: ${[...m].map(([s, n]) => `${n} ${s}`).join(', ')}`);
}

export const trialCommand: CliCommand = {
  name: 'trial',
  usage: 'alfred trial run [--suite PATH] [--condition NAME] [--json]',
  async run(args, io) {
    if (args.positionals[0] !== 'run') throw new UsageError(`alfred trial: expected "run", got ${args.positionals[0] ? `"${args.positionals[0]}"` : 'nothing'}.\n\nUsage: ${this.usage}`);
    const harness = await openHarness(args.workspace);
    const file = args.suite ? path.resolve(harness.workspaceFolder, args.suite) : suiteFilePath(harness.workspaceFolder);
    const parsed = loadSuite(file);
    for (const p of parsed.problems) io.err(`${p.path}${p.key ? ` (${p.key})` : ''}: ${p.message}`);
    if (!parsed.suite) return 2;
    const { providers, problems } = parseProviders(publishedJsonReader<unknown>(harness.stateDir, PROVIDERS_FILE, [])(), 'alfred.providers (published by the editor)');
    for (const p of problems) io.err(`${p.path} ${p.key}: ${p.message}`);

    const abort = new AbortController();
    // The first Ctrl-C stops cleanly (the running trial recorded interrupted); a second one does not wait.
    const onSigint = () => {
      if (abort.signal.aborted) process.exit(130);
      abort.abort();
    };
    process.on('SIGINT', onSigint);
    const tty = !args.json && process.stderr.isTTY === true;
    let running = '';
    let done = 0;
    let total = 0;
    const redraw = () => { if (tty) process.stderr.write(`\r\x1b[2K${bar(done, total, running)}`); };
    const onProgress = (e: RunProgress) => {
      if (e.kind === 'plan') {
        total = e.planned;
        done = e.done;
        if (!args.json) io.out(`Suite ${parsed.suite!.name}: ${e.planned} trials planned, ${e.done} already started${e.interrupted ? ` (${e.interrupted} left unfinished by an earlier run, recorded interrupted)` : ''}, ${e.toRun} to run.`);
      } else if (e.kind === 'start') {
        running = `${e.key} running…`;
      } else if (e.kind === 'end') {
        done = e.index;
        running = '';
        const line = trialLine(e.index, e.total, e.key, e.outcome);
        if (tty) process.stderr.write('\r\x1b[2K');
        if (args.json) io.err(line);
        else io.out(line);
      }
      redraw();
    };
    let report: RunReport;
    try {
      report = await runSuite({
        workspaceFolder: harness.workspaceFolder, suite: parsed.suite, ...(args.condition ? { condition: args.condition } : {}),
        providers, builtinRolesDir: builtinRolesDir(), builtinPacksDir: path.join(path.dirname(builtinRolesDir()), 'packs'), version: alfredVersion(), pricing: publishedPricingReader(harness.stateDir),
        trialsRoot: path.join(harness.stateDir, 'trials', parsed.suite.name), signal: abort.signal, onProgress,
        apiKey: async (provider) => {
          if (provider.key.kind === 'secret') throw new Error(`provider ${provider.name}'s key secret:${provider.key.name} is kept in the editor's secret storage; give the command line a $VAR key`);
          const key = await resolveKey(provider.key, { env: process.env, secret: () => Promise.resolve(undefined) });
          if (!key.ok) throw new Error(`provider ${provider.name}: ${key.reason}`);
          return key.key || undefined;
        },
      });
    } finally {
      process.off('SIGINT', onSigint);
      if (tty) process.stderr.write('\r\x1b[2K');
    }
    if (report.refused) {
      io.err(`alfred trial run: nothing was run:\n${report.refused.map((r) => `  - ${r}`).join('\n')}`);
      return 2;
    }
    if (args.json) io.out(json(report));
    else {
      if (report.suiteChanged) io.out('The suite changed since its first recorded trial: recorded as suite-changed, and alfred compare reports it.');
      io.out(`Outcomes: ${report.outcomesFile}`);
      const lines = summary(report);
      if (lines.length) io.out(lines.join('\n'));
    }
    return abort.signal.aborted ? 130 : 0;
  },
};
