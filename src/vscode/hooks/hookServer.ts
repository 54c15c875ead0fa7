import * as vscode from 'vscode';
import { openWorkspaceHarness } from '../../core/integrations/hooks/openWorkspace';
import { startHookServer, type HookServer } from '../../core/integrations/hooks/server';
import { ServerBuild } from '../../core/integrations/hooks/serverBuild';

/** How often a window that does not serve tries again (another window's server may have gone). */
const RETRY_MS = 30_000;

/**
 * Answers `alfred hook` calls from this extension host while the extension is active
 * (src/core/integrations/hooks/server.ts), so an agent's tool call does not start the whole command line. Harnesses
 * are opened as the command line opens them, with this installation's built-in roles. When another
 * window's server (or `alfred serve`) holds the socket, this one leaves it alone and tries again every
 * 30 s; it also notices when its socket was removed or taken over, and starts again.
 */
export function registerHookServer(context: vscode.ExtensionContext): vscode.Disposable {
  const builtinRolesDir = vscode.Uri.joinPath(context.extensionUri, 'roles').fsPath;
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? 'unknown');
  // What the launcher this window writes runs (launcher.ts): a launcher rewritten by a newer install is not answered here.
  const build = new ServerBuild({ runtime: process.execPath, cli: vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli', 'alfred.cjs').fsPath });
  let server: HookServer | undefined;
  let disposed = false;
  let starting = false;
  let reported = false;

  const tryStart = async () => {
    if (disposed || starting || server?.ownsSocket()) return;
    starting = true;
    try {
      await server?.close();
      server = undefined;
      const started = await startHookServer({
        openHarness: (folder, env, cwd, traceLater) => openWorkspaceHarness(folder, { builtinRolesDir, version, env, cwd, traceLater }),
        options: { vscodeVersion: vscode.version },
        build,
      });
      if (started.kind === 'listening') {
        if (disposed) await started.server.close();
        else server = started.server;
      }
    } catch (err) {
      // A server that cannot listen (path too long, no permission) leaves hooks to the command line.
      if (!reported) console.error('[alfred] the hook server could not start; hooks run the command line instead:', err);
      reported = true;
    } finally {
      starting = false;
    }
  };

  void tryStart();
  const timer = setInterval(() => void tryStart(), RETRY_MS);
  return new vscode.Disposable(() => {
    disposed = true;
    clearInterval(timer);
    void server?.close();
    server = undefined;
  });
}
