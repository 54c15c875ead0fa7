/**
 * Records what each real client sends its hooks and what Alfred answered, into
 * test/fixtures/agents/<client>-<version>/<Event>[.<tool>][.refused].json, the inputs the unit tests
 * of Alfred's input reading run on (test/unit/integrations/hooks/recordedInputs.test.ts). Run it again when a
 * client's pinned version changes:
 *
 *   node build.mjs && node --import tsx test/support/agents/recordInputs.ts [client ...]
 *
 * Each session makes three calls: a shell command, a file written with the client's edit tool, and
 * a command Alfred refuses. A launcher in front of Alfred's keeps each hook's stdin and stdout.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { launcherFile } from '../../../src/core/integrations/hooks/launcherPath';
import { startScriptedModel } from '../scriptedModel/server';
import { CLIENT_PACKAGES, CLIENT_VERSIONS, prepareClient, runClient } from './clients';
import { corpusCalls } from './corpusCalls';
import type { ClientId } from './hookFiles';

const ROOT = path.resolve(__dirname, '../../..');
export const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'agents');

/** What the recorded session asks for; the fixtures say it again under `asked`, for the tests to check against. */
export const RECORDED_COMMAND = 'echo recorded > out.txt';
export const REFUSED_COMMAND = 'alfred role admin';
export const WRITTEN_FILE = 'notes.txt';

export interface RecordedHook {
  client: string;
  version: string;
  /** The argument of `alfred hook`: the event as the hook file names it. */
  event: string;
  /** The hook's stdin, parsed, with the session's folders as /workspace and /home/user. */
  input: Record<string, unknown>;
  /** Alfred's answer on stdout, parsed ({} when it printed nothing; the text when it is not JSON). */
  answer: unknown;
  exitCode: number;
  /** What the model asked for in this call, when the event is about a tool call. */
  asked?: { category: 'shell' | 'edit'; command?: string; path?: string; refused: boolean };
}

/** An answer as JSON; what is not JSON (an error's text) is kept as the text. */
function parsedOrText(out: string): unknown {
  if (!out) return {};
  try { return JSON.parse(out) as unknown; } catch { return out; }
}

/** The launcher that keeps each call's input and answer, then passes both through. */
function recordingLauncher(real: string, dir: string): string {
  return `#!/bin/bash
n=$(date +%s%N); input=$(cat)
printf '%s' "$input" > "${dir}/$n.$2.in"
answer=$(printf '%s' "$input" | "${real}" "$@"); code=$?
printf '%s' "$answer" > "${dir}/$n.$2.out"; printf '%s\\n' "$code" > "${dir}/$n.$2.code"
printf '%s' "$answer"; exit $code
`;
}

export async function recordClient(client: ClientId): Promise<string[]> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `alfred-record-${client}-`)));
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  const raw = path.join(root, 'raw');
  for (const d of [ws, home, raw]) fs.mkdirSync(d);
  const calls = [
    ...corpusCalls({ name: 'shell', shell: RECORDED_COMMAND, expect: 'deny' }, client, ws, home),
    ...corpusCalls({ name: 'edit', edit: WRITTEN_FILE, content: 'recorded\n', expect: 'deny' }, client, ws, home),
    ...corpusCalls({ name: 'refused', shell: REFUSED_COMMAND, expect: 'deny' }, client, ws, home),
  ];
  const model = await startScriptedModel(calls);
  prepareClient(client, ws, home, model.url);
  const launcher = launcherFile(home, 'linux');
  fs.renameSync(launcher, `${launcher}.real`);
  fs.writeFileSync(launcher, recordingLauncher(`${launcher}.real`, raw), { mode: 0o755 });
  const run = await runClient({ client, modelUrl: model.url, workspace: ws, home, role: 'coder' });
  await model.close();
  if (run.code !== 0) throw new Error(`${client} exited ${run.code}: ${run.stderr.slice(-2000)}`);

  const outDir = path.join(FIXTURES, `${CLIENT_PACKAGES[client]}-${CLIENT_VERSIONS[client]}`);
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  // Claude Code names its transcript folder after the workspace's path, slashes as dashes.
  const anonymous = (text: string) => text.replaceAll(ws, '/workspace').replaceAll(home, '/home/user').replaceAll(root, '/tmp/session')
    .replaceAll(ws.replaceAll('/', '-'), '-workspace');
  const written: string[] = [];
  let toolCalls = 0;
  for (const file of fs.readdirSync(raw).filter((f) => f.endsWith('.in')).sort()) {
    const stem = file.slice(0, -3);
    const event = stem.split('.').slice(1).join('.');
    const input = JSON.parse(anonymous(fs.readFileSync(path.join(raw, file), 'utf8'))) as Record<string, unknown>;
    const out = anonymous(fs.readFileSync(path.join(raw, `${stem}.out`), 'utf8')).trim();
    const tool = String(input.tool_name ?? input.toolName ?? '');
    const pre = /^(PreToolUse|preToolUse|BeforeTool)$/.test(event);
    const index = pre ? toolCalls++ : -1;
    const refused = index === 2;
    const asked = index === 0 ? { category: 'shell' as const, command: RECORDED_COMMAND, refused }
      : index === 1 ? { category: 'edit' as const, path: `/workspace/${WRITTEN_FILE}`, refused }
        : index === 2 ? { category: 'shell' as const, command: REFUSED_COMMAND, refused } : undefined;
    const recorded: RecordedHook = {
      client: CLIENT_PACKAGES[client], version: CLIENT_VERSIONS[client], event, input,
      answer: parsedOrText(out), exitCode: Number(fs.readFileSync(path.join(raw, `${stem}.code`), 'utf8')),
      ...(asked ? { asked } : {}),
    };
    const name = `${event}${tool ? `.${tool}` : ''}${refused ? '.refused' : ''}.json`;
    // The first of each name is kept (Claude Code's Read before a write, repeated events).
    if (written.includes(name)) continue;
    fs.writeFileSync(path.join(outDir, name), `${JSON.stringify(recorded, null, 2)}\n`);
    written.push(name);
  }
  fs.rmSync(root, { recursive: true, force: true });
  return written.map((n) => path.join(outDir, n));
}

if (require.main === module) {
  const wanted = process.argv.slice(2) as ClientId[];
  const clients: ClientId[] = wanted.length ? wanted : ['claude', 'codex', 'copilot-cli', 'gemini'];
  void (async () => {
    for (const client of clients) {
      const files = await recordClient(client);
      process.stdout.write(`${client}: ${files.map((f) => path.relative(ROOT, f)).join(', ')}\n`);
    }
  })().catch((err: unknown) => { process.stderr.write(`${String((err as Error).stack ?? err)}\n`); process.exit(1); });
}
