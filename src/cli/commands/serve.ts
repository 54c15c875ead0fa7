import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspaceHarness } from '../../core/integrations/hooks/openWorkspace';
import { startHookServer, type HookServer } from '../../core/integrations/hooks/server';
import { ServerBuild } from '../../core/integrations/hooks/serverBuild';
import { alfredHome } from '../../core/base/state/paths';
import { alfredVersion, builtinRolesDir } from '../context';
import { UsageError } from '../io';
import { STARTING_FILE } from '../serverStart';
import type { CliCommand } from './command';

/** How long a server started on demand waits for a call before it leaves. */
const ON_DEMAND_IDLE_SEC = 300;
/** How often a server that may leave looks at its idle time, its socket and its files. */
const CHECK_EVERY_MS = 5_000;
const ASKED = 'asked to stop';

/**
 * `alfred serve`: the resident hook server in the foreground, for agents in a terminal without VS Code
 * open (the extension runs the same server while it is active). Ctrl-C stops it. `--idle-exit SECONDS`
 * stops it after that long without a call. `--on-demand` is how a hook call that found no server
 * starts one (src/cli/serverStart.ts): it leaves after 5 idle minutes (unless --idle-exit says
 * otherwise), as soon as its socket is removed or taken over or its files are rebuilt, and, at once,
 * when a caller of another build asks, so that one of that build takes its place.
 */
export const serveCommand: CliCommand = {
  name: 'serve',
  usage: 'alfred serve [--idle-exit SECONDS] [--on-demand]   (answers `alfred hook` calls from a running process; Ctrl-C stops)',
  async run(args, io) {
    const idleSec = args.idleExit !== undefined ? Number(args.idleExit) : args.onDemand ? ON_DEMAND_IDLE_SEC : undefined;
    if (idleSec !== undefined && !(Number.isInteger(idleSec) && idleSec > 0)) throw new UsageError('alfred serve: --idle-exit needs a positive whole number of seconds.');
    const roles = builtinRolesDir();
    const version = alfredVersion();
    // The build as the launcher names it: its runtime as started, and this command line's file.
    const build = new ServerBuild({ runtime: process.argv0, cli: process.argv[1] ?? '' });
    let stop: (why: string) => void = () => undefined;
    const stopped = new Promise<string>((resolve) => { stop = resolve; });
    // Known once listening; a caller of another build can only ask after that.
    const serving: { server?: HookServer } = {};
    const marker = path.join(alfredHome(), 'run', STARTING_FILE);
    // A start that throws (no permission, a path too long for a socket) leaves the marker until it is
    // stale (serverStart.ts): hook calls meanwhile start no other that would fail the same way.
    const started = await startHookServer({
      openHarness: (folder, env, cwd, traceLater) => openWorkspaceHarness(folder, { builtinRolesDir: roles, version, env, cwd, traceLater }),
      build,
      ...(args.onDemand ? {
        onOtherBuild: (why: string) => {
          // Closed at once: the socket and port files go before the caller reads the refusal.
          void serving.server?.close();
          stop(`a caller of ${why} asked`);
        },
      } : {}),
    });
    // A server answers: the next call that finds none may start another.
    if (args.onDemand) fs.rmSync(marker, { force: true });
    if (started.kind === 'busy') {
      io.err(`alfred serve: another hook server is already answering on ${started.socketPath} (VS Code with Alfred, or another \`alfred serve\`).`);
      return 1;
    }
    const { server } = started;
    serving.server = server;
    const tcp = server.nativePort === undefined ? '' : ` and 127.0.0.1:${server.nativePort}`;
    io.out(`alfred serve: answering hook calls on ${server.socketPath}${tcp} (pid ${process.pid}). Ctrl-C stops.`);
    const checks = idleSec === undefined ? undefined : setInterval(() => {
      if (args.onDemand && !server.ownsSocket()) stop('its socket was removed or taken over');
      else if (args.onDemand && build.changed()) stop('its files were rebuilt');
      else if (server.idleFor() >= idleSec * 1000) stop(`no call for ${idleSec} s`);
      else if (args.onDemand) server.republish();
    }, Math.min(CHECK_EVERY_MS, idleSec * 250));
    const onSignal = () => stop(ASKED);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const why = await stopped;
    clearInterval(checks);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await server.close();
    io.out(why === ASKED ? 'alfred serve: stopped.' : `alfred serve: stopped: ${why}.`);
    return 0;
  },
};
