import * as vscode from 'vscode';

/**
 * Settles with a CancellationError as soon as `token` fires, even when the awaited work (a model's
 * stream, another extension's tool) ignores the token: cancelling the chat stops Alfred at once.
 */
export function raceCancellation<T>(work: Thenable<T>, token: vscode.CancellationToken): Promise<T> {
  if (token.isCancellationRequested) return Promise.reject(new vscode.CancellationError());
  let sub: vscode.Disposable | undefined;
  const cancelled = new Promise<never>((_, reject) => {
    sub = token.onCancellationRequested(() => reject(new vscode.CancellationError()));
  });
  return Promise.race([Promise.resolve(work), cancelled]).finally(() => sub?.dispose());
}

/** Iterates an async stream, stopping at once on cancellation. */
export async function* cancellable<T>(stream: AsyncIterable<T>, token: vscode.CancellationToken): AsyncGenerator<T> {
  const it = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await raceCancellation(it.next(), token);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Tell the producer we stopped listening; do not wait for it.
    void it.return?.()?.catch?.(() => undefined);
  }
}
