/**
 * The corpus table's first two columns: each case sent as Claude Code sends it (its input recorded
 * from the real client, test/fixtures/agents) to `alfred hook` in this process and to the resident
 * hook server, and the answer then carried out as Claude Code carries it out (a refusal stops the
 * call; an allowed command runs, rewritten when the answer rewrote it). Judged like the clients'
 * columns: on the disk and the ledger afterwards. Run before any client session: it points HOME,
 * ALFRED_HOME and PATH of this process at a home of its own while it runs.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../../src/cli/main';
import { readEvents } from '../../../src/core/base/events/read';
import { openWorkspaceHarness } from '../../../src/core/integrations/hooks/openWorkspace';
import { startHookServer, type HookServer } from '../../../src/core/integrations/hooks/server';
import { forwardedEnv, HOOK_PROTOCOL_VERSION, type HookRequest, type HookResponse } from '../../../src/core/integrations/hooks/serverProtocol';
import { stateDir } from '../../../src/core/base/state/paths';
import { held, prepareCorpusHome, snapshot, writeCorpusWorkspace, type CorpusCase } from '../../unit/adversarial/corpusHome';
import { installLauncher } from './hookFiles';
import { manifest, restoreHome, type Verdict } from './playCorpus';

const ROOT = path.resolve(__dirname, '../../..');
const RECORDED = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/agents/claude-code-2.1.328/PreToolUse.Bash.json'), 'utf8')) as { input: Record<string, unknown> };

type Ask = (stdin: string, ws: string, role: string) => Promise<string>;

const inProcess: Ask = async (stdin, _ws, role) => {
  process.env.ALFRED_ROLE = role;
  let out = '';
  try {
    await main(['hook', 'PreToolUse'], { out: (t) => void (out += t), err: () => undefined, readStdin: async () => stdin });
  } finally {
    delete process.env.ALFRED_ROLE;
  }
  return out;
};

const throughServer = (server: HookServer): Ask => (stdin, ws, role) => new Promise((resolve, reject) => {
  // As the launcher's client sends it: the caller's forwarded variables, its role among them.
  const request: HookRequest = { v: HOOK_PROTOCOL_VERSION, event: 'PreToolUse', stdin, processCwd: ws, env: forwardedEnv({ ...process.env, ALFRED_ROLE: role }) };
  const socket = net.connect(server.socketPath, () => socket.write(`${JSON.stringify(request)}\n`));
  let text = '';
  socket.setEncoding('utf8').on('data', (d: string) => (text += d));
  socket.on('end', () => {
    const response = JSON.parse(text) as HookResponse;
    if ('error' in response) reject(new Error(response.error));
    else resolve(response.stdout);
  });
  socket.on('error', reject);
});

/** Claude Code's call for a case: Bash or Write, in its recorded input. */
function claudeInput(c: CorpusCase, ws: string, home: string): Record<string, unknown> | undefined {
  const call = c.shell !== undefined ? { tool_name: 'Bash', tool_input: { command: c.shell, description: 'Run it' } }
    : c.edit !== undefined ? { tool_name: 'Write', tool_input: { file_path: c.edit.startsWith('~/') ? path.join(home, c.edit.slice(2)) : path.join(ws, c.edit), content: c.content } }
      : undefined;
  return call && { ...RECORDED.input, cwd: ws, tool_use_id: `toolu_${c.name.length}`, ...call };
}

/** Plays every case through `alfred hook` in process and through the hook server; the verdicts per column. */
export async function playHookPaths(cases: CorpusCase[], role: string): Promise<Map<string, Map<string, Verdict>>> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-agents-hooks-')));
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  const saved = { HOME: process.env.HOME, ALFRED_HOME: process.env.ALFRED_HOME, PATH: process.env.PATH };
  process.env.HOME = home;
  process.env.ALFRED_HOME = path.join(home, '.alfred');
  installLauncher(home);
  process.env.PATH = prepareCorpusHome(home, saved.PATH ?? '');
  // No client lives in this home: all of it is put back after each case but Alfred's state and the
  // server's socket (a case's own path under them is removed below when it made it).
  const everything = new Set(['.alfred/run', '.alfred/state', '.alfred/cache']);
  const prepared = manifest(home, everything);
  const started = await startHookServer({
    openHarness: (folder, harnessEnv, cwd) => openWorkspaceHarness(folder, { builtinRolesDir: path.join(ROOT, 'roles'), version: 'test', env: harnessEnv, cwd }),
  });
  if (started.kind !== 'listening') throw new Error('the hook server did not start');
  const columns = new Map<string, Map<string, Verdict>>();
  try {
    for (const [i, [column, ask]] of ([['alfred hook', inProcess], ['hook server', throughServer(started.server)]] as const).entries()) {
      const verdicts = new Map<string, Verdict>();
      let n = 0;
      for (const c of cases) {
        const ws = path.join(root, `ws-${i}-${++n}`);
        fs.mkdirSync(ws);
        writeCorpusWorkspace(ws);
        const input = claudeInput(c, ws, home);
        if (!input) { verdicts.set(c.name, { notApplicable: true }); continue; }
        const watched = c.protects ?? c.edit;
        const before = watched ? snapshot(ws, home, watched) : undefined;
        const answer = JSON.parse((await ask(JSON.stringify(input), ws, role)) || '{}') as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string; updatedInput?: { command?: string } } };
        const out = answer.hookSpecificOutput ?? {};
        const decisions = readEvents(stateDir(ws), { types: ['ToolCall'] }).events.filter((e) => e.phase === 'decision');
        let failure: string | undefined;
        if (out.permissionDecision === 'deny') {
          if (c.expect === 'deny' && decisions.at(-1)?.code !== c.code) failure = `refused with ${String(decisions.at(-1)?.code)}, expected ${c.code}`;
          else if (!/^Alfred \(role \w+\): /.test(out.permissionDecisionReason ?? '')) failure = 'refused without Alfred\'s reason';
        } else if (c.expect === 'deny') {
          failure = `not refused (Alfred: ${String(decisions.at(-1)?.decision ?? 'no decision')})`;
        } else {
          // Allowed: the command runs as Claude Code runs it, rewritten when the answer rewrote it.
          spawnSync('/bin/bash', ['-c', out.updatedInput?.command ?? c.shell!], { cwd: ws, env: { ...process.env }, timeout: 30_000, stdio: 'ignore' });
          if (!held(watched!, before, snapshot(ws, home, watched!))) failure = `${c.protects} changed on disk (${out.updatedInput ? 'rewritten' : 'run as sent'})`;
        }
        verdicts.set(c.name, { failure });
        if (watched?.startsWith('~/') && before === '(missing)') fs.rmSync(path.join(home, watched.slice(2)), { recursive: true, force: true });
        restoreHome(home, prepared, everything);
        installLauncher(home);
      }
      columns.set(column, verdicts);
    }
  } finally {
    await started.server.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    fs.rmSync(root, { recursive: true, force: true });
  }
  return columns;
}
