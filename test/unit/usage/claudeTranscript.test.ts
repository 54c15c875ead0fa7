/**
 * The Claude Code transcript reader: one usage record per API message, exactly once, however the
 * appended lines are chunked and whether or not the state is persisted between calls.
 *
 * The fixtures are modelled on real transcripts as these public sources describe
 * them: the sample assistant line of "Claude Code Token Metrics: Technical
 * Appendix"; anthropics/claude-code #22686, #22671, #21971, #25941 (one line per content block sharing
 * `message.id`, placeholder `output_tokens` before the `stop_reason` line, which is sometimes never
 * written); ccstatusline#549 (byte-identical copies); tokscale#563 (lines without `requestId`); public
 * 2.1.x transcript lines for the field order, `agentId`, sidechain user lines and `toolUseResult`.
 * - claude-transcript.jsonl: a main session. Message A (thinking, text, tool_use) ends with
 *   `stop_reason: "tool_use"`; message B's final line is missing, so B completes when C starts; a
 *   sub-agent's two messages are written inline as sidechain lines without an `agentId` (the older
 *   layout); a `<synthetic>` API-error line; a torn (corrupt) line; D is the last message, still
 *   streaming, so only `flush()` emits it; D also has no `requestId`.
 * - claude-transcript-subagent.jsonl: a sub-agent's own file (`<sessionId>/subagents/agent-a7c31e9.jsonl`).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ClaudeTranscriptReader, type TranscriptUsage } from '../../../src/core/usage/claudeTranscript';

const FIXTURES = path.resolve(import.meta.dirname, '..', '..', 'fixtures', 'usage');
const MAIN = fs.readFileSync(path.join(FIXTURES, 'claude-transcript.jsonl'), 'utf8');
const SUBAGENT = fs.readFileSync(path.join(FIXTURES, 'claude-transcript-subagent.jsonl'), 'utf8');
const SESSION = '5c1f0e2a-7b3d-4e8a-9f61-2d4b8c7a9e10';
const SONNET = 'claude-sonnet-4-5-20250929';
const HAIKU = 'claude-haiku-4-5-20251001';

const A: TranscriptUsage = {
  key: 'claude:msg_01Lq8CkZ3vN6xW2pHf4TgR7a', model: SONNET,
  inputTokens: 17613, cachedInputTokens: 12400, cacheCreationInputTokens: 5210,
  cacheCreation: { ephemeral5mInputTokens: 0, ephemeral1hInputTokens: 5210 },
  outputTokens: 231, sessionId: SESSION, timestamp: '2026-03-02T10:00:06.900Z',
};
/** Superseded by C: the larger of the two placeholder counts (1, 4). */
const B: TranscriptUsage = {
  key: 'claude:msg_01Bv7NdQ2sJ9kX4mYc6HwP3e', model: SONNET,
  inputTokens: 18501, cachedInputTokens: 17610, cacheCreationInputTokens: 890,
  cacheCreation: { ephemeral5mInputTokens: 0, ephemeral1hInputTokens: 890 },
  outputTokens: 4, sessionId: SESSION, timestamp: '2026-03-02T10:00:10.800Z',
};
const S1: TranscriptUsage = {
  key: 'claude:msg_01Sd4HqW8eR2tY6uIo9pAs1D', model: HAIKU,
  inputTokens: 2154, cachedInputTokens: 0, cacheCreationInputTokens: 2150,
  cacheCreation: { ephemeral5mInputTokens: 2150, ephemeral1hInputTokens: 0 },
  outputTokens: 97, sessionId: SESSION, subagent: true, timestamp: '2026-03-02T10:00:13.000Z',
};
const S2: TranscriptUsage = {
  key: 'claude:msg_01Sf6JrX0tU4iO8pAs2DfG5h', model: HAIKU,
  inputTokens: 2566, cachedInputTokens: 2150, cacheCreationInputTokens: 410,
  cacheCreation: { ephemeral5mInputTokens: 410, ephemeral1hInputTokens: 0 },
  outputTokens: 140, sessionId: SESSION, subagent: true, timestamp: '2026-03-02T10:00:16.200Z',
};
const C: TranscriptUsage = {
  key: 'claude:msg_01Cw9PeR4uT6yU8iOp0aSd2F', model: SONNET,
  inputTokens: 19822, cachedInputTokens: 18500, cacheCreationInputTokens: 1320,
  cacheCreation: { ephemeral5mInputTokens: 0, ephemeral1hInputTokens: 1320 },
  outputTokens: 388, sessionId: SESSION, timestamp: '2026-03-02T10:01:05.100Z',
};
/** Flushed: its only line's placeholder is the best count there is. */
const D: TranscriptUsage = {
  key: 'claude:msg_01Dx1QfS6vW8zA0sDf2gHj4K', model: SONNET,
  inputTokens: 20585, cachedInputTokens: 19820, cacheCreationInputTokens: 760,
  cacheCreation: { ephemeral5mInputTokens: 0, ephemeral1hInputTokens: 760 },
  outputTokens: 7, sessionId: SESSION, timestamp: '2026-03-02T10:01:08.000Z',
};
const E: TranscriptUsage = {
  key: 'claude:msg_01Ea3KgT7yH1jL5nZx9cVb2N', model: HAIKU,
  inputTokens: 3059, cachedInputTokens: 0, cacheCreationInputTokens: 3050,
  cacheCreation: { ephemeral5mInputTokens: 3050, ephemeral1hInputTokens: 0 },
  outputTokens: 61, sessionId: SESSION, subagent: true, agentId: 'a7c31e9', timestamp: '2026-03-02T10:02:01.900Z',
};
const F: TranscriptUsage = {
  key: 'claude:msg_01Fb5LhU9zJ3kM7pXc1vBn4Q', model: HAIKU,
  inputTokens: 3233, cachedInputTokens: 3050, cacheCreationInputTokens: 180,
  cacheCreation: { ephemeral5mInputTokens: 180, ephemeral1hInputTokens: 0 },
  outputTokens: 212, sessionId: SESSION, subagent: true, agentId: 'a7c31e9', timestamp: '2026-03-02T10:02:04.600Z',
};
/** Emitted as they complete: the sub-agent's while B waits, B when C starts, D at flush. */
const MAIN_RECORDS = [A, S1, S2, B, C, D];

/** The fixture's lines, each with its newline, as the tail hands them over. */
const linesOf = (text: string): string[] => text.split('\n').filter((l) => l !== '').map((l) => `${l}\n`);

/** Feeds `chunks` to readers that are each restored from the previous one's persisted state, then flushes. */
function readPersisted(chunks: string[]): { records: TranscriptUsage[]; corrupt: number } {
  const records: TranscriptUsage[] = [];
  let saved: unknown = undefined;
  for (const chunk of chunks) {
    const reader = saved === undefined ? new ClaudeTranscriptReader() : ClaudeTranscriptReader.fromJSON(saved);
    records.push(...reader.read(chunk));
    saved = JSON.parse(JSON.stringify(reader));
  }
  const last = ClaudeTranscriptReader.fromJSON(saved);
  records.push(...last.flush());
  return { records, corrupt: last.corruptLines };
}

const line = (o: object): string => `${JSON.stringify(o)}\n`;
/** A minimal assistant line in the transcript's shape. */
function assistant(o: {
  id?: string; requestId?: string; uuid?: string; model?: string; stop?: string | null;
  input?: number; cacheRead?: number; cacheCreation?: number; output: number;
  sidechain?: boolean; agentId?: string; ts?: string;
}): string {
  return line({
    isSidechain: o.sidechain ?? false, sessionId: 's1', ...(o.agentId ? { agentId: o.agentId } : {}),
    message: {
      model: o.model ?? SONNET, ...(o.id ? { id: o.id } : {}), type: 'message', role: 'assistant', content: [],
      stop_reason: o.stop ?? null, stop_sequence: null,
      usage: { input_tokens: o.input ?? 10, cache_creation_input_tokens: o.cacheCreation ?? 0, cache_read_input_tokens: o.cacheRead ?? 0, output_tokens: o.output },
    },
    ...(o.requestId ? { requestId: o.requestId } : {}), type: 'assistant', ...(o.uuid ? { uuid: o.uuid } : {}),
    timestamp: o.ts ?? '2026-03-02T11:00:00.000Z',
  });
}
const keys = (records: TranscriptUsage[]) => records.map((r) => r.key);

test('the main transcript read at once: A, the sub-agent\'s two, B when C starts, C; D only at flush; one corrupt line', () => {
  const reader = new ClaudeTranscriptReader();
  assert.deepEqual(reader.read(MAIN), [A, S1, S2, B, C]);
  assert.equal(reader.corruptLines, 1);
  assert.deepEqual(reader.flush(), [D]);
  assert.deepEqual(reader.flush(), []);
  assert.deepEqual(reader.read(MAIN), [], 'every message of it was already emitted');
});

test('a sub-agent file gives records marked subagent with its agentId', () => {
  const reader = new ClaudeTranscriptReader();
  assert.deepEqual(reader.read(SUBAGENT), [E, F]);
  assert.deepEqual(reader.flush(), []);
  assert.equal(reader.corruptLines, 0);
});

test('the same records exactly once however the lines are chunked, with the state persisted between calls', () => {
  const lines = linesOf(MAIN);
  assert.equal(lines.length, 22);
  const expected = { records: MAIN_RECORDS, corrupt: 1 };
  assert.deepEqual(readPersisted([MAIN]), expected, 'all at once');
  assert.deepEqual(readPersisted(lines), expected, 'line by line');
  for (let cut = 1; cut < lines.length; cut++) {
    assert.deepEqual(readPersisted([lines.slice(0, cut).join(''), lines.slice(cut).join('')]), expected, `split before line ${cut + 1}`);
  }
  for (let size = 2; size <= 7; size++) {
    const chunks: string[] = [];
    for (let i = 0; i < lines.length; i += size) chunks.push(lines.slice(i, i + size).join(''));
    assert.deepEqual(readPersisted(chunks), expected, `chunks of ${size} lines`);
  }
  // Uneven chunks, some empty (a hook that found nothing new), one without its last newline.
  const uneven = [lines.slice(0, 3).join(''), '', lines.slice(3, 4).join(''), lines.slice(4, 13).join(''), '\n', lines.slice(13).join('').trimEnd()];
  assert.deepEqual(readPersisted(uneven), expected, 'uneven chunks');
});

test('one reader kept in memory across calls gives the same records as a restored one', () => {
  const reader = new ClaudeTranscriptReader();
  const records = linesOf(MAIN).flatMap((l) => reader.read(l));
  assert.deepEqual([...records, ...reader.flush()], MAIN_RECORDS);
});

test('the state is plain JSON and restores pending messages, emitted keys and the corrupt count', () => {
  const reader = new ClaudeTranscriptReader();
  const lines = linesOf(MAIN);
  reader.read(lines.slice(0, 8).join('') + 'not json\n');
  const state = JSON.parse(JSON.stringify(reader));
  assert.deepEqual(state, {
    v: 1,
    pending: [{
      key: 'claude:msg_01Bv7NdQ2sJ9kX4mYc6HwP3e', chain: 'main', model: SONNET,
      usage: { input: 1, cacheRead: 17610, cacheCreation: 890, output: 4, split: { ephemeral5mInputTokens: 0, ephemeral1hInputTokens: 890 } },
      maxOutput: 4, sessionId: SESSION, timestamp: '2026-03-02T10:00:10.800Z',
    }],
    done: ['claude:msg_01Lq8CkZ3vN6xW2pHf4TgR7a'],
    corruptLines: 1,
    // B is still streaming: the turn is open.
    turnOpen: true,
  });
  const restored = ClaudeTranscriptReader.fromJSON(state);
  assert.deepEqual(restored.toJSON(), state);
  assert.equal(restored.corruptLines, 1);
  assert.deepEqual(restored.read(lines[4]!), [], 'a late copy of A\'s final line is not counted again');
  assert.deepEqual(restored.flush(), [B]);
});

test('a state that is not one gives a fresh reader, never an exception', () => {
  const bad: unknown[] = [
    undefined, null, 42, 'state', [], {}, { v: 2, pending: [], done: [], corruptLines: 0 },
    { v: 1, pending: {}, done: [], corruptLines: 0 },
    { v: 1, pending: [], done: [7], corruptLines: 0 },
    { v: 1, pending: [], done: [], corruptLines: -1 },
    { v: 1, pending: [{ key: 'claude:x', chain: 'main', model: 'm', usage: { input: 1, cacheRead: 0, cacheCreation: 0 }, maxOutput: 0 }], done: [], corruptLines: 0 },
    { v: 1, pending: [{ key: 'claude:x', chain: 5, model: 'm', usage: { input: 1, cacheRead: 0, cacheCreation: 0, output: 0 }, maxOutput: 0 }], done: [], corruptLines: 0 },
  ];
  for (const state of bad) {
    const reader = ClaudeTranscriptReader.fromJSON(state);
    assert.deepEqual(reader.toJSON(), { v: 1, pending: [], done: [], corruptLines: 0 }, JSON.stringify(state));
  }
});

test('corrupt lines are skipped and counted, never thrown; other line types are not corrupt', () => {
  const reader = new ClaudeTranscriptReader();
  const text = [
    '{"type":"assistant","message":{"id":"msg_cut', // torn write
    '[1,2]', 'null', '42', '"text"', '{]',
    '{"type":"assistant"}', // no message
    '{"type":"assistant","message":{"id":"msg_x","model":"m"}}', // no usage
    '{"type":"assistant","message":{"id":"msg_y","usage":{"output_tokens":1}}}', // no model
    '{"type":"assistant","message":{"model":"m","usage":{"output_tokens":1}}}', // nothing to key it by
    '{"type":"user","message":{"role":"user","content":"hi"}}',
    '{"type":"summary","summary":"x","leafUuid":"u"}',
    '{"type":"progress","data":{"type":"hook_progress"}}',
    '', '   ', '\r',
  ].join('\n');
  assert.deepEqual(reader.read(text), []);
  assert.equal(reader.corruptLines, 10);
  assert.deepEqual(reader.flush(), []);
  assert.doesNotThrow(() => reader.read(undefined as unknown as string));
});

test('token fields that are missing, negative, fractional or not numbers count as 0 or are rounded', () => {
  const reader = new ClaudeTranscriptReader();
  const text = line({
    type: 'assistant', sessionId: 's1', timestamp: 't',
    message: { id: 'msg_odd', model: 'm', stop_reason: 'end_turn', usage: { input_tokens: '12', cache_read_input_tokens: -5, cache_creation_input_tokens: 2.6, output_tokens: 9.4, cache_creation: { ephemeral_5m_input_tokens: 3 } } },
  });
  assert.deepEqual(reader.read(text), [{
    key: 'claude:msg_odd', model: 'm', inputTokens: 3, cachedInputTokens: 0, cacheCreationInputTokens: 3,
    cacheCreation: { ephemeral5mInputTokens: 3, ephemeral1hInputTokens: 0 }, outputTokens: 9, sessionId: 's1', timestamp: 't',
  }]);
});

test('<synthetic> lines give no record and do not complete the message in progress', () => {
  const reader = new ClaudeTranscriptReader();
  const text = assistant({ id: 'msg_1', output: 3 })
    + assistant({ id: 'synthetic-uuid', model: '<synthetic>', stop: 'stop_sequence', input: 0, output: 0 });
  assert.deepEqual(reader.read(text), []);
  assert.deepEqual(keys(reader.flush()), ['claude:msg_1']);
});

test('the key falls back from message.id to requestId to the line uuid', () => {
  const reader = new ClaudeTranscriptReader();
  const text = assistant({ id: 'msg_1', requestId: 'req_1', uuid: 'u1', stop: 'end_turn', output: 1 })
    + assistant({ requestId: 'req_2', uuid: 'u2', stop: 'end_turn', output: 1 })
    + assistant({ uuid: 'u3', stop: 'end_turn', output: 1 });
  assert.deepEqual(keys(reader.read(text)), ['claude:msg_1', 'claude:req_2', 'claude:u3']);
});

test('lines of one message without message.id share their requestId and give one record', () => {
  const reader = new ClaudeTranscriptReader();
  const text = assistant({ requestId: 'req_9', uuid: 'u1', output: 2 }) + assistant({ requestId: 'req_9', uuid: 'u2', stop: 'tool_use', output: 55 });
  assert.deepEqual(reader.read(text).map((r) => [r.key, r.outputTokens]), [['claude:req_9', 55]]);
});

test('the final line\'s output count wins; without a final line, the largest count seen', () => {
  const reader = new ClaudeTranscriptReader();
  const final = assistant({ id: 'msg_1', output: 11 }) + assistant({ id: 'msg_1', output: 2 }) + assistant({ id: 'msg_1', stop: 'max_tokens', output: 8 });
  assert.deepEqual(reader.read(final).map((r) => r.outputTokens), [8]);
  const unfinished = assistant({ id: 'msg_2', output: 11 }) + assistant({ id: 'msg_2', output: 2 });
  assert.deepEqual(reader.read(unfinished), []);
  assert.deepEqual(reader.flush().map((r) => r.outputTokens), [11]);
});

test('byte-identical copies of a finished message count once', () => {
  const reader = new ClaudeTranscriptReader();
  const copy = assistant({ id: 'msg_1', requestId: 'req_1', stop: 'end_turn', output: 40 });
  assert.deepEqual(reader.read(copy + copy).map((r) => r.outputTokens), [40]);
  assert.deepEqual(reader.read(copy), []);
  assert.deepEqual(reader.flush(), []);
});

test('a new message completes the previous one on its own chain only', () => {
  const reader = new ClaudeTranscriptReader();
  const text = assistant({ id: 'msg_main1', output: 3 })
    + assistant({ id: 'msg_agentA1', sidechain: true, agentId: 'aaa', output: 5 })
    + assistant({ id: 'msg_agentB1', sidechain: true, agentId: 'bbb', output: 6 })
    + assistant({ id: 'msg_agentA2', sidechain: true, agentId: 'aaa', output: 7 })
    + assistant({ id: 'msg_main2', output: 9 });
  assert.deepEqual(keys(reader.read(text)), ['claude:msg_agentA1', 'claude:msg_main1']);
  assert.deepEqual(keys(reader.flush()), ['claude:msg_agentB1', 'claude:msg_agentA2', 'claude:msg_main2']);
});

test('sidechain lines without an agentId never complete each other, since parallel sub-agents may interleave', () => {
  const reader = new ClaudeTranscriptReader();
  const text = assistant({ id: 'msg_s1', sidechain: true, output: 4 })
    + assistant({ id: 'msg_s2', sidechain: true, output: 5 })
    + assistant({ id: 'msg_s1', sidechain: true, stop: 'tool_use', output: 70 });
  assert.deepEqual(reader.read(text).map((r) => [r.key, r.outputTokens, r.subagent]), [['claude:msg_s1', 70, true]]);
  assert.deepEqual(reader.flush().map((r) => [r.key, r.outputTokens]), [['claude:msg_s2', 5]]);
});

test('pending messages are bounded: beyond the bound the oldest is emitted as it stands', () => {
  const reader = new ClaudeTranscriptReader({ maxPending: 2 });
  const text = [1, 2, 3, 4].map((n) => assistant({ id: `msg_${n}`, sidechain: true, output: n })).join('');
  assert.deepEqual(reader.read(text).map((r) => [r.key, r.outputTokens]), [['claude:msg_1', 1], ['claude:msg_2', 2]]);
  assert.deepEqual(reader.toJSON().pending.map((p) => p.key), ['claude:msg_3', 'claude:msg_4']);
  // A state saved under a larger bound is brought within a smaller one on the next read, nothing lost.
  const smaller = ClaudeTranscriptReader.fromJSON(reader.toJSON(), { maxPending: 1 });
  assert.deepEqual(keys(smaller.read('')), ['claude:msg_3']);
  assert.deepEqual(keys(smaller.flush()), ['claude:msg_4']);
});

test('emitted keys are remembered up to the bound, newest kept', () => {
  const reader = new ClaudeTranscriptReader({ maxDone: 3 });
  const done = (n: number) => assistant({ id: `msg_${n}`, stop: 'end_turn', output: n });
  assert.equal(reader.read([1, 2, 3, 4, 5].map(done).join('')).length, 5);
  assert.deepEqual(reader.toJSON().done, ['claude:msg_3', 'claude:msg_4', 'claude:msg_5']);
  assert.deepEqual(reader.read(done(5) + done(3)), [], 'still remembered');
  assert.deepEqual(keys(reader.read(done(1))), ['claude:msg_1'], 'forgotten beyond the bound');
  assert.deepEqual(ClaudeTranscriptReader.fromJSON(reader.toJSON(), { maxDone: 2 }).toJSON().done, ['claude:msg_5', 'claude:msg_1']);
});

test('the turn is open from a prompt or a tool result until an answer that ends it, sub-agents aside', () => {
  const reader = new ClaudeTranscriptReader();
  const user = (sidechain = false) => line({ type: 'user', isSidechain: sidechain, message: { role: 'user', content: 'go' } });
  assert.equal(reader.turnOpen, false, 'nothing read');
  reader.read(user());
  assert.equal(reader.turnOpen, true, 'a prompt');
  reader.read(assistant({ id: 'msg_1', stop: 'tool_use', output: 1 }) + user());
  assert.equal(reader.turnOpen, true, 'a tool call and its result');
  reader.read(assistant({ id: 'msg_2', stop: null, output: 1 }));
  assert.equal(reader.turnOpen, true, 'an answer still streaming');
  reader.read(user(true) + assistant({ id: 'msg_3', stop: 'end_turn', output: 1, sidechain: true }));
  assert.equal(reader.turnOpen, true, "a sub-agent's lines neither open nor end the session's turn");
  reader.read(assistant({ id: 'msg_2', stop: 'end_turn', output: 2 }));
  assert.equal(reader.turnOpen, false, 'the answer that ends the turn');
  reader.read(user() + assistant({ model: '<synthetic>', id: 'msg_4', stop: 'stop_sequence', output: 0 }));
  assert.equal(reader.turnOpen, false, "Claude Code's own message (an API error) ends it too");
  reader.read(user());
  assert.equal(ClaudeTranscriptReader.fromJSON(reader.toJSON()).turnOpen, true, 'kept in the state');
  assert.equal(ClaudeTranscriptReader.fromJSON({ ...reader.toJSON(), turnOpen: 'yes' }).turnOpen, false, 'a bad state starts afresh');
});
