import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChargeCounts, EventRun, MAX_DEPTH, chargeOf, headerValue, matchRun, numberAt, readCharge } from '../../../../src/core/base/events/lineShape';
import { rng } from '../../../support/rng';

const count = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

const OPENING = ['BudgetReset', 'RoleChanged', 'BudgetWarning', 'BudgetExhausted'];

/**
 * Matches one line (bytes, a `\n` added) as the fold does, and when it matches, checks every field
 * read against JSON.parse of the line: the header values, and the charge (the event's own, as counts).
 */
function check(line: Buffer): boolean {
  const bytes = Buffer.concat([line, Buffer.from('\n')]);
  const text = bytes.toString('latin1');
  const run = new EventRun();
  if (!matchRun(text, 0, run)) return false;
  const shown = JSON.stringify(text);
  assert.equal(run.end, text.length, `one line, whole: ${shown}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(line.toString('utf8'));
  } catch (err) {
    assert.fail(`matched a line JSON.parse rejects (${(err as Error).message}): ${shown}`);
  }
  assert.ok(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed), `not an object: ${shown}`);
  const e = parsed as Record<string, unknown>;
  const header = (key: 'ts' | 'role'): string => text.slice(...headerValue(text, 0, key));
  assert.equal(run.session, e.session, shown);
  assert.equal(header('ts'), e.ts, shown);
  assert.equal(header('role'), e.role, shown);
  assert.ok(typeof e.id === 'string' && e.id !== '' && e.ts !== '' && typeof e.type === 'string' && e.type !== '', shown);
  assert.ok(!OPENING.includes(e.type as string), `a run holds no ${String(e.type)}: ${shown}`);
  const open = chargeOf(text, 0, text.length - 1);
  if (open < 0) {
    assert.equal(Object.prototype.hasOwnProperty.call(e, 'charge'), false, `a charge was missed: ${shown}`);
  } else {
    assert.deepEqual(JSON.parse(bytes.toString('utf8', open, text.length - 2)), e.charge, shown);
    const c = e.charge as Record<string, unknown>;
    const counts = new ChargeCounts();
    readCharge(text, open, text.length - 2, counts);
    assert.deepEqual({ ...counts }, { tokens: count(c.tokens), shell: count(c.shell), costUsd: count(c.costUsd), estimated: c.estimated === true }, shown);
  }
  return true;
}

const raw = (text: string): Buffer => Buffer.from(text, 'latin1');

function randomValue(r: () => number, depth: number): unknown {
  const pick = Math.floor(r() * (depth >= MAX_DEPTH - 1 ? 5 : 8));
  switch (pick) {
    case 0: return Math.floor(r() * 1e6);
    case 1: return (r() - 0.5) * 10 ** Math.floor(r() * 40 - 20);
    case 2: return ['', 'charge', '"charge":{"tokens":9}', 'é ü 日本', '\\ " \n \t \u0001 \u2028', 'a}b{c]d[', '"type":"BudgetReset"'][Math.floor(r() * 7)];
    case 3: return [true, false, null][Math.floor(r() * 3)];
    case 4: return `s${Math.floor(r() * 100)}`;
    case 5: return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    default: {
      const obj: Record<string, unknown> = {};
      for (let i = Math.floor(r() * 4); i > 0; i--) obj[['charge', 'tokens', 'type', 'x', 'ké', 'a"b'][Math.floor(r() * 6)]!] = randomValue(r, depth + 1);
      return obj;
    }
  }
}

/** An event as `complete()` writes it: header first, payload, a flat charge last when it charges. */
function alfredEvent(r: () => number): Record<string, unknown> {
  const e: Record<string, unknown> = {
    id: 'e1f0c3a2-0000-4000-8000-000000000001', ts: '2025-06-01T09:00:00.000Z',
    type: ['ToolCall', 'ShellExecution', 'PolicyViolation', 'ModelUsage'][Math.floor(r() * 4)], session: `s${Math.floor(r() * 3)}`, role: 'coder',
  };
  for (let i = Math.floor(r() * 6); i > 0; i--) e[['tool', 'reason', 'detail', 'n', 'previousUsage', 'ké'][Math.floor(r() * 6)]!] = randomValue(r, 1);
  if (r() < 0.6) e.charge = { tokens: Math.floor(r() * 5000), costUsd: r() / 100, ...(r() < 0.5 ? { estimated: r() < 0.8 } : {}), ...(r() < 0.2 ? { shell: 1 } : {}) };
  return e;
}

test('matches every line Alfred writes and reads its fields as JSON.parse does', () => {
  const r = rng(1);
  for (let i = 0; i < 3000; i++) assert.equal(check(Buffer.from(JSON.stringify(alfredEvent(r)))), true, `event ${i}`);
});

test('a "charge" in a reason or a nested object is not the event\'s charge', () => {
  const head = '{"id":"a","ts":"t","type":"PolicyViolation","session":"s","role":"r"';
  assert.equal(check(raw(`${head},"reason":"no \\"charge\\":{\\"tokens\\":500} here"}`)), true);
  assert.equal(check(raw(`${head},"detail":{"a":1,"charge":{"tokens":7}}}`)), true);
  assert.equal(check(raw(`${head},"detail":{"charge":{"tokens":7}},"x":1}`)), true);
  assert.equal(check(raw(`${head},"note":"\\"charge\\":{\\"shell\\":9}","charge":{"shell":1}}`)), true);
  // Where the charge would not be the event's own or not the only one, the line is left to JSON.parse.
  for (const tail of [',"charge":{"shell":1},"x":2}', ',"charge":{"shell":1},"charge":{"shell":2}}', ',"charge":{"a":{"b":1}}}', ',"charge":5}', ',"charge":{"a":"}"}}']) {
    assert.equal(check(raw(head + tail)), false, tail);
  }
});

test('other shapes are left to JSON.parse, and invalid JSON never matches', () => {
  const head = '{"id":"a","ts":"t","type":"ToolCall","session":"s","role":"r"';
  const other = [
    '{"ts":"t","id":"a","type":"ToolCall","session":"s","role":"r"}', // another key order
    '{"id":"a","ts":"t","type":"Tool\\u0043all","session":"s","role":"r"}', // an escape in a header value
    '{"id":"a","ts":"t","type":"ToolCall","session":"sé","role":"r"}', // non-ASCII in a header value
    '{"id":"","ts":"t","type":"ToolCall","session":"s","role":"r"}', // an empty id (a corrupt line)
    `${head},"ch\\u0061rge":{"shell":5}}`, `${head},"type":"BudgetReset"}`, `${head},"session":"x"}`, // keys JSON.parse would take
    ` ${head}}`, `${head} }`, `${head}, "x":1}`, `{ "id":"a"}`,
    `${head},}`, `${head},"x":1,}`, `${head},"x":[1,]}`, `${head},"x":{"a":1,}}`, `${head},"x":01}`, `${head},"x":1.}`, `${head},"x":.5}`,
    `${head},"x":1e}`, `${head},"x":-}`, `${head},"x":+1}`, `${head},"x":tru}`, `${head},"x":NaN}`, `${head},"x":"a\tb"}`, `${head},"x":"\\x"}`,
    `${head},"x":"\\u12G4"}`, `${head},"x":"a\\"}`, `${head},"x" :1}`, `${head},"x":[1 2]}`, `${head},"x":{"a":1]}`, `${head},"x":1}}`, `${head}`,
    `${head},"x":${'['.repeat(MAX_DEPTH)}${']'.repeat(MAX_DEPTH)}}`, // deeper than MAX_DEPTH: valid, but parsed in full
  ];
  for (const text of other) assert.equal(check(raw(text)), false, text);
  assert.equal(check(raw(`${head},"x":${'['.repeat(MAX_DEPTH - 1)}${']'.repeat(MAX_DEPTH - 1)}}`)), true);
  // Bytes above 0x7f: fine inside a payload string (even when not valid UTF-8), never outside one.
  assert.equal(check(Buffer.concat([raw(`${head},"x":"`), Buffer.from([0xff, 0xc3]), raw('"}')])), true);
  assert.equal(check(Buffer.concat([raw(`${head},`), Buffer.from([0xc3, 0xa9]), raw('"x":1}')])), false);
});

test('a torn line (a prefix of a valid one) never matches, even one that ends with "}"', () => {
  const full = Buffer.from(JSON.stringify({ id: 'a', ts: 't', type: 'ToolCall', session: 's', role: 'r', detail: { a: { b: 1 } }, charge: { tokens: 3, costUsd: 0.5 } }));
  for (let n = 0; n < full.length; n++) assert.equal(check(full.subarray(0, n)), false, full.toString('utf8', 0, n));
  assert.equal(check(full), true);
});

test('a run: whole lines of one session, none that opens a session or sets a signal', () => {
  const line = (session: string, type = 'ToolCall', extra = ''): string => `{"id":"a","ts":"t","type":"${type}","session":"${session}","role":"r"${extra}}`;
  const lines = [line('s1'), line('s1', 'PolicyViolation', ',"charge":{"shell":1}'), line('s1'), line('s10'), line('s1', 'BudgetReset'), line('s1'), `${line('s1')}\r`, line('s1')];
  const text = lines.join('\n');
  const run = new EventRun();
  const starts = lines.map((_, i) => lines.slice(0, i).join('\n').length + (i > 0 ? 1 : 0));
  assert.equal(matchRun(text, starts[0]!, run), true);
  assert.deepEqual([run.end, run.session], [starts[3], 's1'], 'the run ends where the session changes');
  assert.equal(matchRun(text, starts[3]!, run), true);
  assert.deepEqual([run.end, run.session], [starts[4], 's10']);
  assert.equal(matchRun(text, starts[4]!, run), false, 'BudgetReset is parsed in full');
  assert.equal(matchRun(text, starts[5]!, run), true);
  assert.equal(run.end, starts[6], 'a line ended by \\r is not in a run');
  assert.equal(matchRun(text, starts[7]!, run), false, 'the last line has no \\n yet');
  assert.equal(matchRun(text, starts[0]! + 1, run), false);
  assert.equal(chargeOf(text, starts[1]!, starts[2]! - 1), starts[2]! - 1 - '{"shell":1}}'.length);
});

test('fuzz: a mutated line matches only when JSON.parse agrees on every field read', () => {
  const r = rng(7);
  const pieces = ['"', '\\', '{', '}', '[', ']', ',', ':', ' ', '\t', '0', '-', 'e', '.', 'u', 'charge', '"charge":', ',"charge":{"shell":1}', '\u0000', '\u00ff', 'true', 'null'];
  let matched = 0;
  for (let i = 0; i < 20000; i++) {
    let bytes = [...Buffer.from(JSON.stringify(alfredEvent(r)))];
    for (let m = 1 + Math.floor(r() * 3); m > 0; m--) {
      const at = Math.floor(r() * (bytes.length + 1));
      const op = r();
      if (op < 0.3) bytes.splice(at, 1);
      else if (op < 0.6) bytes.splice(at, 0, ...raw(pieces[Math.floor(r() * pieces.length)]!));
      else if (op < 0.8) bytes[at] = Math.floor(r() * 256);
      else bytes = bytes.slice(0, at).concat(bytes.slice(at).reverse().slice(0, 2));
    }
    if (check(Buffer.from(bytes.filter((x) => x !== undefined && x !== 10 && x !== 13)))) matched++;
  }
  assert.ok(matched > 1000, `only ${matched} mutated lines matched: the fuzz would prove little`);
});

test('readCharge: a repeated key counts last; strings and literals are not counts', () => {
  const head = '{"id":"a","ts":"t","type":"ToolCall","session":"s","role":"r"';
  for (const charge of [
    '{"tokens":1,"tokens":2}', '{"tokens":"5","shell":null,"costUsd":true}', '{"estimated":"true"}', '{"estimated":true,"estimated":false}',
    '{}', '{"shell":-1,"costUsd":1e400}', '{"tokens":12345678901234567890,"costUsd":0.1e1}', '{"x":"a,b","shell":3}',
  ]) assert.equal(check(raw(`${head},"charge":${charge}}`)), true, charge);
});

test('numberAt: every JSON number exactly as JSON.parse reads it', () => {
  const r = rng(3);
  const samples = ['0', '-0', '1', '-1', '0.000009', '0.1', '0.30000000000000004', '1e22', '1e23', '1.5e-7', '-2.5E+3', '9007199254740992',
    '9007199254740993', '90071992547409.93', '123456789012345678901234567890', '1e-400', '1e400', '0.0000000000000000000001', '4.35', '2e0', '0e5', '-0.0', '0e99999'];
  for (let i = 0; i < 20000; i++) {
    const kind = r();
    if (kind < 0.3) samples.push(String(Math.floor(r() * 2 ** Math.floor(r() * 60))));
    else if (kind < 0.6) samples.push(JSON.stringify((r() - 0.5) * 10 ** Math.floor(r() * 50 - 25)));
    else if (kind < 0.8) samples.push(`${Math.floor(r() * 1e6)}.${String(Math.floor(r() * 1e6)).padStart(6, '0')}`);
    else samples.push(`${Math.floor(r() * 1000)}e${Math.floor(r() * 60 - 30)}`);
  }
  for (const text of samples) {
    const n = numberAt(`[${text}]`, 1, text.length + 1);
    assert.ok(Object.is(n, JSON.parse(text)), `${text}: ${n} vs ${JSON.parse(text)}`);
  }
});
