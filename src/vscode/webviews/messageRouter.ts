import type * as vscode from 'vscode';
import type { IpcCommand, IpcEnvelope, IpcNotification, IpcRequest } from '../../protocol/ipc';

/** Typed dispatch of webview messages: one handler per message type, no switch to grow. */
export class MessageRouter {
  private readonly handlers = new Map<string, (params: unknown) => unknown>();

  constructor(private readonly webview: vscode.Webview) {}

  onCommand<P>(type: IpcCommand<P>, handler: (params: P) => unknown): this {
    this.handlers.set(type.method, handler as (params: unknown) => unknown);
    return this;
  }

  onRequest<P, R>(type: IpcRequest<P, R>, handler: (params: P) => R | Promise<R>): this {
    this.handlers.set(type.method, handler as (params: unknown) => unknown);
    return this;
  }

  notify<P>(type: IpcNotification<P>, params: P): Thenable<boolean> {
    return this.webview.postMessage({ method: type.method, params } satisfies IpcEnvelope);
  }

  /** Feed every message from `onDidReceiveMessage` here. */
  async dispatch(msg: IpcEnvelope): Promise<void> {
    const handler = this.handlers.get(msg?.method);
    try {
      if (!handler) throw new Error(`Unknown message "${String(msg?.method)}"`);
      const result = await handler(msg.params);
      if (msg.id !== undefined) await this.webview.postMessage({ method: msg.method, params: result, responseTo: msg.id } satisfies IpcEnvelope);
    } catch (err) {
      if (msg.id !== undefined) await this.webview.postMessage({ method: msg.method, params: undefined, responseTo: msg.id, error: (err as Error).message } satisfies IpcEnvelope);
      else console.error('[alfred] webview message failed:', err);
    }
  }
}
