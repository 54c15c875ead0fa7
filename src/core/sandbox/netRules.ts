/**
 * Whether a role's sandboxed commands may reach a network name (rules/roles/types.ts, NetworkRules): `deny`
 * wins over `allow`; `*.name` matches the name's subdomains (not the name itself), `*` every name.
 * Pure; the proxy (netProxy.ts) asks it for each connection.
 */
import type { NetworkRules } from '../rules/roles/types';

/** A host as a connection names it: lower case, without a trailing dot or IPv6 brackets. */
export function normalHost(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '').replace(/^\[(.*)\]$/, '$1');
}

export function matchesDomain(pattern: string, host: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return pattern === host;
}

export type HostDecision = { allowed: true } | { allowed: false; why: string };

export function hostDecision(rules: NetworkRules, rawHost: string): HostDecision {
  const host = normalHost(rawHost);
  const denied = rules.deny.find((p) => matchesDomain(p, host));
  if (denied) return { allowed: false, why: `its [sandbox.network] deny list names it ("${denied}")` };
  if (rules.allow.some((p) => matchesDomain(p, host))) return { allowed: true };
  return { allowed: false, why: rules.allow.length ? `it is not in its [sandbox.network] allow list (${rules.allow.join(', ')})` : 'it allows no network name ([sandbox.network] allow = [])' };
}

/** Whether the rules leave the network as it is: every name allowed, none denied (no namespace, no proxy). */
export function unrestricted(rules: NetworkRules | undefined): boolean {
  return rules === undefined || (rules.allow.includes('*') && rules.deny.length === 0);
}

/** What a refused command reads: what was refused, why, and what the agent can do about it. */
export function refusalReason(role: string, host: string, why: string): string {
  return `Alfred (role ${role}): the sandbox refused a connection to ${normalHost(host)}: ${why}. `
    + `If the task needs ${normalHost(host)}, ask the user to add it to the role's [sandbox.network] allow list, or to switch to a role that allows it.`;
}

/**
 * Why dialling `address` (where an allowed name resolved) is refused, or undefined: a name must not
 * lead to this machine or its networks (loopback, link-local with the clouds' metadata service,
 * private ranges, unspecified), unless the allow list names that address itself. Without this, a
 * name an attacker controls in DNS (or an allowed one rebound) reaches Alfred's hook server or a
 * local service.
 */
export function localAddressProblem(address: string, allow: readonly string[]): string | undefined {
  if (allow.includes(address)) return undefined;
  const v4 = /^(?:::ffff:)?(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    if (a === 127) return 'a loopback address';
    if (a === 0) return 'an unspecified address';
    if (a === 169 && b === 254) return 'a link-local address';
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127)) return 'a private address';
    return undefined;
  }
  const v6 = address.toLowerCase();
  if (v6 === '::1') return 'a loopback address';
  if (v6 === '::') return 'an unspecified address';
  if (/^fe[89ab]/.test(v6)) return 'a link-local address';
  if (/^f[cd]/.test(v6)) return 'a private address';
  return undefined;
}
