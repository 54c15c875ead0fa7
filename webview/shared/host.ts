/** The webview's only link to the extension host: the one acquireVsCodeApi() call lives here. */
import type { IpcCommand, IpcEnvelope, IpcNotification, IpcRequest } from '../../src/protocol/ipc';

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();
let nextId = 1;
const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
const handlers = new Map<string, (params: unknown) => void>();

window.addEventListener('message', (e: MessageEvent<IpcEnvelope>) => {
  const msg = e.data;
  if (msg.responseTo !== undefined) {
    const p = pending.get(msg.responseTo);
    pending.delete(msg.responseTo);
    if (msg.error) p?.reject(new Error(msg.error));
    else p?.resolve(msg.params);
    return;
  }
  handlers.get(msg.method)?.(msg.params);
});

export function send<P>(type: IpcCommand<P>, ...params: P extends void ? [] : [P]): void {
  api.postMessage({ method: type.method, params: params[0] } satisfies IpcEnvelope);
}

export function requestFromHost<P, R>(type: IpcRequest<P, R>, ...params: P extends void ? [] : [P]): Promise<R> {
  const id = nextId++;
  api.postMessage({ method: type.method, params: params[0], id } satisfies IpcEnvelope);
  return new Promise<R>((resolve, reject) => pending.set(id, { resolve: resolve as (v: unknown) => void, reject }));
}

export function onNotification<P>(type: IpcNotification<P>, handler: (params: P) => void): void {
  handlers.set(type.method, handler as (params: unknown) => void);
}
