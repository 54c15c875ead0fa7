// Starts the private code-server (VS Code 1.139 served to a browser) that `npm start` and the
// integration / end-to-end tests use; install.mjs installs it.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Installs a VSIX into an extensions folder, as a user would. */
export function installVsix(server, extensionsDir, userDataDir, vsix) {
  execFileSync(server.node, [server.entry, '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir,
    '--install-extension', vsix, '--force'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * Starts code-server in its own process group so that stop() ends its extension hosts too.
 * Resolves once /healthz answers (the wait is sized for a loaded 2-core machine); when it never does,
 * the group is stopped before the error is thrown.
 */
export async function startCodeServer(server, { port, folder, userDataDir, extensionsDir, env = {}, extraArgs = [], logFile }) {
  fs.mkdirSync(userDataDir, { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  const args = [server.entry, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry',
    '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
    '--reconnection-grace-time', '5', '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir,
    ...extraArgs];
  if (folder) args.push(folder);
  const out = logFile ? fs.openSync(logFile, 'a') : 'ignore';
  const child = spawn(server.node, args, {
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, ...env },
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => {
    try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`code-server exited with code ${child.exitCode}${logFile ? ` (log: ${logFile})` : ''}`);
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
      if (res.ok) break;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) {
      stop();
      throw new Error(`code-server did not answer /healthz within 120 s${logFile ? ` (log: ${logFile})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, child, stop };
}
