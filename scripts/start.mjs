// `npm start`: builds and packages Alfred, installs the VSIX into a private code-server (a real
// VS Code served to your browser), opens the sample workspace and prints the URL. Ctrl-C stops it all,
// and so does stopping npm itself (kill <pid of npm start>): see lib/untilStopped.mjs.
// Options: --port N (or ALFRED_PORT), --fresh (start again from a clean copy of the sample workspace).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { cacheRoot, ensureCodeServer, InstallError } from './lib/install.mjs';
import { freePort, installVsix, startCodeServer } from './lib/vscodeServer.mjs';
import { SAMPLE_WORKSPACE } from './lib/sandbox.mjs';
import { runUntilStopped } from './lib/untilStopped.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const fresh = args.includes('--fresh');
const portArg = args.includes('--port') ? Number(args[args.indexOf('--port') + 1]) : Number(process.env.ALFRED_PORT || 0);

function step(msg) {
  console.log(`[alfred] ${msg}`);
}

async function portIsFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer().once('error', () => resolve(false)).once('listening', () => srv.close(() => resolve(true)));
    srv.listen(port, '127.0.0.1');
  });
}

step('building and packaging the extension…');
const pack = spawnSync('npm', ['run', '-s', 'package'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
if (pack.status !== 0) process.exit(pack.status ?? 1);
const vsix = path.join(ROOT, 'dist', 'alfred.vsix');

let server;
try {
  server = await ensureCodeServer();
} catch (err) {
  if (!(err instanceof InstallError)) throw err;
  console.error(`[alfred] ${err.message}\n[alfred] Fix that and run npm start again; the install starts over cleanly.`);
  process.exit(1);
}
const home = path.join(cacheRoot(), 'start');
const workspace = path.join(home, 'sample-workspace');
if (fresh) fs.rmSync(workspace, { recursive: true, force: true });
if (!fs.existsSync(workspace)) {
  fs.cpSync(SAMPLE_WORKSPACE, workspace, { recursive: true });
  spawnSync('git', ['init', '-q'], { cwd: workspace });
}
const userDataDir = path.join(home, 'user-data');
const extensionsDir = path.join(home, 'extensions');
fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
const settings = path.join(userDataDir, 'User', 'settings.json');
if (!fs.existsSync(settings)) fs.writeFileSync(settings, JSON.stringify({ 'workbench.startupEditor': 'none' }, null, 2));

step('installing the VSIX into the private VS Code…');
installVsix(server, extensionsDir, userDataDir, vsix);

const port = portArg || ((await portIsFree(8080)) ? 8080 : await freePort());
const logFile = path.join(home, 'code-server.log');
const cs = await startCodeServer(server, { port, folder: workspace, userDataDir, extensionsDir, logFile });
const url = `${cs.url}/?folder=${encodeURIComponent(workspace)}`;
console.log(`
  Alfred is running in VS Code (code-server) on the sample workspace.

    Open:       ${url}
    Workspace:  ${workspace}
    CLI:        node ${path.relative(process.cwd(), path.join(ROOT, 'dist', 'cli', 'alfred.mjs')) || 'dist/cli/alfred.mjs'} status --workspace ${workspace}
    Log:        ${logFile}

  Look for the shield in the status bar and the Alfred icon in the activity bar. Ctrl-C stops everything.
  The Chat view (and @alfred in it) needs a language model: VS Code sends nothing until one is there.
  Add one with "Alfred: Add Provider" (a local Ollama or LM Studio is offered when it answers).
`);

runUntilStopped(cs, {
  say: step,
  onServerExit: (code) => console.error(`[alfred] code-server exited (code ${code}); see ${logFile}`),
});
