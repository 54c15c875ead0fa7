/**
 * The load of eventLoop.bench.ts, in a process of its own so that sending it costs the measured loop
 * nothing: agents' tool calls at a steady rate, each a PreToolUse then, once that is answered, the
 * PostToolUse of the same call, as Claude Code sends them (its recorded inputs), to the hook server's
 * socket as the launcher's client sends them (one request per connection, a line of JSON each way).
 * The calls start on a fixed schedule whatever the answers take (agents do not wait for each other).
 * Before each call its model message is appended to the session's transcript, as Claude Code writes
 * it before running the tool, so each PreToolUse reads and charges one new API message.
 *
 * Standard input, JSON: { socketPath, ratePerSecond, seconds, sessions, first, request: { v, processCwd,
 * env, build }, pre, post, message, transcripts } (pre and post: the recorded hook inputs, cwd set to
 * the workspace; message: a recorded transcript line of a tool_use; transcripts: a folder). Each call
 * (numbered from `first`) has a command of its own (Alfred stops a session that repeats one call many
 * times in a row), and the calls take turns among `sessions` sessions, each with a transcript of its
 * own. Standard output, JSON: { calls, answered, refused, errorCount, errors: string[] (the first few),
 * pre: ms[], post: ms[] (each request's round trip) }.
 */
import { appendFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { socketPath, ratePerSecond, seconds, sessions, first, request, pre, post, message, transcripts } = JSON.parse(Buffer.concat(chunks).toString('utf8'));

const result = { calls: 0, answered: 0, refused: 0, errorCount: 0, errors: [], pre: [], post: [] };
const fail = (message) => {
  result.errorCount++;
  if (result.errors.length < 5) result.errors.push(message);
};

/** One hook request; its answer's stdout, or undefined after counting the failure. */
function ask(event, input, times) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const socket = connect(socketPath, () => socket.write(`${JSON.stringify({ ...request, event, stdin: JSON.stringify(input) })}\n`));
    let text = '';
    socket.setEncoding('utf8').on('data', (d) => (text += d));
    socket.on('end', () => {
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      try {
        const answer = JSON.parse(text);
        if ('error' in answer) throw new Error(answer.error);
        if (answer.exitCode !== 0) throw new Error(`exit code ${answer.exitCode}: ${answer.stderr}`);
        result.answered++;
        resolve(answer.stdout);
      } catch (err) {
        fail(`${event}: ${err.message}`);
        resolve(undefined);
      }
    });
    socket.on('error', (err) => {
      fail(`${event}: ${err.message}`);
      resolve(undefined);
    });
  });
}

/** The model's message that asks for call `n`, as Claude Code appends it to the session's transcript. */
function transcriptLine(n, sessionId, toolInput) {
  const m = message.message;
  return `${JSON.stringify({
    ...message, parentUuid: null, sessionId, cwd: pre.cwd, uuid: `bench-${n}`, requestId: `req_bench_${n}`, timestamp: new Date().toISOString(),
    message: { ...m, id: `msg_bench_${n}`, content: [{ type: 'tool_use', id: `toolu_call_${n}`, name: 'Bash', input: toolInput }] },
  })}\n`;
}

async function toolCall(n) {
  result.calls++;
  const sessionId = `${pre.session_id.slice(0, -2)}${String(n % sessions).padStart(2, '0')}`;
  const transcript = join(transcripts, `${sessionId}.jsonl`);
  const common = { session_id: sessionId, transcript_path: transcript, tool_use_id: `toolu_call_${n}` };
  const toolInput = { ...pre.tool_input, command: `echo call ${n} > out-${n % 10}.txt` };
  appendFileSync(transcript, transcriptLine(n, sessionId, toolInput));
  const stdout = await ask('PreToolUse', { ...pre, ...common, tool_input: toolInput }, result.pre);
  if (stdout === undefined) return;
  const out = stdout ? JSON.parse(stdout).hookSpecificOutput ?? {} : {};
  if (out.permissionDecision === 'deny' || out.permissionDecision === 'ask') {
    result.refused++;
    if (result.refused <= 5) result.errors.push(`PreToolUse of call ${n}: ${out.permissionDecision}: ${out.permissionDecisionReason}`);
    return;
  }
  // The command as Claude Code runs it: rewritten when the answer rewrote it (into the sandbox).
  await ask('PostToolUse', { ...post, ...common, tool_input: out.updatedInput ?? toolInput }, result.post);
}

const total = Math.round(ratePerSecond * seconds);
const start = performance.now();
const pending = [];
for (let i = 0; i < total; i++) {
  const wait = start + (i * 1000) / ratePerSecond - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  pending.push(toolCall(first + i));
}
await Promise.all(pending);
process.stdout.write(JSON.stringify(result));
