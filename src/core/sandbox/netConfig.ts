/**
 * What a network-restricted sandbox run is given (netRun.ts reads it): the role's rules and where the
 * run keeps its folder, as the words before bwrap. Apart from netRun.ts so that planning a command
 * (every hook call) loads no socket or process module.
 */
import type { NetworkRules } from '../rules/roles/types';

export interface NetConfig extends NetworkRules {
  role: string;
  /** The folder every plan hides (wrap.ts); each run makes its own folder in it. */
  netDir: string;
  /** The workspace's state folder, where refusals are recorded; none: said on standard error only. */
  stateDir?: string;
  /** Names served elsewhere (tests: on loopback). */
  hosts?: Record<string, string>;
  /** The hook server's sandboxed port file (`<port> <token> <proof>`): that loopback port is carried into the namespace. */
  hookPortFile?: string;
}

export function isNetConfig(v: unknown): v is NetConfig {
  const c = v as Partial<NetConfig> | null;
  const strings = (x: unknown) => Array.isArray(x) && x.every((s) => typeof s === 'string');
  return typeof c === 'object' && c !== null && strings(c.allow) && strings(c.deny) && typeof c.role === 'string' && typeof c.netDir === 'string'
    && (c.stateDir === undefined || typeof c.stateDir === 'string') && (c.hookPortFile === undefined || typeof c.hookPortFile === 'string')
    && (c.hosts === undefined || (typeof c.hosts === 'object' && c.hosts !== null && Object.values(c.hosts).every((h) => typeof h === 'string')));
}

/** The words before bwrap: `runner` (node and the runner's file), `--net`, the config, `--`. */
export function netRunnerWords(runner: readonly string[], config: NetConfig): string[] {
  return [...runner, '--net', JSON.stringify(config), '--'];
}
