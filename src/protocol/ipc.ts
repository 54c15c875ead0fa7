/**
 * Typed messages between the extension host and a webview (no vscode, no DOM here).
 * Commands go webview → host, notifications host → webview, requests expect a response.
 * Each message type is a constant both sides import, so a renamed method breaks the build, not the UI.
 */

export interface IpcCommand<Params> {
  readonly kind: 'command';
  readonly method: string;
  /** Phantom field: carries the params type only. */
  readonly params?: Params;
}

export interface IpcNotification<Params> {
  readonly kind: 'notification';
  readonly method: string;
  readonly params?: Params;
}

export interface IpcRequest<Params, Response> {
  readonly kind: 'request';
  readonly method: string;
  readonly params?: Params;
  readonly response?: Response;
}

export const command = <P>(method: string): IpcCommand<P> => ({ kind: 'command', method });
export const notification = <P>(method: string): IpcNotification<P> => ({ kind: 'notification', method });
export const request = <P, R>(method: string): IpcRequest<P, R> => ({ kind: 'request', method });

/** What travels through postMessage. `id` pairs a request with its response. */
export interface IpcEnvelope {
  method: string;
  params: unknown;
  id?: number;
  /** Set on a response: the request's id. */
  responseTo?: number;
  error?: string;
}

export type ParamsOf<T> = T extends IpcCommand<infer P> | IpcNotification<infer P> | IpcRequest<infer P, unknown> ? P : never;
export type ResponseOf<T> = T extends IpcRequest<unknown, infer R> ? R : never;
