/**
 * The network hosts a package's sources reference: the host of every URL (`https://api.x.com/…`,
 * `wss://…`), and quoted strings that are a host name by themselves (`"api.x.com"`, `'10.0.0.1:8080'`).
 * Nothing is left out for looking harmless (`example.com` is reported too): a reader decides.
 *
 * A bare name counts only when it is a whole quoted string, lowercase, ending in a real top-level
 * domain (the `tlds` list): `a.b` member accesses are not quoted, and names whose last label is both a
 * domain and usually a property (`user.id`) or, after one label, a file extension (`README.md`) are
 * not taken for hosts.
 */
import tldList from 'tlds';
import type { McpHost } from './types';

const TLDS = new Set<string>(tldList);

/** Top-level domains that, after a single other label, are far more often a file's extension (`README.md`, `build.sh`). */
const FILE_TLDS = new Set(['ac', 'ai', 'am', 'app', 'bz', 'cc', 'do', 'in', 'la', 'md', 'mk', 'mov', 'ms', 'pl', 'ps', 'py', 'rs', 'sh', 'so', 'zip']);
/** Top-level domains that are far more often a property (`user.id`, `options.name`, `key.foo`), however many labels precede. */
const PROPERTY_TLDS = new Set(['bar', 'data', 'date', 'email', 'foo', 'host', 'id', 'link', 'map', 'name', 'new', 'next', 'now', 'one', 'page',
  'post', 'read', 'run', 'style', 'target', 'tel', 'text', 'type', 'video']);

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** scheme://[userinfo@]host — an IPv6 literal in brackets or a dotted name. */
const URL_HOST = new RegExp(String.raw`\b(?:https?|wss?|ftps?):\/\/(?:[^\s/'"\x60@<>]*@)?(\[[0-9a-f:.]+\]|${LABEL}(?:\.${LABEL})*)`, 'gi');
/**
 * A string literal that is only a host name (or IPv4 address), with an optional port and path. Quotes,
 * not backticks: comments quote code in backticks (`m.post`), and a template's URL has its scheme.
 */
const QUOTED_HOST = new RegExp(String.raw`(['"])((?:${LABEL}\.)+[a-z]{2,63}|(?:\d{1,3}\.){3}\d{1,3})(?::\d{1,5})?(?:\/[^'"\s]*)?\1`, 'g');
const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;

function isIpv4(host: string): boolean {
  return IPV4.test(host) && host.split('.').every((o) => Number(o) <= 255);
}

/** Whether a quoted name is a host: an IPv4 address, or a name ending in a real top-level domain and not a file or property. */
export function isBareHost(name: string): boolean {
  if (isIpv4(name)) return true;
  const labels = name.split('.');
  const tld = labels[labels.length - 1]!;
  if (!TLDS.has(tld) || PROPERTY_TLDS.has(tld)) return false;
  return !(labels.length === 2 && FILE_TLDS.has(tld));
}

/** The hosts one source text references. */
export function hostsInText(text: string): Set<string> {
  const hosts = new Set<string>();
  for (const m of text.matchAll(URL_HOST)) {
    const host = m[1]!.toLowerCase();
    if (host.startsWith('[') || host.includes('.') || host === 'localhost' || isIpv4(host)) hosts.add(host);
  }
  for (const m of text.matchAll(QUOTED_HOST)) {
    if (isBareHost(m[2]!)) hosts.add(m[2]!);
  }
  return hosts;
}

/** Hosts across files, deduplicated, each with the files it appears in; sorted by host, files sorted. */
export function scanHosts(files: readonly { path: string; text: string }[]): McpHost[] {
  const byHost = new Map<string, Set<string>>();
  for (const f of files) {
    for (const host of hostsInText(f.text)) {
      const set = byHost.get(host) ?? new Set<string>();
      set.add(f.path);
      byHost.set(host, set);
    }
  }
  return [...byHost.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([host, set]) => ({ host, files: [...set].sort() }));
}

/** The sources scanned: JavaScript and TypeScript that runs (declaration files hold no code). */
export function isScannedSource(path: string): boolean {
  return /\.(?:js|mjs|cjs|jsx|ts|mts|cts|tsx)$/i.test(path) && !/\.d\.[mc]?ts$/i.test(path);
}
