import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { DIMENSIONS, type Dimension } from '../../../src/core/rules/budget/types';
import { newEventId } from '../../../src/core/base/events/ids';
import { MAX_RUN } from '../../../src/core/base/events/lineShape';
import { countLines } from '../../../src/core/base/events/append';
import { EVENTS_FILE, KEEP_ROTATED, eventFiles, parseEventLine, rotatedFile } from '../../../src/core/base/events/format';
import { foldLedger } from '../../../src/core/ledger/ledgerFold';
import { LEDGER_FILE, newLedger, readLedger, type Ledger } from '../../../src/core/ledger/ledgerFormat';
import { recordEvents, transact } from '../../../src/core/ledger/ledgerStore';
import { stateDir } from '../../../src/core/base/state/paths';
import { ledgerSuite } from './suites/ledgerSuite';
import { rng } from '../../support/rng';

/** A fresh state folder under a temporary ALFRED_HOME, as the extension and CLI compute it. */
function freshState(): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-home-'));
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-ws-'));
  return stateDir(ws, { ALFRED_HOME: home });
}

const addShell = (n: number) => (l: { usage: { shell: number } }) => {
  l.usage.shell += n;
  return { events: [{ type: 'ToolCall' as const, tool: 'sh', charge: { shell: n } }], result: l.usage.shell };
};

ledgerSuite(freshState);

test('a corrupt ledger is reported and rebuilt from the event log', async () => {
  const dir = freshState();
  await transact(dir, 'coder', addShell(2));
  await transact(dir, 'coder', addShell(4));
  const good = readLedger(dir)!;
  fs.writeFileSync(path.join(dir, LEDGER_FILE), '{"version":1,"session":');
  assert.equal(readLedger(dir), undefined);
  const r = await transact(dir, 'coder', addShell(1));
  assert.equal(r.problems.length, 1);
  assert.match(r.problems[0]!, /ledger\.json: not valid JSON.*rebuilt from the event log/);
  assert.equal(r.ledger.session, good.session, 'the same session continues');
  assert.equal(r.result, 7);
  assert.equal(r.events.some((e) => e.type === 'RoleChanged'), false);
  assert.equal(readLedger(dir)!.eventLines, 3);
});

test('a corrupt ledger with no log starts fresh, still reported', async () => {
  const dir = freshState();
  fs.writeFileSync(path.join(dir, LEDGER_FILE), JSON.stringify({ version: 1, session: 's', role: 'coder', usage: 'lots' }));
  const r = await transact(dir, 'coder', addShell(1));
  assert.match(r.problems[0]!, /bad startedAt|bad usage/);
  assert.equal(r.result, 1);
  assert.deepEqual(r.events.map((e) => e.type), ['ToolCall']);
});

// ── The fast fold against the reference ─────────────────────────────────────────────────────────

/** The fold as it was before the fast path: readline, JSON.parse of every line, the same reducer. */
async function referenceFold(dir: string): Promise<Ledger | undefined> {
  let l: Ledger | undefined;
  const log = path.join(dir, EVENTS_FILE);
  // events.jsonl's last line is not folded until something ends it (an append may be half written).
  const data = fs.existsSync(log) ? fs.readFileSync(log) : Buffer.alloc(0);
  const unended = data.length === 0 || data[data.length - 1] === 10 || data[data.length - 1] === 13 ? 0
    : data.length - 1 - Math.max(data.lastIndexOf(10), data.lastIndexOf(13));
  for (const file of eventFiles(dir)) {
    const rl = readline.createInterface({ input: fs.createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
    const lines: string[] = [];
    for await (const text of rl) lines.push(text);
    if (file === log && unended > 0) lines.pop();
    let n = 0;
    for (const text of lines) {
      const e = parseEventLine(text, file, ++n);
      if (!e || !('id' in e)) continue;
      if (!l || e.type === 'BudgetReset' || e.type === 'RoleChanged' || e.session !== l.session) {
        l = { ...newLedger(String(e.role)), session: String(e.session), startedAt: e.ts };
      }
      const c = e.charge as Record<string, unknown> | null;
      if (typeof c === 'object' && c !== null) {
        const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
        if (isCount(c.tokens)) l.usage.tokens += c.tokens;
        if (isCount(c.shell)) l.usage.shell += c.shell;
        if (isCount(c.costUsd)) l.usage.costUsd += c.costUsd;
        if (c.estimated === true) l.costEstimated = true;
      }
      const dim = e.dimension as Dimension;
      if (DIMENSIONS.includes(dim)) {
        if (e.type === 'BudgetWarning' && l.signals[dim] === 'OK') l.signals[dim] = 'WARNING';
        if (e.type === 'BudgetExhausted') l.signals[dim] = 'EXHAUSTED';
      }
    }
  }
  if (l) {
    // Where the log ends, as the ledger records it.
    const st = fs.statSync(log, { throwIfNoEntry: false });
    Object.assign(l, { eventLines: countLines(log), eventBytes: (st?.size ?? 0) - unended }, st ? { eventIno: st.ino } : {});
  }
  return l;
}

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

/** One line of a random log, as bytes: mostly what Alfred writes, and every odd thing a log may hold. */
function randomLine(r: () => number, ts: string): Buffer {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const session = pick(['s1', 's1', 's1', 's2', 's2', 'sé', '']);
  const role = pick(['coder', 'coder', 'reviewer', 'rôle']);
  const type = pick(['ToolCall', 'ToolCall', 'ToolCall', 'ShellExecution', 'ModelUsage', 'PolicyViolation', 'BudgetWarning', 'BudgetExhausted', 'BudgetReset', 'RoleChanged', 'ConfigWritten']);
  const charge = pick<unknown>([
    undefined, { shell: 1 }, { shell: 0 }, { tokens: Math.floor(r() * 5000), costUsd: Math.floor(r() * 1e6) / 1e8, estimated: true },
    { tokens: 3, costUsd: 0.000009, estimated: true }, { costUsd: r() / 7 }, { costUsd: 1.5e-7, estimated: false }, { tokens: -4 },
    { tokens: '5' }, { tokens: null }, { shell: { n: 1 } }, [1, 2], null, 'charge', 7, { tokens: 1e21, shell: 2 ** 53 + 2 },
  ]);
  const payload: Record<string, unknown> = {};
  if (r() < 0.5) payload.tool = pick(['read_file', 'Bash', 'ctx_shell']);
  if (r() < 0.3) payload.reason = pick(['a "charge":{"tokens":1000} in the text', 'charge it', '{"shell":9}}', 'tab\there\nnewline', 'ü "x"']);
  if (r() < 0.2) payload.detail = { charge: { tokens: 77 }, session: 'other', type: 'BudgetReset' };
  if (type === 'BudgetWarning' || type === 'BudgetExhausted' || r() < 0.1) payload.dimension = pick(['tokens', 'shell', 'cost', 'money', 3]);
  if (charge !== undefined) payload.charge = charge;
  const event = { id: newEventId(), ts, type, session, role, ...payload };
  const odd = r();
  if (odd < 0.7) return bytes(JSON.stringify(event)); // as Alfred writes it
  const text = JSON.stringify(event);
  const oddities: (() => Buffer)[] = [
    () => bytes(text.slice(0, Math.floor(r() * text.length))), // torn
    () => bytes(JSON.stringify({ session, role, type, ts, id: event.id, ...payload })), // another key order
    () => bytes(text.replace(`"session":"${session}"`, '"session":"s\\u0031"')), // escaped: the same as "s1"
    () => bytes(text.replace(`"type":"${type}"`, '"type":"Budget\\u0052eset"')),
    () => Buffer.concat([bytes(text.slice(0, text.indexOf('"session":"') + 11)), Buffer.from([pick([0xff, 0xfe, 0xc3])]), bytes(text.slice(text.indexOf('"session":"') + 11 + Buffer.byteLength(session)))]),
    () => bytes(text.replace(/\}$/, ',"charge":{"tokens":2,"shell":1}}')), // a repeated key: the last counts
    () => bytes(text.replace(/\}$/, ',"ch\\u0061rge":{"tokens":11}}')), // an escaped key
    () => bytes(text.replace(/\}$/, ',"charge":{ "tokens" : 12345678901234567890 , "costUsd":1e2, "shell":0.1e1 }}')),
    () => bytes(text.replace(`"session":"${session}"`, pick(['"session":5', '"session":null', '"role":"x"']))),
    () => bytes(text.replace(`,"role":"${role}"`, '')),
    () => bytes(text.replace(`"type":"${type}"`, '"type":""')),
    () => bytes(pick(['garbage', '[1,2]', '\u0000\u0000\u0000', '', '   ', '{}', '{"id":"x","ts":"t","type":"ToolCall","session":"s1","role":"coder","charge":{"shell":1},}'])),
    () => bytes(` ${text}`),
  ];
  return pick(oddities)();
}

async function writeRandomLog(dir: string, r: () => number): Promise<void> {
  const files = [...Array.from({ length: KEEP_ROTATED }, (_, i) => rotatedFile(dir, KEEP_ROTATED - i)), path.join(dir, EVENTS_FILE)].filter(() => r() < 0.6);
  let t = Date.parse('2025-06-01T09:00:00Z');
  for (const file of files) {
    const parts: Buffer[] = [];
    if (r() < 0.1) parts.push(bytes('\uFEFF'));
    for (let i = Math.floor(r() * 60); i > 0; i--) {
      parts.push(randomLine(r, new Date((t += 1000)).toISOString()));
      const end = r();
      parts.push(bytes(end < 0.85 ? '\n' : end < 0.95 ? '\r\n' : '\r'));
    }
    if (r() < 0.2) parts.pop(); // no newline after the last line
    fs.writeFileSync(file, Buffer.concat(parts));
  }
}

test('random logs: the fast fold equals the reference fold, at any read size', async () => {
  const r = rng(42);
  for (let round = 0; round < 100; round++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-fold-'));
    await writeRandomLog(dir, r);
    const expected = await referenceFold(dir);
    for (const chunkBytes of [Math.ceil(r() * 300), 1 << 20]) {
      assert.deepEqual(await foldLedger(dir, { chunkBytes }), expected, `round ${round}, chunk ${chunkBytes}, ${dir}`);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a "charge" in a reason or a nested object is not charged; sessions span rotated files', async () => {
  const dir = freshState();
  const at = (n: number) => `2025-06-01T09:00:0${n}.000Z`;
  const e = (n: number, type: string, session: string, extra: object) => JSON.stringify({ id: `e${n}`, ts: at(n), type, session, role: 'coder', ...extra });
  fs.writeFileSync(rotatedFile(dir, 1), [
    e(1, 'ToolCall', 'old', { charge: { shell: 5 } }),
    e(2, 'BudgetReset', 'new', { reason: 'user' }),
    e(3, 'ToolCall', 'new', { charge: { tokens: 10 } }),
  ].join('\n') + '\n');
  fs.writeFileSync(path.join(dir, EVENTS_FILE), [
    e(4, 'PolicyViolation', 'new', { reason: 'Tool x is denied, "charge":{"tokens":1000,"shell":9} would be refused' }),
    e(5, 'ToolCall', 'new', { detail: { charge: { tokens: 500 } }, charge: { tokens: 1, costUsd: 0.25, estimated: true } }),
    e(6, 'BudgetWarning', 'new', { dimension: 'tokens' }),
  ].join('\n') + '\n');
  const folded = await foldLedger(dir);
  assert.deepEqual(folded, await referenceFold(dir));
  assert.equal(folded!.session, 'new');
  assert.equal(folded!.startedAt, at(2));
  assert.deepEqual(folded!.usage, { tokens: 11, shell: 0, costUsd: 0.25 });
  assert.equal(folded!.costEstimated, true);
  assert.equal(folded!.signals.tokens, 'WARNING');
  assert.equal(folded!.eventLines, 3);
});

test('lines Alfred wrote are folded without parsing them whole; the rare signal events are', async () => {
  const dir = freshState();
  for (let i = 0; i < 20; i++) await transact(dir, 'coder', addShell(1));
  await recordEvents(dir, 'coder', [{ type: 'BudgetWarning', dimension: 'shell' }]);
  const whole: string[] = [];
  const parse = JSON.parse;
  JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
    if (typeof text === 'string' && text.startsWith('{"id":')) whole.push(text);
    return parse(text, reviver);
  }) as typeof JSON.parse;
  let folded: Ledger | undefined;
  try {
    folded = await foldLedger(dir);
  } finally {
    JSON.parse = parse;
  }
  assert.deepEqual(folded, await referenceFold(dir));
  assert.equal(folded!.usage.shell, 20);
  assert.equal(folded!.signals.shell, 'WARNING');
  assert.equal(whole.length, 1, 'only the BudgetWarning line is parsed in full');
  assert.match(whole[0]!, /"type":"BudgetWarning"/);
});

test('long runs and a line too large for the regular expression engine fold exactly as the reference', async () => {
  const dir = freshState();
  const line = (i: number, extra = ''): string => JSON.stringify({ id: `e${i}`, ts: '2025-06-01T09:00:00.000Z', type: 'ToolCall', session: 's', role: 'coder' }).slice(0, -1)
    + `${extra},"charge":{"tokens":${i},"costUsd":${i / 1e6}}}`;
  // More lines in a row than one match takes, across several reads.
  const many = 2.5 * MAX_RUN;
  fs.writeFileSync(rotatedFile(dir, 1), Array.from({ length: many }, (_, i) => line(i)).join('\n') + '\n');
  // A line of 18 MB: matching it overflows the engine's stack, so the fold parses the rest in full.
  fs.writeFileSync(path.join(dir, EVENTS_FILE), [line(1), line(2, ',"k":1'.repeat(3_000_000)), line(3)].join('\n') + '\n');
  const expected = await referenceFold(dir);
  assert.deepEqual(await foldLedger(dir, { chunkBytes: 100_000 }), expected);
  assert.equal(expected!.usage.tokens, ((many - 1) * many) / 2 + 6);
});
