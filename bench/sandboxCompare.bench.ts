/**
 * Alfred's sandbox against `@anthropic-ai/sandbox-runtime` (srt), side by side in one run:
 * - the escape corpus's sandboxed shell cases (sandboxCompareCorpus.ts): unsandboxed (the control),
 *   Alfred's hook answer, srt configured with Alfred's plan, srt as shipped; each judged on disk;
 * - start-up: `sh -c true` plain, in Alfred's sandbox as the hook answer runs it (coder: behind its
 *   proxy), under srt's CLI (its proxies started per command, as a terminal starts it) and under srt
 *   as a library embeds it (its proxies already running, the wrap per command); medians of RUNS each,
 *   in an order shuffled per round;
 * - the network cases (sandboxCompareNet.ts), judged by what servers outside received.
 * This is a comparison, not a target: it passes when every way ran (the controls wrote where each
 * sandbox lets a command write, and no sandbox failed to start). Skipped (and passing) without
 * bubblewrap or without srt installed.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspaceHarness } from '../src/core/integrations/hooks/openWorkspace';
import { protectedGlobsReader } from '../src/core/protect/protectGlobs';
import { detectSandbox, planSandbox } from '../src/core/sandbox/index';
import { stateDir } from '../src/core/base/state/paths';
import { runControl, runCorpus, srtSettings, WAYS, world, type CaseRow, type Way } from './sandboxCompareCorpus';
import { runNetwork } from './sandboxCompareNet';
import { SRT_CLI, srtArgv, srtVersion } from './srt';
import { finish, median, nowMs, roundOrder, tempDir, verdict } from './util';

const ROOT = path.resolve(__dirname, '..');
const RUNS = 30;
const WARMUP = 3;
const mark = (held: boolean): string => (held ? 'held' : 'ESCAPED');

function printCorpus(rows: readonly CaseRow[]): void {
  const widths = [58, 11, 8, 16, 15];
  const cell = (s: string, w: number) => (s.length > w ? `${s.slice(0, w - 1)}…` : s.padEnd(w));
  console.log([cell('case', widths[0]!), cell('unsandboxed', widths[1]!), cell('Alfred', widths[2]!), cell('srt like Alfred', widths[3]!), 'srt as shipped'].join(' | '));
  for (const r of rows) {
    if (r.extra && !rows[rows.indexOf(r) - 1]?.extra) console.log('beyond the corpus:');
    const o = r.outcomes;
    const text = (way: Way) => `${mark(o[way].held)}${o[way].error ? ` (sandbox failed: ${o[way].error})` : ''}`;
    console.log([cell(r.name, widths[0]!), cell(text('plain'), widths[1]!), cell(text('alfred'), widths[2]!), cell(text('srtLikeAlfred'), widths[3]!), text('srtAsShipped')].join(' | '));
  }
  const vacuous = rows.filter((r) => r.outcomes.plain.held);
  if (vacuous.length) console.log(`unchanged even without a sandbox, so their "held" says nothing: ${vacuous.map((r) => r.name).join('; ')}`);
  for (const [label, part] of [['the corpus', rows.filter((r) => !r.extra)], ['beyond it', rows.filter((r) => r.extra)]] as const) {
    const count = (way: Way) => part.filter((r) => r.outcomes[way].held).length;
    console.log(`held, ${label}: unsandboxed ${count('plain')}/${part.length}, Alfred ${count('alfred')}/${part.length}, srt like Alfred ${count('srtLikeAlfred')}/${part.length}, srt as shipped ${count('srtAsShipped')}/${part.length}`);
  }
}

/** Medians of `sh -c true` each way; srt's library is loaded here only (its proxies live in this process). */
async function startup(root: string): Promise<Record<string, number>> {
  const w = world(root, 'startup');
  const plan = (await openWorkspaceHarness(w.ws, { builtinRolesDir: path.join(ROOT, 'roles'), version: 'bench', env: w.env })).sandboxPlan();
  // The same plan with every name allowed: no namespace, no proxy (what bubblewrap and the mounts cost alone).
  const open = planSandbox({
    role: { name: 'coder', sandbox: 'auto', network: { allow: ['*'], deny: [] } }, workspaceFolder: w.ws, protectedGlobs: protectedGlobsReader(w.ws)(),
    stateDir: stateDir(w.ws, w.env), env: w.env, home: w.home,
  });
  if (plan.kind !== 'sandboxed' || open.kind !== 'sandboxed') throw new Error(`expected Alfred's sandbox, got ${plan.kind}`);
  const settings = await srtSettings('srtLikeAlfred', w);
  const { SandboxManager } = await import('@anthropic-ai/sandbox-runtime');
  await SandboxManager.initialize(settings);
  const run = (argv: readonly string[]) => {
    const r = spawnSync(argv[0]!, argv.slice(1), { cwd: w.ws, env: w.env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${argv.slice(0, 3).join(' ')} … exited ${r.status}: ${r.stderr}`);
  };
  const ways: Record<string, () => Promise<void> | void> = {
    plain: () => run(['/bin/sh', '-c', 'true']),
    alfred: () => run(['/bin/sh', '-c', plan.line('true')]),
    alfredNoProxy: () => run(['/bin/sh', '-c', open.line('true')]),
    srtCli: () => run(srtArgv(path.join(root, 'startup', 'srt-settings.json'), settings, 'true')),
    srtLibrary: async () => {
      run(['/bin/sh', '-c', await SandboxManager.wrapWithSandbox('true')]);
      SandboxManager.cleanupAfterCommand();
    },
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
  try {
    for (let i = 0; i < WARMUP + RUNS; i++) {
      for (const way of roundOrder(Object.keys(ways), i)) {
        const t0 = nowMs();
        await ways[way]!();
        if (i >= WARMUP) times[way]!.push(nowMs() - t0);
      }
    }
  } finally {
    await SandboxManager.reset();
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

async function main(): Promise<void> {
  const found = detectSandbox(process.env);
  if (found.kind !== 'bwrap' || !fs.existsSync(SRT_CLI)) {
    verdict('sandbox comparison', `skipped: ${found.kind !== 'bwrap' ? 'no bubblewrap' : 'no @anthropic-ai/sandbox-runtime in node_modules'}`, true);
    return;
  }
  console.log(`srt ${srtVersion()} under Node ${process.versions.node}; bubblewrap at ${found.path}`);
  const root = tempDir('srtcompare');
  try {
    const control = await runControl(root);
    console.log(`control (an unprotected workspace file written): ${WAYS.map((w) => `${w} ${control[w] ? 'wrote' : 'DID NOT WRITE'}`).join(', ')}`);
    const rows = await runCorpus(root);
    printCorpus(rows);

    const ms = await startup(root);
    console.log(`start-up, sh -c true, medians of ${RUNS}: plain ${ms.plain!.toFixed(1)} ms | Alfred (hook line, coder, proxy) ${ms.alfred!.toFixed(1)} ms`
      + ` | Alfred with every name allowed (no proxy) ${ms.alfredNoProxy!.toFixed(1)} ms`
      + ` | srt CLI ${ms.srtCli!.toFixed(1)} ms (${(ms.srtCli! / ms.alfred!).toFixed(2)}× Alfred) | srt library, proxies running ${ms.srtLibrary!.toFixed(1)} ms (${(ms.srtLibrary! / ms.alfred!).toFixed(2)}× Alfred)`);

    const netResult = await runNetwork(root);
    if ('skipped' in netResult) console.log(`network cases skipped: ${netResult.skipped}`);
    else {
      console.log(`network: allowed ${netResult.names[0]} (and 127.0.0.1), not allowed ${netResult.names[1]}; "reached" = a server outside received it`);
      for (const r of netResult.rows) {
        const ok = (reached: boolean) => `${reached ? 'reached' : 'refused'}${(reached ? 'reached' : 'refused') === r.expect ? '' : ' ✗'}`;
        console.log(`${r.name.padEnd(78)} | plain ${r.plain ? 'reached' : 'refused'} | Alfred ${ok(r.alfred)} | Alfred strict ${r.alfredStrict === undefined ? 'not run' : ok(r.alfredStrict)} | srt ${ok(r.srt)}`);
      }
    }
    const failed = rows.flatMap((r) => WAYS.filter((w) => r.outcomes[w].error).map((w) => `${w}: ${r.name}`));
    const ran = WAYS.every((w) => control[w]) && failed.length === 0;
    verdict('sandbox comparison', ran ? 'every way ran (controls wrote, no sandbox failed to start)' : `not every way ran: ${[...WAYS.filter((w) => !control[w]).map((w) => `${w} control`), ...failed].join('; ')}`, ran);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main().then(finish);
