import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { WritePlan } from '../../../src/core/base/config/types';
import { updateChatState } from '../../../src/core/turn/chatState';
import { resetModel, scriptedModel, setSetting } from '../chat';
import { alfred, harness, workspaceFile } from '../helpers';

const PAIR = [{ name: 'pair', chain: [{ vendor: 'scripted', id: 'scripted-a' }, { vendor: 'scripted', id: 'scripted-b' }] }];
const AGENTS = '.github/agents';
const reviewerFile = () => workspaceFile(`${AGENTS}/alfred-reviewer.agent.md`);
const coderFile = () => workspaceFile(`${AGENTS}/alfred-coder.agent.md`);

/** Runs `fn` with the confirmation answered by `answer`, recording the plans shown. */
async function withReview<T>(answer: boolean, fn: (shown: WritePlan[]) => Promise<T>): Promise<T> {
  const api = await alfred();
  const original = api.confirmations.review;
  const shown: WritePlan[] = [];
  api.confirmations.review = async (_host, plan) => { shown.push(plan); return answer; };
  try {
    return await fn(shown);
  } finally {
    api.confirmations.review = original;
  }
}

const exportAgents = async (names: unknown) => vscode.commands.executeCommand<string[] | undefined>('alfred.exportAgents', names);

/** The `tools:` or `model:` list of a written agent file. */
function listOf(text: string, key: string): string[] | undefined {
  const header = text.split('\n---\n')[0]!;
  const m = new RegExp(`^${key}:\\n((?:  - .*\\n?)+)`, 'm').exec(header);
  return m ? m[1]!.trimEnd().split('\n').map((l) => JSON.parse(l.slice(4)) as string) : undefined;
}

/** The reference names agent files use for the tools VS Code has now. */
function referenceNames(): Map<string, string> {
  return new Map(vscode.lm.tools.flatMap((t) => {
    const ref = (t as { fullReferenceName?: unknown }).fullReferenceName;
    return typeof ref === 'string' ? [[t.name, ref] as [string, string]] : [];
  }));
}

suite('Export Roles as Copilot Agents', () => {
  setup(async () => {
    await resetModel();
    const h = await harness();
    await updateChatState(h.stateDir, (s) => { delete s.profile; });
    fs.rmSync(workspaceFile(AGENTS), { recursive: true, force: true });
  });
  suiteTeardown(async () => {
    await setSetting('profiles', undefined);
    fs.rmSync(workspaceFile(AGENTS), { recursive: true, force: true });
  });

  test('writes one agent file per role in one confirmed plan: tools by policy, models of the active profile', async () => {
    await setSetting('profiles', PAIR);
    await scriptedModel('scripted-a');
    await scriptedModel('scripted-b');
    await updateChatState((await harness()).stateDir, (s) => { s.profile = 'pair'; });
    const written = await withReview(true, async (shown) => {
      const paths = await exportAgents(['reviewer', 'coder']);
      assert.equal(shown.length, 1, 'one plan with every file');
      assert.deepEqual(shown[0]!.files.map((f) => f.label).sort(), [`${AGENTS}/alfred-coder.agent.md`, `${AGENTS}/alfred-reviewer.agent.md`]);
      return paths;
    });
    assert.deepEqual(written, [reviewerFile(), coderFile()]);

    const refs = referenceNames();
    const reviewer = fs.readFileSync(reviewerFile(), 'utf8');
    assert.match(reviewer, /^---\nname: "alfred-reviewer"\ndescription: "Read-only code review: reads and searches, never edits or runs a shell\. Governed by Alfred/);
    const reviewerTools = listOf(reviewer, 'tools')!;
    for (const name of ['ctx_read', 'ctx_search', 'ctx_tree', 'ctx_session', 'terminal_selection']) {
      assert.ok(reviewerTools.includes(refs.get(name)!), `reviewer gets ${name} (${refs.get(name)}): ${reviewerTools.join(', ')}`);
    }
    for (const name of ['ctx_edit', 'ctx_shell', 'run_in_terminal', 'create_and_run_task', 'send_to_terminal', 'scripted_echo']) {
      if (refs.has(name)) assert.equal(reviewerTools.includes(refs.get(name)!), false, `reviewer must not get ${name}`);
    }
    assert.deepEqual(listOf(reviewer, 'model'), ['Scripted A (scripted)', 'Scripted B (scripted)']);
    assert.match(reviewer, /You may not run shell commands/);
    assert.match(reviewer, /Alfred enforces them outside the model/);

    const coderTools = listOf(fs.readFileSync(coderFile(), 'utf8'), 'tools')!;
    assert.deepEqual(coderTools, [...new Set(refs.values())].sort(), 'the coder gets every tool an agent file can name');
    assert.ok(coderTools.includes(refs.get('run_in_terminal')!));

    // Nothing changed: no confirmation, nothing written again.
    await withReview(true, async (shown) => {
      assert.deepEqual(await exportAgents('reviewer'), []);
      assert.equal(shown.length, 0);
    });
  });

  test('without an active profile the files have no model key; cancelling writes nothing', async () => {
    assert.deepEqual(await withReview(false, () => exportAgents(['reviewer'])), []);
    assert.equal(fs.existsSync(reviewerFile()), false, 'cancelled: nothing written');
    await withReview(true, () => exportAgents(['security-auditor']));
    const text = fs.readFileSync(workspaceFile(`${AGENTS}/alfred-security-auditor.agent.md`), 'utf8');
    assert.equal(listOf(text, 'model'), undefined);
    assert.equal(/^model:/m.test(text), false);
    const refs = referenceNames();
    // The project role allows Alfred's read tools by name only.
    assert.deepEqual(listOf(text, 'tools'), ['ctx_read', 'ctx_search', 'ctx_session', 'ctx_tree'].map((n) => refs.get(n)!).sort());
    const event = (await harness()).events({ types: ['ConfigWritten'] }).events.at(-1)!;
    assert.equal(event.reason, 'export roles as Copilot agents');
  });

  test('an unknown role name writes nothing', async () => {
    assert.equal(await withReview(true, () => exportAgents(['no-such-role'])), undefined);
    assert.equal(fs.existsSync(workspaceFile(AGENTS)), false);
  });
});
