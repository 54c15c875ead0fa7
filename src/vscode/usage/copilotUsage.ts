import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { atomicWrite } from '../../core/base/fs/atomicWrite';
import { isAlfredModel } from '../../core/models/providers/catalog';
import { appendToSpool, EXPORT_MARKER_FILE, readNewCopilotUsage, spoolPath, usageHome } from '../../core/usage/copilotSpool';
import { OtelUsageReader } from '../../core/usage/otelSpans';
import { UsageDeduper } from '../../core/usage/otelDedupe';
import { startOtlpReceiver, type OtlpReceiver } from '../../core/usage/otlpReceiver';
import type { HarnessHost } from '../harnessHost';
import { copilotOtelPointsAt, otlpEndpoint, otlpPort } from './copilotOtelSettings';

/** How often a window without the receiver tries to take it (the window holding it may have closed). */
const RETRY_MS = 30_000;
/** How often the spool's size is looked at, for records another window's receiver wrote. */
const POLL_MS = 2_000;

/**
 * Copilot's real model spend, charged to this workspace's budget: one window (whichever binds the
 * port first) receives Copilot's OTLP export and appends usage records to the machine-wide spool;
 * every window charges the records of its own agent sessions from it (core/usage/copilotSpool.ts).
 * The hooks read the same spool, so a session is charged whether or not a window is watching.
 */
export function registerCopilotUsage(host: HarnessHost): vscode.Disposable {
  const spool = spoolPath();
  const reader = new OtelUsageReader();
  const deduper = new UsageDeduper();
  let receiver: OtlpReceiver | undefined;
  let starting = false;
  let disposed = false;
  let charging = Promise.resolve();

  const charge = () => {
    charging = charging.then(async () => {
      const harness = host.current;
      if (!harness || disposed) return;
      const read = await readNewCopilotUsage(harness.stateDir, spool);
      if (read.records.length > 0) await harness.chargeMeasured(read.records);
    }).catch((err: unknown) => console.error('[alfred] charging Copilot usage:', err));
    return charging;
  };

  const tryStart = async () => {
    if (disposed || starting || receiver) return;
    starting = true;
    try {
      const started = await startOtlpReceiver({
        port: otlpPort(),
        signals: ['traces'],
        onExport: async (_signal, body) => {
          // A request outside any agent session (a chat title, a commit message) is no session's to charge.
          // Requests on Alfred's own models were charged by its provider when they were served.
          appendToSpool(spool, deduper.fresh(reader.ingest(body)).filter((r) => r.sessionId !== undefined && !isAlfredModel(r.model)));
          await charge();
        },
        onError: (err) => console.error('[alfred] Copilot usage export:', err),
      });
      if (disposed) await started.close();
      else receiver = started;
    } catch (err) {
      // Another window (or program) holds the port: that window's receiver writes the spool.
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') console.error('[alfred] the OTLP receiver could not start:', err);
    } finally {
      starting = false;
    }
  };

  /**
   * The marker says Copilot sends its usage here. Copilot reads its settings when it starts: the
   * marker is written only as this window starts, and removed as soon as the settings stop pointing here.
   */
  const updateMarker = (starting: boolean) => {
    const marker = path.join(usageHome(), EXPORT_MARKER_FILE);
    try {
      const pointed = copilotOtelPointsAt(otlpEndpoint());
      if (pointed && starting) {
        fs.mkdirSync(usageHome(), { recursive: true, mode: 0o700 });
        atomicWrite(marker, JSON.stringify({ endpoint: otlpEndpoint(), since: new Date().toISOString() }), { mode: 0o600, fsync: false });
      } else if (!pointed) {
        fs.rmSync(marker, { force: true });
      }
    } catch (err) {
      console.error('[alfred] could not record whether Copilot exports its usage:', err);
    }
  };

  let lastSize = -1;
  const poll = () => {
    const size = fs.statSync(spool, { throwIfNoEntry: false })?.size ?? -1;
    if (size === lastSize) return;
    lastSize = size;
    void charge();
  };

  updateMarker(true);
  void tryStart();
  const retry = setInterval(() => void tryStart(), RETRY_MS);
  const polling = setInterval(poll, POLL_MS);
  const config = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('github.copilot.chat.otel') || e.affectsConfiguration('alfred.usage')) updateMarker(false);
    if (e.affectsConfiguration('alfred.usage.otlpPort')) {
      void receiver?.close();
      receiver = undefined;
      void tryStart();
    }
  });
  return new vscode.Disposable(() => {
    disposed = true;
    clearInterval(retry);
    clearInterval(polling);
    config.dispose();
    void receiver?.close();
    receiver = undefined;
  });
}
