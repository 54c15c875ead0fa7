import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventBus } from '../../../../src/core/base/events/bus';

test('listeners receive events until disposed', () => {
  const bus = new EventBus<number>();
  const seen: number[] = [];
  const off = bus.on((n) => seen.push(n));
  bus.emit(1);
  bus.emitAll([2, 3]);
  off();
  bus.emit(4);
  assert.deepEqual(seen, [1, 2, 3]);
  assert.equal(bus.size, 0);
});

test('dispose() works as a VS Code Disposable and twice is harmless', () => {
  const bus = new EventBus<string>();
  const seen: string[] = [];
  const sub = bus.on((s) => seen.push(s));
  sub.dispose();
  sub.dispose();
  bus.emit('x');
  assert.deepEqual(seen, []);
});

test('a throwing listener does not stop the others and is reported', () => {
  const errors: unknown[] = [];
  const bus = new EventBus<number>((e) => errors.push(e));
  const seen: number[] = [];
  bus.on(() => { throw new Error('boom'); });
  bus.on((n) => seen.push(n));
  bus.emit(7);
  assert.deepEqual(seen, [7]);
  assert.equal(errors.length, 1);
});

test('the same function registered twice is two subscriptions', () => {
  const bus = new EventBus<number>();
  let calls = 0;
  const fn = () => { calls++; };
  const a = bus.on(fn);
  bus.on(fn);
  a();
  bus.emit(1);
  assert.equal(calls, 1);
});
