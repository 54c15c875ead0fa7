import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { toolCall } from '../../../../src/core/rules/policy/toolCall';
import { appendTrace, exportTraces, readTraces, traceFiles, type TraceEntry } from '../../../../src/core/usage/traces/log';
import { makeEnv } from '../../harness/helpers';

describe('traces', () => {
  it('each governed call leaves a decision and a result trace: model, tool, latency, tokens apart from cost, version; secrets redacted', async () => {
    const env = makeEnv({ version: '9.9.9', pricing: () => ({ model: 'gpt-4o' }), files: { '.env': 'DB_PASSWORD=correct-horse-battery\n' } });
    const h = env.harness;
    await h.authorize(toolCall('ctx_shell', { command: 'psql --password=correct-horse-battery' }), { source: 'tool' });
    await h.chargeOutput(toolCall('ctx_shell'), 'hello world', { source: 'tool' });
    const { entries } = readTraces(h.stateDir);
    const [decision, result] = entries;
    assert.equal(decision!.kind, 'decision');
    assert.equal(decision!.decision, 'allow');
    assert.equal(decision!.model, 'gpt-4o');
    assert.equal(decision!.harness, '9.9.9');
    assert.equal(decision!.role, 'coder');
    assert.ok(typeof decision!.latencyMs === 'number');
    assert.doesNotMatch(JSON.stringify(decision), /correct-horse-battery/);
    assert.equal(result!.kind, 'result');
    assert.ok(result!.tokens!.input > 0);
    assert.equal(result!.tokens!.output, 0);
    assert.equal(result!.tokens!.cached, 0);
    assert.ok(result!.costUsd! > 0);
    assert.equal(result!.costEstimated, false);
    assert.ok(typeof result!.latencyMs === 'number', 'paired with its decision');
  });

  it('with traceLater (the hook server), the call returns before its traces are written, and they keep the call\'s times', async () => {
    const later: Array<() => Promise<void>> = [];
    const env = makeEnv({ traceLater: (write) => later.push(write) });
    const h = env.harness;
    const decidedBy = Date.now();
    await h.authorize(toolCall('ctx_shell', { command: 'ls' }), { source: 'hook:PreToolUse' });
    await h.chargeOutput(toolCall('ctx_shell'), 'a.txt', { source: 'hook:PostToolUse' });
    const chargedBy = Date.now();
    assert.equal(later.length, 2);
    assert.deepEqual(readTraces(h.stateDir).entries, [], 'nothing written before the answer');
    await new Promise((resolve) => setTimeout(resolve, 30));
    for (const write of later) await write();
    const [decision, result] = readTraces(h.stateDir).entries;
    assert.deepEqual([decision!.kind, decision!.decision, result!.kind], ['decision', 'allow', 'result']);
    // Stamped when the call was decided and charged, not 30 ms later when written.
    assert.ok(Date.parse(decision!.ts) >= decidedBy && Date.parse(result!.ts) <= chargedBy, `${decision!.ts} ${result!.ts}`);
    assert.ok(decision!.latencyMs! < 30 && result!.latencyMs! < 30, `${decision!.latencyMs} ${result!.latencyMs}`);
  });

  it('a refusal is traced with its code and reason', async () => {
    const env = makeEnv({ files: { '.alfred/roles/ro.toml': '[role]\nname = "ro"\nshell_policy = "deny"\n[limits]\nmax_context_tokens = 10\nmax_shell_invocations = 0\nmax_cost_usd = 1\n' } });
    await env.harness.switchRole('ro', 'test');
    await env.harness.authorize(toolCall('run_in_terminal', { command: 'ls' }), { source: 'hook:PreToolUse' });
    const last = readTraces(env.harness.stateDir).entries.at(-1)!;
    assert.equal(last.decision, 'deny');
    assert.equal(last.code, 'shell-denied');
    assert.equal(last.source, 'hook:PreToolUse');
  });

  it('rotates by size and exports every file, oldest first, skipping corrupt lines', async () => {
    const env = makeEnv();
    const dir = env.harness.stateDir;
    const entry = (n: number): TraceEntry => ({ v: 1, ts: new Date(n).toISOString(), kind: 'model', source: 'test', model: null, role: 'coder', session: null, latencyMs: n, harness: 't' });
    for (let i = 0; i < 30; i++) await appendTrace(dir, entry(i), 1000);
    assert.ok(traceFiles(dir).length > 1, 'rotated');
    assert.ok(traceFiles(dir).length <= 4, 'old files dropped');
    fs.appendFileSync(path.join(dir, 'traces.jsonl'), 'garbage\n');
    const out = path.join(env.root, 'export.jsonl');
    const { count, corrupt } = exportTraces(dir, out);
    const exported = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as TraceEntry);
    assert.equal(exported.length, count);
    assert.equal(corrupt.length, 1);
    const latencies = exported.map((e) => e.latencyMs as number);
    assert.deepEqual(latencies, [...latencies].sort((a, b) => a - b), 'oldest first');
    assert.equal(latencies.at(-1), 29);
  });
});
