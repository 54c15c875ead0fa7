import { openHarness } from '../context';
import { json } from '../io';
import type { CliCommand } from './command';

/** `alfred status [--json]`: role, budget, the harness fingerprint, and where the state lives. */
export const statusCommand: CliCommand = {
  name: 'status',
  usage: 'alfred status [--json]',
  async run(args, io) {
    const h = await openHarness(args.workspace);
    const active = h.activeRole();
    const { line, session, status } = h.budget();
    const problems = h.problems();
    const fingerprint = h.fingerprint();
    if (args.json) {
      io.out(json({ workspace: h.workspaceFolder, stateDir: h.stateDir, role: active.role.name, from: active.from, session: session ?? null, signal: status.signal, line, problems: problems.length, fingerprint }));
      return 0;
    }
    io.out(`workspace  ${h.workspaceFolder}`);
    io.out(`role       ${active.role.name} (${active.from}, ${active.role.source})`);
    io.out(`budget     ${line}`);
    io.out(`state      ${h.stateDir}`);
    io.out(`harness    ${fingerprint.id} (alfred status --json lists its components)`);
    if (problems.length) io.out(`problems   ${problems.length} (alfred roles)`);
    return 0;
  },
};
