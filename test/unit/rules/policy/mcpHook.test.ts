/** The [mcp] rules through the agents' hooks and the governed call: "ask" reaches each path as that path can say it. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { governedCall } from '../../../../src/core/harness/governedCall';
import { latestAuditPath } from '../../../../src/core/rules/policy/mcpAuditFile';
import { toolCall } from '../../../../src/core/rules/policy/toolCall';
import { makeEnv, roleFile } from '../../harness/helpers';

const CAREFUL = roleFile('careful', '[tools]\ndenied = ["@mcp:evil"]\n[mcp]\nunaudited = "ask"\ndead = "deny"');

function env() {
  const e = makeEnv({ env: { ALFRED_ROLE: 'careful' }, files: { '.alfred/roles/careful.toml': CAREFUL } });
  const latest = latestAuditPath(e.harness.stateDir);
  fs.mkdirSync(path.dirname(latest), { recursive: true });
  const audited = (name: string, verdict: string) => ({
    server: { name, source: 'workspace', configPath: '', command: 'npx', args: [] }, status: 'audited', inUseIsAudited: true,
    installScripts: {}, hosts: [], binaries: [], dependencyCount: 0, curation: { verdict }, auditedAt: '2026-12-01T00:00:00Z',
  });
  fs.writeFileSync(latest, JSON.stringify({ at: '2026-12-01T00:00:00Z', audits: [audited('github', 'alive'), audited('old', 'dead')] }));
  return e;
}

describe('[mcp] through PreToolUse', () => {
  it('asks in VS Code\'s and Claude Code\'s format for an unaudited server', async () => {
    const e = env();
    for (const tool of ['mcp_fresh_run', 'mcp__fresh__run']) {
      const answer = await e.hook('PreToolUse', { tool_name: tool, tool_input: {} });
      assert.deepEqual(answer.json, { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask',
        permissionDecisionReason: `Alfred (role careful): Tool ${tool} belongs to MCP server "fresh": it is not in Alfred's latest MCP audit. Role careful asks the user before the tools of unaudited MCP servers run ([mcp] unaudited = "ask").` } }, tool);
    }
  });

  it('refuses in Codex, whose hooks do not ask', async () => {
    const answer = await env().hook('PreToolUse', { hook_event_name: 'PreToolUse', turn_id: 't1', tool_name: 'mcp__fresh__run', tool_input: {} });
    const out = answer.json.hookSpecificOutput as Record<string, unknown>;
    assert.equal(out.permissionDecision, 'deny');
    assert.match(String(out.permissionDecisionReason), /This agent's hooks cannot ask the user, so Alfred refuses it\.$/);
  });

  it('refuses in the Copilot CLI, which cannot ask', async () => {
    const answer = await env().hook('preToolUse', { toolName: 'fresh-run', toolArgs: '{}' });
    assert.equal(answer.json.permissionDecision, 'deny');
    assert.match(String(answer.json.permissionDecisionReason), /asks the user .* This agent's hooks cannot ask the user, so Alfred refuses it\.$/);
  });

  it('lets an audited server through without a word, refuses a dead one and a denied one', async () => {
    const e = env();
    assert.equal((await e.hook('PreToolUse', { tool_name: 'mcp_github_list', tool_input: {} })).stdout, '{}');
    const dead = await e.hook('PreToolUse', { tool_name: 'mcp__old__x', tool_input: {} });
    assert.equal((dead.json.hookSpecificOutput as Record<string, unknown>).permissionDecision, 'deny');
    const evil = await e.hook('PreToolUse', { tool_name: 'evil-x', tool_input: {} });
    assert.match(String((evil.json.hookSpecificOutput as Record<string, unknown>).permissionDecisionReason), /by the pattern "@mcp:evil"/);
  });
});

describe('[mcp] ask through the governed call (@alfred, LM tools)', () => {
  const run = async () => ({ output: 'ran', value: 1 });

  it('runs only when the user confirms; a path that cannot ask refuses', async () => {
    const e = env();
    const call = toolCall('mcp_fresh_run', {});
    const asked: string[] = [];
    const yes = await governedCall(e.harness, call, { source: 'chat' }, run, async (reason) => { asked.push(reason); return true; });
    assert.equal(yes.kind, 'ran');
    assert.equal(asked.length, 1);
    assert.match(asked[0] ?? '', /^Tool mcp_fresh_run belongs to MCP server "fresh"/);
    const no = await governedCall(e.harness, call, { source: 'chat' }, run, async () => false);
    assert.equal(no.kind, 'refused');
    assert.equal(no.kind === 'refused' && no.refusal.details.code, 'not-confirmed');
    assert.match(no.kind === 'refused' ? no.refusal.message : '', /The user did not confirm it\.$/);
    const nobody = await governedCall(e.harness, call, { source: 'tool' }, run);
    assert.match(nobody.kind === 'refused' ? nobody.refusal.message : '', /Nobody can be asked here, so it is refused\.$/);
    // The log says each unconfirmed call did not run, beside the gate's ToolCall that awaited the answer.
    const notRun = e.harness.events({ tail: 20 }).events.filter((ev) => ev.type === 'PolicyViolation');
    assert.deepEqual(notRun.map((ev) => [ev.tool, ev.code, ev.source]), [['mcp_fresh_run', 'not-confirmed', 'chat'], ['mcp_fresh_run', 'not-confirmed', 'tool']]);
    const audited = await governedCall(e.harness, toolCall('mcp_github_x', {}), { source: 'tool' }, run);
    assert.equal(audited.kind, 'ran', 'no question for an audited server');
  });
});
