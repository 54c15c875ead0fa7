import type { Role } from '../../core/rules/roles/types';
import { openHarness } from '../context';
import { json } from '../io';
import type { CliCommand } from './command';

export function roleJson(r: Role) {
  return {
    name: r.name, source: r.source, inherits: r.inherits ?? null, shell_policy: r.shellPolicy,
    tools: { allowed: r.tools.allowed ?? null, denied: r.tools.denied },
    limits: {
      max_context_tokens: r.limits.maxContextTokens, max_shell_invocations: r.limits.maxShellInvocations,
      max_cost_usd: r.limits.maxCostUsd, warn_at_percent: r.limits.warnAtPercent, block_at_percent: r.limits.blockAtPercent,
    },
  };
}

/** `alfred roles [--json]`: every role with its source, and every problem with its path and key. */
export const rolesCommand: CliCommand = {
  name: 'roles',
  usage: 'alfred roles [--json]',
  async run(args, io) {
    const h = await openHarness(args.workspace);
    const { roles, problems } = h.roles();
    if (args.json) {
      io.out(json({ roles: [...roles.values()].map(roleJson), problems: problems.map(({ path, key, message }) => ({ path, key, message })) }));
      return 0;
    }
    const active = h.activeRole().role.name;
    for (const r of roles.values()) {
      io.out(`${r.name === active ? '*' : ' '} ${r.name.padEnd(20)} ${r.source.padEnd(16)} ${r.description}`);
    }
    for (const p of problems) io.err(`${p.severity}: ${p.path}${p.key ? ` [${p.key}]` : ''}: ${p.message}`);
    return 0;
  },
};
