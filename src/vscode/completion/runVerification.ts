import * as vscode from 'vscode';
import { verifyCompletion, type CompletionHost, type VerifyOutcome, type VerifyProgress } from '../../core/workflow/completion/verify';
import type { SessionConfiguration } from '../../core/models/fingerprint/fingerprint';

/**
 * The harness runs the acceptance checks (core/workflow/completion/verify.ts) for an editor surface: the
 * palette command and `@alfred /done` share it, so both cancel the same way — the token aborts the
 * running check's process group and skips the rest, and the record says so. `configuration` is what
 * the caller knows of the session whose work is checked, for the record's fingerprint.
 */
export async function runVerification(
  harness: CompletionHost,
  trigger: 'command' | 'chat',
  token: vscode.CancellationToken,
  onProgress: (p: VerifyProgress) => void,
  configuration: SessionConfiguration,
): Promise<VerifyOutcome> {
  const abort = new AbortController();
  if (token.isCancellationRequested) abort.abort();
  const sub = token.onCancellationRequested(() => abort.abort());
  try {
    return await verifyCompletion(harness, { trigger, signal: abort.signal, vscodeVersion: vscode.version, onProgress, configuration });
  } finally {
    sub.dispose();
  }
}
