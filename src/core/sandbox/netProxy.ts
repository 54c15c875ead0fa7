/**
 * The proxy a sandboxed command's only way out goes through (netRun.ts): an HTTP proxy on a Unix
 * socket, outside the command's reach, that checks each connection's name against the role's
 * network rules (netRules.ts): HTTP CONNECT tunnels (HTTPS, and anything a client tunnels) and plain
 * HTTP requests with an absolute URL. A refused connection gets a 403 whose body says why, and is
 * reported to `onRefused`.
 */
import * as dns from 'node:dns';
import * as http from 'node:http';
import * as net from 'node:net';
import type { NetworkRules } from '../rules/roles/types';
import { hostDecision, localAddressProblem, normalHost, refusalReason } from './netRules';

export interface Refusal {
  host: string;
  port: number;
  /** `CONNECT`, or the plain request's method. */
  method: string;
  reason: string;
}

export interface NetProxyOptions {
  rules: NetworkRules;
  role: string;
  onRefused(refusal: Refusal): void;
  /** Where a name connects (tests: names served on loopback); undefined: the system's resolver. */
  hosts?: Readonly<Record<string, string>>;
}

export interface NetProxy {
  close(): Promise<void>;
}

/** Headers a proxy must not pass on (RFC 9110, 7.6.1), and the client's proxy credentials. */
const HOP_BY_HOP = ['connection', 'proxy-connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'upgrade'];

export function startNetProxy(socketPath: string, opts: NetProxyOptions): Promise<NetProxy> {
  /**
   * Where an allowed name is dialled: resolved once here and dialled by address (no second lookup to
   * rebind), refused when it leads to a local address (netRules.ts, localAddressProblem). The test map's names are taken as given.
   */
  const address = async (rawHost: string, port: number, method: string): Promise<{ address: string } | { refused: string }> => {
    const host = normalHost(rawHost);
    const mapped = opts.hosts?.[host];
    if (mapped) return { address: mapped };
    let found: string;
    try {
      found = net.isIP(host) ? host : (await dns.promises.lookup(host)).address;
    } catch (e) {
      return { refused: `Alfred: ${host} could not be resolved (${(e as Error).message})` };
    }
    const local = localAddressProblem(found, opts.rules.allow);
    if (!local) return { address: found };
    const reason = refusalReason(opts.role, host, `it resolves to ${found}, ${local}, which the allow list does not name`);
    opts.onRefused({ host, port, method, reason });
    return { refused: reason };
  };
  const refused = (host: string, port: number, method: string): string | undefined => {
    const decision = hostDecision(opts.rules, host);
    if (decision.allowed) return undefined;
    const reason = refusalReason(opts.role, host, decision.why);
    opts.onRefused({ host: normalHost(host), port, method, reason });
    return reason;
  };
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Alfred: this proxy takes absolute http:// URLs and CONNECT only.\n');
      return;
    }
    const port = Number(url.port) || 80;
    const reason = url.protocol === 'http:' ? refused(url.hostname, port, req.method ?? 'GET') : `Alfred: only http:// is proxied as a plain request, not ${url.protocol}`;
    if (reason) {
      res.writeHead(403, { 'content-type': 'text/plain', 'x-alfred-refused': normalHost(url.hostname) }).end(`${reason}\n`);
      return;
    }
    const headers = { ...req.headers };
    for (const h of HOP_BY_HOP) delete headers[h];
    req.pause();
    void address(url.hostname, port, req.method ?? 'GET').then((to) => {
      if ('refused' in to) {
        res.writeHead(403, { 'content-type': 'text/plain', 'x-alfred-refused': normalHost(url.hostname) }).end(`${to.refused}\n`);
        return;
      }
      const upstream = http.request({ host: to.address, port, method: req.method, path: `${url.pathname}${url.search}`, headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', (e) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`Alfred: could not reach ${url.hostname}: ${e.message}\n`);
      });
      req.pipe(upstream);
      req.resume();
    });
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? '');
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const [, host, portText] = target as unknown as [string, string, string];
    const port = Number(portText);
    const reason = refused(host, port, 'CONNECT');
    if (reason) {
      const body = `${reason}\n`;
      client.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nX-Alfred-Refused: ${normalHost(host)}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      return;
    }
    client.on('error', () => undefined);
    void address(host, port, 'CONNECT').then((to) => {
      if ('refused' in to) {
        const body = `${to.refused}\n`;
        client.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nX-Alfred-Refused: ${normalHost(host)}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
        return;
      }
      const upstream = net.connect(port, to.address, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', (e) => client.end(`HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nAlfred: could not reach ${host}: ${e.message}\n`));
      client.on('error', () => upstream.destroy());
    });
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve({
      close: () => new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
    }));
  });
}
