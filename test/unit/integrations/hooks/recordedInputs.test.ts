/**
 * Alfred's reading of hook inputs, on inputs recorded from the real clients (test/fixtures/agents,
 * written by test/support/agents/recordInputs.ts from Claude Code, Codex, the Copilot CLI and Gemini
 * CLI at their pinned versions): the event, the agent, the tool, its category, and the command or
 * file the model asked for, as the gate will see them.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { canonicalHookEvent } from '../../../../src/core/integrations/hooks/events';
import { parseHookInput } from '../../../../src/core/integrations/hooks/input';
import { toolCall } from '../../../../src/core/rules/policy/toolCall';
import type { RecordedHook } from '../../../support/agents/recordInputs';

const FIXTURES = path.resolve(__dirname, '../../../fixtures/agents');
const AGENT_OF: Record<string, string | undefined> = { 'claude-code': 'claude-code', codex: 'codex', 'gemini-cli': 'gemini' };

const folders = fs.readdirSync(FIXTURES).filter((d) => fs.statSync(path.join(FIXTURES, d)).isDirectory()).sort();

it('every pinned client has recorded inputs', () => {
  assert.deepEqual(folders.map((f) => f.replace(/-\d[\w.-]*$/, '')), ['claude-code', 'codex', 'copilot-cli', 'gemini-cli']);
});

for (const folder of folders) {
  describe(`inputs recorded from ${folder}`, () => {
    const files = fs.readdirSync(path.join(FIXTURES, folder)).filter((f) => f.endsWith('.json')).sort();
    const read = (f: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, folder, f), 'utf8')) as RecordedHook;

    it('has the tool events of a shell command, a file written and a refusal', () => {
      const asked = files.map(read).filter((r) => r.asked).map((r) => `${r.asked!.category}${r.asked!.refused ? ' refused' : ''}`).sort();
      assert.deepEqual(asked, ['edit', 'shell', 'shell refused']);
    });

    for (const file of files) {
      const recorded = read(file);
      it(`${file}: the event, the agent and the tool are read as sent`, () => {
        assert.ok(canonicalHookEvent(recorded.event), `alfred hook answers ${recorded.event}`);
        const input = parseHookInput(JSON.stringify(recorded.input), recorded.event, '/fallback');
        assert.equal(input.cwd, '/workspace');
        assert.equal(input.tool, (recorded.input.tool_name ?? recorded.input.toolName) as string | undefined);
        // Tool events carry what tells the agents apart; no event may be taken for another agent's.
        const expected = AGENT_OF[recorded.client];
        if (input.tool !== undefined) assert.equal(input.agent, expected);
        else assert.ok(input.agent === undefined || input.agent === expected, `${recorded.client} taken for ${input.agent}`);
        assert.ok(input.sessionId, 'a session id');
      });
      if (!recorded.asked) continue;
      const asked = recorded.asked;
      it(`${file}: the ${asked.category} call is read as the model made it`, () => {
        const input = parseHookInput(JSON.stringify(recorded.input), recorded.event, '/fallback');
        const call = toolCall(input.tool, input.toolInput);
        assert.equal(call.category, asked.category);
        if (asked.command !== undefined) assert.equal(call.command, asked.command);
        if (asked.path !== undefined) assert.deepEqual(call.paths, [asked.path]);
      });
      if (asked.refused) {
        it(`${file}: the refusal was answered in the client's shape, with Alfred's reason`, () => {
          assert.equal(recorded.exitCode, 0);
          assert.match(JSON.stringify(recorded.answer), /"permissionDecision":"deny"|"decision":"deny"/);
          assert.match(JSON.stringify(recorded.answer), /Alfred \(role coder\): /);
        });
      }
    }
  });
}
