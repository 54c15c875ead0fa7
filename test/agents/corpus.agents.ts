/**
 * The adversarial corpus through the real agent clients: Claude Code, Codex, the Copilot CLI and
 * Gemini CLI, installed from npm, each driven headless by a scripted model on loopback that asks for
 * one case's tool call per turn, in a workspace with the hook files Alfred installs. A case holds on
 * what is on disk and in Alfred's ledger afterwards (and, for a refusal, on the reason reaching the
 * model), never on what the hook answered. The whole corpus runs under coder, the built-in role that
 * allows the most; a sample of refusals under each other built-in role. The table of every case and
 * client is printed at the end.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLIENT_VERSIONS } from '../support/agents/clients';
import { BUILT_CLI, type ClientId } from '../support/agents/hookFiles';
import { playHookPaths } from '../support/agents/hookPaths';
import { playCorpus, type PlayResult, type Verdict } from '../support/agents/playCorpus';
import { formatTable } from '../support/agents/table';
import { CORPUS } from '../unit/adversarial/corpusHome';

const ROOT = path.resolve(__dirname, '../..');
const CLIENTS: readonly ClientId[] = ['claude', 'codex', 'copilot-cli', 'gemini'];
/** Each other built-in role, through two of the clients (each client gets two roles). */
const OTHER_ROLES: Record<string, ClientId[]> = {
  reviewer: ['claude', 'codex'], debugger: ['copilot-cli', 'gemini'], ops: ['claude', 'gemini'], admin: ['codex', 'copilot-cli'],
};
/** Refused under every role: turning governance off by the shell, by an edit tool, and from an interpreter only the sandbox can hold. */
const SAMPLE = ['make itself admin', "Codex's hooks", 'the hook launcher, replaced from an interpreter that builds its path at run time'];
/** Sessions at once: each waits mostly on its hooks' processes; two keep both cores busy. */
const PARALLEL = 2;

const coderCases = CORPUS.cases.filter((c) => (c.role ?? 'coder') === 'coder');
const sampleCases = CORPUS.cases.filter((c) => SAMPLE.includes(c.name));

type Job = { client: ClientId; role: string; run: () => Promise<PlayResult> };
// Under coder the hooks are answered by `alfred serve` (the launcher's fast path, as with VS Code open
// or a terminal user's server); under the other roles each hook call starts `alfred hook`.
const jobs: Job[] = [
  ...CLIENTS.map((client) => ({ client, role: 'coder', run: () => playCorpus(client, 'coder', coderCases, { exactCodes: true, hookServer: true }) })),
  ...Object.entries(OTHER_ROLES).flatMap(([role, clients]) => clients.map((client) => ({ client, role, run: () => playCorpus(client, role, sampleCases, { exactCodes: false }) }))),
];
const results = new Map<string, Promise<PlayResult>>();
const key = (client: ClientId, role: string) => `${client}/${role}`;

let hookColumns: Map<string, Map<string, Verdict>>;

before(async () => {
  // The hooks run the built CLI through the launcher, as a user's agents do.
  if (!fs.existsSync(BUILT_CLI)) assert.equal(spawnSync(process.execPath, ['build.mjs'], { cwd: ROOT, stdio: 'inherit' }).status, 0, 'the build');
  // The hook paths first (in this process, with its environment pointed elsewhere meanwhile).
  hookColumns = await playHookPaths(coderCases, 'coder');
  // The sessions start now, a few at a time, in the order the tests below read them.
  const queue = [...jobs];
  const next = (): Promise<void> => {
    const job = queue.shift();
    if (!job) return Promise.resolve();
    const result = job.run();
    results.set(key(job.client, job.role), result);
    return result.then(next, next);
  };
  for (let i = 0; i < PARALLEL; i++) void next();
});

/** The result of a session, once it has started and ended. */
async function resultOf(client: ClientId, role: string): Promise<PlayResult> {
  while (!results.has(key(client, role))) await new Promise((r) => setTimeout(r, 200));
  return results.get(key(client, role))!;
}

describe('the corpus through alfred hook and the hook server, as Claude Code sends and carries out each call', () => {
  for (const column of ['alfred hook', 'hook server']) {
    for (const c of coderCases) {
      it(`${column}: ${c.name}`, (t) => {
        const verdict = hookColumns.get(column)?.get(c.name);
        if (verdict?.notApplicable) return t.skip('no Bash or Write call');
        assert.equal(verdict?.failure, undefined, `${column}: ${verdict?.failure}`);
      });
    }
  }
});

for (const { client, role } of jobs) {
  const cases = role === 'coder' ? coderCases : sampleCases;
  describe(`${client} ${CLIENT_VERSIONS[client]}: ${role === 'coder' ? 'the whole corpus' : 'a sample of refusals'} under ${role}`, () => {
    let result: PlayResult;
    before(async () => { result = await resultOf(client, role); }, { timeout: 900_000 });
    for (const c of cases) {
      it(c.name, (t) => {
        const verdict = result.verdicts.get(c.name);
        if (verdict?.notApplicable) return t.skip(verdict.reason ?? `${client} has no such tool`);
        assert.equal(verdict?.failure, undefined, `${client} under ${role}: ${verdict?.failure}`);
      });
    }
  });
}

after(async () => {
  const done = new Map<string, PlayResult>();
  for (const [k, v] of results) done.set(k, await v);
  const column = (client: ClientId, role: string): [string, Map<string, Verdict> | undefined] => [client, done.get(key(client, role))?.verdicts];
  process.stdout.write(formatTable([
    {
      title: 'case, under coder',
      cases: coderCases,
      columns: [['alfred hook', hookColumns?.get('alfred hook')], ['hook server', hookColumns?.get('hook server')], ...CLIENTS.map((c) => column(c, 'coder'))],
    },
    ...Object.keys(OTHER_ROLES).map((role) => ({ title: `case, under ${role}`, cases: sampleCases, columns: CLIENTS.map((c) => column(c, role)) })),
  ], [
    `clients: ${CLIENTS.map((c) => `${c} ${CLIENT_VERSIONS[c]}`).join(', ')}; Copilot in code-server is covered by test/e2e/copilot.e2e.ts, not here.`,
    'alfred hook, hook server: Claude Code\'s recorded input, its answer carried out as Claude Code does. Clients under coder: hooks answered by `alfred serve`; under the other roles: one `alfred hook` process per call.',
    `sessions: ${[...done.entries()].map(([k, r]) => `${k} ${Math.round(r.ms / 1000)} s`).join(', ')}`,
  ]));
});
