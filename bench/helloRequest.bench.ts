/**
 * The input tokens of `@alfred hello` under coder, the first turn of a chat in the sample workspace:
 * what every request of a priced model carries before any work is done. Composed as @alfred composes
 * it (src/vscode/chat/turn.ts): the persona (first turn), the pack the radar picks for "hello" (with
 * the workspace's hints), the prompt, and the tools offered (core/turn/chatTools.ts: Alfred's own by
 * default, each as VS Code hands it to the model: name, description, input schema), counted as
 * @alfred counts them (o200k, the tools as one JSON text). Target: at most 2,000 tokens.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { countTokensSync } from '../src/core/rules/budget/tokens';
import { hintMatches } from '../src/core/workflow/packs/hints';
import { loadPacks } from '../src/core/workflow/packs/loader';
import { detectPack } from '../src/core/workflow/packs/radar';
import { rolePermits } from '../src/core/rules/policy/gate';
import { requireRole } from '../src/core/rules/roles/active';
import { loadRoles } from '../src/core/rules/roles/loader';
import { offersTool } from '../src/core/turn/chatTools';
import { composeTurn } from '../src/core/turn/composer';
import { personaText } from '../src/core/turn/persona';
import { verdict, finish } from './util';

const TARGET_TOKENS = 2_000;
const ROOT = path.resolve(import.meta.dirname, '..');
const WORKSPACE = path.join(ROOT, 'test', 'fixtures', 'sample-workspace');

interface ContributedTool { name: string; modelDescription: string; inputSchema?: object }

const tokens = (text: string): number => countTokensSync(text) ?? Math.ceil(text.length / 4);

async function main(): Promise<void> {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { contributes: { languageModelTools: ContributedTool[] } };
  const alfredTools = new Set(pkg.contributes.languageModelTools.map((t) => t.name));
  const role = requireRole(loadRoles({ builtinDir: path.join(ROOT, 'roles'), homeDir: os.tmpdir(), workspaceFolder: WORKSPACE, trusted: true }), 'coder');
  const packs = loadPacks({ builtinDir: path.join(ROOT, 'packs'), workspaceFolder: WORKSPACE, trusted: true });
  const prompt = 'hello';

  const turn = await composeTurn({
    heal: () => Promise.resolve({}),
    pack: () => {
      const pick = detectPack({ prompt, packs: [...packs.packs.values()], hintMatches: (hint) => hintMatches(WORKSPACE, hint) });
      const pack = pick.pack ? packs.packs.get(pick.pack) : undefined;
      return Promise.resolve({ packs: pack ? [{ name: pack.name, context: pack.context }] : [], reason: pick.reason });
    },
    budget: () => Promise.resolve({ status: { day: '', usd: 0, estimated: false, records: 0, capUsd: 0, percent: 0, level: 'off' }, notices: [] }),
    persona: () => Promise.resolve({ name: 'alfred', text: personaText('alfred')! }),
  });
  const messages = [turn.personaText ?? '', [...turn.context, prompt].join('\n\n')];
  const offered = pkg.contributes.languageModelTools
    .filter((t) => offersTool(t.name, alfredTools.has(t.name), []) && rolePermits(role, t.name))
    .map((t) => ({ name: t.name, description: t.modelDescription, inputSchema: t.inputSchema }));
  const messageTokens = messages.reduce((n, m) => n + tokens(m), 0);
  const toolTokens = offered.length ? tokens(JSON.stringify(offered)) : 0;
  const total = messageTokens + toolTokens;
  console.log(`persona and prompt: ${messageTokens} tokens (pack: ${turn.pack.packs.map((p) => p.name).join(', ') || 'none'}); ${offered.length} tools offered: ${toolTokens} tokens`);
  verdict('"hello" under coder', `${total} input tokens (target ≤ ${TARGET_TOKENS})`, total <= TARGET_TOKENS);
  finish();
}

void main();
