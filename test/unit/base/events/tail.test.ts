import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { newEventId } from '../../../../src/core/base/events/ids';
import { EVENTS_FILE, rotatedFile } from '../../../../src/core/base/events/format';
import { lastEvent } from '../../../../src/core/base/events/tail';
import type { AlfredEvent, EventType } from '../../../../src/core/base/events/types';
import { hookRunOf, lastHookRun } from '../../../../src/core/integrations/hooks/lastRun';

const dirs: string[] = [];
after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-tail-'));
  dirs.push(d);
  return d;
};

const ev = (n: number, extra: Record<string, unknown> = {}, type: EventType = 'ToolCall'): AlfredEvent => ({
  id: newEventId(), ts: `2025-01-01T00:00:${String(n % 60).padStart(2, '0')}.000Z`, type, session: 's', role: 'coder', n, ...extra,
});
const lines = (events: AlfredEvent[], eol = '\n') => events.map((e) => JSON.stringify(e) + eol).join('');
const isN = (n: number) => (e: AlfredEvent) => e.n === n;

describe('lastEvent', () => {
  it('finds the newest match, whatever the chunk size (lines split across reads, multi-byte text)', () => {
    const dir = tmp();
    const events = Array.from({ length: 40 }, (_, i) => ev(i, i % 7 === 0 ? { note: 'ñandú 🦜 ✓'.repeat(i % 3 + 1) } : {}));
    fs.writeFileSync(path.join(dir, EVENTS_FILE), lines(events));
    for (const chunkBytes of [1, 3, 17, 100, 64 << 10]) {
      assert.equal(lastEvent(dir, (e) => (e.n as number) % 7 === 0, { chunkBytes })?.n, 35, `chunk ${chunkBytes}`);
      assert.equal(lastEvent(dir, isN(0), { chunkBytes })?.note, 'ñandú 🦜 ✓', `chunk ${chunkBytes}`);
      assert.equal(lastEvent(dir, isN(39), { chunkBytes })?.n, 39);
      assert.equal(lastEvent(dir, isN(99), { chunkBytes }), undefined);
    }
  });

  it('reads CRLF lines, a last line without its newline, and skips corrupt and blank lines', () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, EVENTS_FILE), `${lines([ev(1)], '\r\n')}not json\n\n{"x":1}\n${JSON.stringify(ev(2))}`);
    assert.equal(lastEvent(dir, () => true, { chunkBytes: 5 })?.n, 2);
    assert.equal(lastEvent(dir, isN(1), { chunkBytes: 5 })?.n, 1);
  });

  it('breaks lines at a lone CR, as the other readers of the log do', () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, EVENTS_FILE), `${JSON.stringify(ev(1))}\r${JSON.stringify(ev(2))}\r${JSON.stringify(ev(3))}\n`);
    for (const chunkBytes of [4, 64 << 10]) {
      assert.equal(lastEvent(dir, () => true, { chunkBytes })?.n, 3);
      assert.equal(lastEvent(dir, isN(2), { chunkBytes })?.n, 2);
      assert.equal(lastEvent(dir, isN(1), { chunkBytes })?.n, 1);
    }
  });

  it('goes on into rotated files, newest first', () => {
    const dir = tmp();
    fs.writeFileSync(rotatedFile(dir, 2), lines([ev(1, { hit: true }), ev(2)]));
    fs.writeFileSync(rotatedFile(dir, 1), lines([ev(3, { hit: true }), ev(4)]));
    fs.writeFileSync(path.join(dir, EVENTS_FILE), lines([ev(5), ev(6)]));
    assert.equal(lastEvent(dir, (e) => e.hit === true)?.n, 3);
    fs.rmSync(rotatedFile(dir, 1));
    assert.equal(lastEvent(dir, (e) => e.hit === true)?.n, 1);
  });

  it('stops at its byte budget: an older match counts as not found', () => {
    const dir = tmp();
    const events = [ev(0, { hit: true }), ...Array.from({ length: 50 }, (_, i) => ev(i + 1))];
    fs.writeFileSync(path.join(dir, EVENTS_FILE), lines(events));
    const size = fs.statSync(path.join(dir, EVENTS_FILE)).size;
    assert.equal(lastEvent(dir, (e) => e.hit === true, { chunkBytes: 256, maxBytes: size + 256 })?.n, 0);
    assert.equal(lastEvent(dir, (e) => e.hit === true, { chunkBytes: 256, maxBytes: Math.floor(size / 2) }), undefined);
  });

  it('parses only the lines that contain a needle', () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, EVENTS_FILE), lines([ev(1, { source: 'hook:PreToolUse' }), ev(2, { source: 'tool' })]));
    const seen: unknown[] = [];
    const found = lastEvent(dir, (e) => { seen.push(e.n); return true; }, { mustContain: ['"hook:'] });
    assert.equal(found?.n, 1);
    assert.deepEqual(seen, [1]);
  });

  it('is undefined for an empty or missing log', () => {
    const dir = tmp();
    assert.equal(lastEvent(dir, () => true), undefined);
    fs.writeFileSync(path.join(dir, EVENTS_FILE), '');
    assert.equal(lastEvent(dir, () => true), undefined);
  });
});

describe('lastHookRun', () => {
  it('is the newest event a hook wrote (source hook:…), or a HookError', () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, EVENTS_FILE), lines([
      ev(1, { source: 'hook:PreToolUse', tool: 'run_in_terminal' }),
      ev(2, { source: 'hook:PostToolUse', tool: 'run_in_terminal' }),
      ev(3, { source: 'terminal:bash', command: 'echo "hook:fake"' }, 'ShellExecution'),
      ev(4, { trigger: 'hook:Stop' }, 'CompletionRecorded'),
      ev(5, { source: 'tool' }),
    ]));
    assert.deepEqual(lastHookRun(dir), { ts: '2025-01-01T00:00:02.000Z', event: 'PostToolUse', tool: 'run_in_terminal', failed: false });
    fs.appendFileSync(path.join(dir, EVENTS_FILE), lines([ev(6, { event: 'preToolUse', tool: 'bash', message: 'boom' }, 'HookError')]));
    assert.deepEqual(lastHookRun(dir), { ts: '2025-01-01T00:00:06.000Z', event: 'preToolUse', tool: 'bash', failed: true });
    assert.equal(lastHookRun(tmp()), undefined);
  });

  it('reads session events without a tool', () => {
    assert.deepEqual(hookRunOf(ev(7, { source: 'hook:SessionStart', agentSession: 'x' }, 'AgentSession')), { ts: '2025-01-01T00:00:07.000Z', event: 'SessionStart', failed: false });
    assert.equal(hookRunOf(ev(8, { source: 'chat' })), undefined);
  });
});
