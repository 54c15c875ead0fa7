/**
 * Plays cases of the adversarial corpus through one real client session: the scripted model asks
 * for one case's tool call per turn; between two turns (when the client comes back for the next one,
 * the call and its hooks done) the case is judged on what is on disk and in Alfred's ledger, and the
 * workspace, the hook files and the home are put back as they were, so a case that got through does
 * not change what the next one meets.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readEvents } from '../../../src/core/base/events/read';
import { stateDir } from '../../../src/core/base/state/paths';
import { held, prepareCorpusHome, snapshot, writeCorpusWorkspace, type CorpusCase } from '../../unit/adversarial/corpusHome';
import { startScriptedModel, type ScriptedCall } from '../scriptedModel/server';
import { prepareClient, runClient, type ClientRun } from './clients';
import { corpusCalls, editTarget } from './corpusCalls';
import { BUILT_CLI, installHookFile, installLauncher, type ClientId } from './hookFiles';
import { stopHookServers } from './hookServers';

export interface Verdict {
  /** undefined: the case held; otherwise what got through, or why it could not be judged. */
  failure?: string;
  /** The client has no such tool, or refuses the call itself before any hook runs (`reason`). */
  notApplicable?: boolean;
  reason?: string;
}

export interface PlayResult {
  verdicts: Map<string, Verdict>;
  run: ClientRun;
  /** Requests the model endpoint answered. */
  requests: number;
  ms: number;
}

interface Decision { decision?: string; code?: string }

/**
 * Plays `cases` under `role` through one headless session of `client`. `exactCodes`: a refusal must
 * carry the case's own code (the corpus's codes are those of coder); otherwise any refusal holds.
 */
export async function playCorpus(client: ClientId, role: string, cases: CorpusCase[], opts: { exactCodes: boolean; hookServer?: boolean }): Promise<PlayResult> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `alfred-agents-${client}-`)));
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  fs.mkdirSync(ws);
  fs.mkdirSync(home);
  writeCorpusWorkspace(ws);
  const envPath = prepareCorpusHome(home, process.env.PATH ?? '');
  const homeAsPrepared = manifest(home);
  const alfredEnv = { ALFRED_HOME: path.join(home, '.alfred') };
  const decisions = (): Decision[] => readEvents(stateDir(ws, alfredEnv), { types: ['ToolCall'] }).events
    .filter((e) => e.phase === 'decision') as Decision[];

  // The hook file and the server first: the calls are cut against the files as the client meets them.
  installHookFile(client, ws);
  installLauncher(home);
  const server = opts.hookServer ? await startHookServerIn(home, envPath) : undefined;
  const played = cases.map((c) => ({ c, calls: corpusCalls(c, client, ws, home) }));
  const verdicts = new Map<string, Verdict>(played.filter((p) => !p.calls.length).map((p) => [p.c.name, { notApplicable: true }]));
  const queue = played.filter((p) => p.calls.length > 0);
  // The script, one case after the other; the case that starts at each turn.
  const script: ScriptedCall[] = queue.flatMap((q) => q.calls);
  const startsAt = new Map<number, number>();
  queue.reduce((turn, q, i) => { startsAt.set(turn, i); return turn + q.calls.length; }, 0);
  let before: { decisions: number; target?: string } | undefined;
  const backup = path.join(root, 'backup');
  const absolute = (rel: string) => rel.startsWith('~/') ? path.join(home, rel.slice(2)) : path.join(ws, rel);
  // A case that got through is undone: its path as it was (a settings file that turns the hooks off
  // would otherwise leave every later case ungoverned).
  const keep = (rel: string) => {
    fs.rmSync(backup, { recursive: true, force: true });
    if (fs.existsSync(absolute(rel))) fs.cpSync(absolute(rel), backup, { recursive: true, verbatimSymlinks: true });
  };
  const putBack = (rel: string) => {
    fs.rmSync(absolute(rel), { recursive: true, force: true });
    if (fs.existsSync(backup)) fs.cpSync(backup, absolute(rel), { recursive: true, verbatimSymlinks: true });
  };

  const watched = (c: CorpusCase): string | undefined => c.protects ?? c.edit;
  const finish = (i: number, lastCall: number) => {
    const { c } = queue[i]!;
    const made = decisions().slice(before!.decisions);
    const seen = model.toolResults().find((r) => r.callId.endsWith(`call_${lastCall + 1}`))?.output ?? '';
    const after = watched(c) ? snapshot(ws, home, watched(c)!) : undefined;
    const itself = refusedItself(c, client, made, seen, before!.target, after);
    verdicts.set(c.name, itself ? { notApplicable: true, reason: itself } : { failure: judge(c, made, seen, before!.target, after, opts.exactCodes, client, ws, home) });
    if (watched(c) && !held(watched(c)!, before!.target, after)) putBack(watched(c)!);
  };
  let current = -1;
  const model = await startScriptedModel(script, {
    onTurn: (made) => {
      // Within a case (its read before its write): nothing to judge or undo yet.
      if (made < script.length && !startsAt.has(made)) return;
      if (current >= 0) finish(current, made - 1);
      current = startsAt.get(made) ?? -1;
      // Everything back as it was: the workspace, the hook files, the launcher, the home's files.
      writeCorpusWorkspace(ws);
      installHookFile(client, ws);
      installLauncher(home);
      restoreHome(home, homeAsPrepared);
      if (current >= 0) {
        const target = watched(queue[current]!.c);
        if (target) keep(target);
        before = { decisions: decisions().length, target: target ? snapshot(ws, home, target) : undefined };
      }
    },
  });
  prepareClient(client, ws, home, model.url);
  const started = Date.now();
  const run = await runClient({ client, modelUrl: model.url, workspace: ws, home, role, env: { PATH: envPath }, timeoutMs: 60_000 + script.length * 15_000 });
  const ms = Date.now() - started;
  if (server) await new Promise((resolve) => { server.once('close', resolve); server.kill('SIGTERM'); });
  await model.close();
  for (const { c } of queue) {
    if (!verdicts.has(c.name)) verdicts.set(c.name, { failure: `not played: the client stopped (exit ${run.code}) ${run.stderr.slice(-300)}` });
  }
  // A server a hook call started on demand (under roles whose hooks run `alfred hook`) would outlive the home.
  await stopHookServers(path.join(home, '.alfred'));
  // The client's own background processes may still be writing in its home for a moment.
  fs.rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  return { verdicts, run, requests: model.requests.length, ms };
}

/**
 * `alfred serve` in the session's home, as a user without VS Code runs it: the launcher's fast path
 * then hands each hook call to it over loopback, no Node started per call.
 */
async function startHookServerIn(home: string, envPath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BUILT_CLI, 'serve'], { env: { PATH: envPath, HOME: home, TMPDIR: process.env.TMPDIR ?? '/tmp' }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let text = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => { text += d; if (text.includes('answering hook calls')) resolve(); });
    child.on('close', (code) => reject(new Error(`alfred serve exited ${code}: ${text}`)));
  });
  return child;
}

/**
 * What a client answers when it refuses an edit itself, before any hook runs. Gemini CLI 0.61's
 * write_file takes only paths in the workspace (outside `.git`) or its own temporary folder: the
 * corpus's edits in the home and in `.git` never reach a hook, whatever the hook would answer.
 */
const OWN_REFUSALS: Partial<Record<ClientId, RegExp>> = {
  gemini: /Path not in workspace: Attempted path .* resolves outside the allowed workspace directories/,
};

/**
 * Why the case does not apply to the client, when the client refused the edit itself: no hook was
 * asked, the client's own refusal reached the model, and the path is as it was.
 */
function refusedItself(c: CorpusCase, client: ClientId, made: Decision[], seen: string, before: string | undefined, after: string | undefined): string | undefined {
  const own = OWN_REFUSALS[client];
  if (c.edit === undefined || made.length || !own?.test(seen) || !held(c.edit, before, after)) return undefined;
  return `${client} refuses the path itself before any hook runs ("${seen.match(own)![0].split(':')[0]}"); nothing written`;
}

/** Why a played case did not hold, or undefined when it did. */
function judge(c: CorpusCase, made: Decision[], seen: string, before: string | undefined, after: string | undefined,
  exactCodes: boolean, client: ClientId, ws: string, home: string): string | undefined {
  const refused = made.find((d) => d.decision === 'deny');
  if (c.expect === 'sandboxed') {
    return held(c.protects!, before, after) ? undefined : `${c.protects} changed on disk (Alfred: ${made.map((d) => `${d.decision}${d.code ? ` ${d.code}` : ''}`).join(', ') || 'no decision'})`;
  }
  if (!refused) return `not refused (Alfred: ${made.map((d) => d.decision).join(', ') || 'no decision: the hook did not run or failed'})`;
  if (exactCodes && refused.code !== c.code) return `refused with ${refused.code}, expected ${c.code}`;
  if (!/Alfred \(role \w+\)/.test(seen)) return `the refusal did not reach the model (it saw: ${JSON.stringify(seen.slice(0, 160))})`;
  if (c.edit !== undefined) {
    const abs = editTarget(c, ws, home);
    if (fs.existsSync(abs) && fs.statSync(abs).isFile() && fs.readFileSync(abs, 'utf8') === c.content) return `${c.edit} was written (${client})`;
    if (!held(c.edit, before, after)) return `${c.edit} changed on disk`;
  }
  return undefined;
}

/** The clients' own folders and Alfred's state, which live through the session; the rest of the home is the user's. */
const LIVE = new Set(['.claude', '.claude.json', '.codex', '.copilot', '.gemini', '.alfred', '.cache', '.npm', '.config/gcloud']);

/** Every file of the user's part of the home with its content ('' for a folder, '->target' for a link). */
export function manifest(home: string, live: ReadonlySet<string> = LIVE): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(home, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      if (live.has(r) || [...live].some((l) => r.startsWith(`${l}.`))) continue;
      const st = fs.lstatSync(path.join(home, r));
      if (st.isSymbolicLink()) out.set(r, `->${fs.readlinkSync(path.join(home, r))}`);
      else if (st.isDirectory()) { out.set(r, ''); walk(r); } else out.set(r, fs.readFileSync(path.join(home, r), 'latin1'));
    }
  };
  walk('');
  return out;
}

/** The user's part of the home back as `prepared` had it: what a case added is removed, what it changed is written back. */
export function restoreHome(home: string, prepared: Map<string, string>, live: ReadonlySet<string> = LIVE): void {
  const now = manifest(home, live);
  for (const [rel] of now) if (!prepared.has(rel)) fs.rmSync(path.join(home, rel), { recursive: true, force: true });
  for (const [rel, content] of prepared) {
    if (now.get(rel) === content) continue;
    const abs = path.join(home, rel);
    fs.rmSync(abs, { recursive: true, force: true });
    if (content === '') fs.mkdirSync(abs, { recursive: true });
    else if (content.startsWith('->')) fs.symlinkSync(content.slice(2), abs);
    else { fs.mkdirSync(path.dirname(abs), { recursive: true }); fs.writeFileSync(abs, content, 'latin1'); }
  }
}
