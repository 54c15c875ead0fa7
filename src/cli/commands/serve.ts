import { openWorkspaceHarness } from '../../core/hooks/openWorkspace';
import { startHookServer } from '../../core/hooks/server';
import { alfredVersion, builtinRolesDir } from '../context';
import type { CliCommand } from './command';

/**
 * `alfred serve`: the resident hook server in the foreground, for agents in a terminal without VS Code
 * open (the extension runs the same server while it is active). Ctrl-C stops it.
 */
export const serveCommand: CliCommand = {
  name: 'serve',
  usage: 'alfred serve   (answers `alfred hook` calls from a running process; Ctrl-C stops)',
  async run(_args, io) {
    const roles = builtinRolesDir();
    const version = alfredVersion();
    const started = await startHookServer({ openHarness: (folder, env, cwd, traceLater) => openWorkspaceHarness(folder, { builtinRolesDir: roles, version, env, cwd, traceLater }) });
    if (started.kind === 'busy') {
      io.err(`alfred serve: another hook server is already answering on ${started.socketPath} (VS Code with Alfred, or another \`alfred serve\`).`);
      return 1;
    }
    const { server } = started;
    const tcp = server.nativePort === undefined ? '' : ` and 127.0.0.1:${server.nativePort}`;
    io.out(`alfred serve: answering hook calls on ${server.socketPath}${tcp} (pid ${process.pid}). Ctrl-C stops.`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await server.close();
    io.out('alfred serve: stopped.');
    return 0;
  },
};
