/** A tiny typed in-process event bus: feeds the status bar and dashboards live. */
import type { AlfredEvent } from './types';

export type Listener<T> = (event: T) => void;

/** Callable, and also `{ dispose() }` so it fits VS Code's `context.subscriptions`. */
export type Disposer = (() => void) & { dispose(): void };

export class EventBus<T = AlfredEvent> {
  private listeners = new Set<Listener<T>>();

  /** Errors thrown by listeners land here instead of breaking the other listeners or the emitter. */
  constructor(private readonly onListenerError: (err: unknown) => void = () => undefined) {}

  on(listener: Listener<T>): Disposer {
    // Wrap so the same function registered twice gets two independent subscriptions.
    const entry: Listener<T> = (e) => listener(e);
    this.listeners.add(entry);
    const dispose = (): void => {
      this.listeners.delete(entry);
    };
    return Object.assign(dispose, { dispose });
  }

  emit(event: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  emitAll(events: readonly T[]): void {
    for (const e of events) this.emit(e);
  }

  get size(): number {
    return this.listeners.size;
  }
}
