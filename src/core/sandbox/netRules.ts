/**
 * Whether a role's sandboxed commands may reach a network name (roles/types.ts, NetworkRules): `deny`
 * wins over `allow`; `*.name` matches the name's subdomains (not the name itself), `*` every name.
 * Pure; the proxy (netProxy.ts) asks it for each connection.
 */
import type { NetworkRules } from '../roles/types';

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
