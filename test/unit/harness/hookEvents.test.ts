/** SessionStart, UserPromptSubmit, Stop and permissionRequest through handleHook, in each agent's format. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { readEvents } from '../../../src/core/base/events/read';
import { handleHook } from '../../../src/core/integrations/hooks/handle';
import { parseHookInput } from '../../../src/core/integrations/hooks/input';
import { denyReason, makeEnv } from './helpers';

const FAILING_CHECK = '[[check]]\nname = "tests"\nrun = "node -e \\"process.exit(fs.existsSync(\'fixed\') ? 0 : 1)\\""\n'.replace('fs.existsSync', 'require(\'fs\').existsSync');

describe('SessionStart', () => {
  it('adds the role, its limits and the budget line as context', async () => {
    const env = makeEnv();
    const { json } = await env.hook('SessionStart', { hook_event_name: 'SessionStart', session_id: 's1', source: 'new', model: 'gpt-4o' });
    const out = json.hookSpecificOutput as Record<string, string>;
    assert.equal(out.hookEventName, 'SessionStart');
    assert.match(out.additionalContext, /role coder/);
    assert.match(out.additionalContext, /200000 context tokens, 100 shell calls, \$5\.00/);
    assert.match(out.additionalContext, /Budget\[coder\]: tokens 0\/200000 \(0%\)/);
    assert.equal(readEvents(env.harness.stateDir, { types: ['AgentSession'] }).events[0]?.agentSession, 's1');
  });
});

describe('UserPromptSubmit', () => {
  it('records the prompt\'s size, never its text', async () => {
    const env = makeEnv();
    const answer = await env.hook('UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: 'my secret plan\nline two' });
    assert.equal(answer.stdout, '{}');
    const [e] = readEvents(env.harness.stateDir, { types: ['PromptSubmitted'] }).events;
    assert.equal(e?.chars, 23);
    assert.equal(e?.lines, 2);
    assert.equal(fs.readFileSync(`${env.harness.stateDir}/events.jsonl`, 'utf8').includes('secret plan'), false);
  });
});

describe('Stop', () => {
  it('without acceptance checks the agent may stop', async () => {
    const env = makeEnv();
    assert.equal((await env.hook('Stop', { hook_event_name: 'Stop', session_id: 's', stop_hook_active: false })).stdout, '{}');
  });

  it('blocks while the checks fail, at most maxStopBlocks times in a row, and lets go once they pass', async () => {
    const env = makeEnv({ files: { '.alfred/checks.toml': FAILING_CHECK } });
    const stop = async (active: boolean) => {
      const input = parseHookInput(JSON.stringify({ cwd: env.ws, hook_event_name: 'Stop', session_id: 'agent-1', stop_hook_active: active }), 'Stop', env.ws);
      return JSON.parse((await handleHook(env.harness, 'Stop', input, { maxStopBlocks: 2 })).stdout) as Record<string, unknown>;
    };
    const first = await stop(false);
    assert.equal(first.decision, 'block');
    assert.equal((first.hookSpecificOutput as Record<string, unknown>).decision, 'block');
    assert.match(String(first.reason), /continuation 1 of 2/);
    assert.equal((await stop(true)).decision, 'block');
    const third = await stop(true);
    assert.equal(third.decision, undefined, 'after two forced continuations the agent may stop');
    assert.match(String(third.systemMessage), /still fail after 2 forced continuations/);
    // A fresh stop (not a continuation) counts from zero again; once fixed, it is accepted.
    assert.equal((await stop(false)).decision, 'block');
    env.write('fixed', 'yes');
    const done = await stop(true);
    assert.deepEqual(done, {}, 'passing checks let the agent stop without a warning');
    const decisions = readEvents(env.harness.stateDir, { types: ['StopChecked'] }).events.map((e) => e.decision);
    assert.deepEqual(decisions, ['block', 'block', 'allow-after-limit', 'block', 'allow']);
  });
});

describe('format follows the input', () => {
  it('VS Code running a Copilot CLI hook file (camelCase event) gets the VS Code answer', async () => {
    const env = makeEnv({ env: { ALFRED_ROLE: 'reviewer' } });
    const input = parseHookInput(JSON.stringify({ cwd: env.ws, hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command: 'ls' } }), 'preToolUse', env.ws);
    const json = JSON.parse((await handleHook(env.harness, 'preToolUse', input)).stdout) as Record<string, unknown>;
    assert.match(denyReason(json) ?? '', /reviewer/);
  });

  it('the Copilot CLI (camelCase input) gets the top-level answer', async () => {
    const env = makeEnv({ env: { ALFRED_ROLE: 'reviewer' } });
    const input = parseHookInput(JSON.stringify({ cwd: env.ws, toolName: 'bash', toolArgs: '{"command":"ls"}' }), 'preToolUse', env.ws);
    const json = JSON.parse((await handleHook(env.harness, 'preToolUse', input)).stdout) as Record<string, unknown>;
    assert.equal(json.permissionDecision, 'deny');
  });
});

describe('permissionRequest (Copilot CLI)', () => {
  it('refuses what the gate refuses, charging nothing; otherwise leaves the decision to the user', async () => {
    const env = makeEnv({ env: { ALFRED_ROLE: 'reviewer' } });
    const ask = async (toolName: string) => {
      const input = parseHookInput(JSON.stringify({ cwd: env.ws, toolName, toolArgs: { command: 'ls', path: 'a.txt' } }), 'permissionRequest', env.ws);
      return JSON.parse((await handleHook(env.harness, 'permissionRequest', input)).stdout) as Record<string, unknown>;
    };
    const denied = await ask('bash');
    assert.equal(denied.behavior, 'deny');
    assert.match(String(denied.message), /reviewer/);
    assert.deepEqual(await ask('view'), {});
    assert.equal(readEvents(env.harness.stateDir, { types: ['ToolCall'] }).events.length, 0, 'nothing charged or logged');
  });
});
