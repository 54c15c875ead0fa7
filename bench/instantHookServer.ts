/**
 * A hook server that decides nothing: it reads a request of the launcher's fast path
 * (src/core/integrations/hooks/nativeProtocol.ts) and answers "allowed, nothing to say" at once. hook.bench.ts
 * runs the launcher against it to show what the fast path costs before Alfred does any work: bash's
 * start, the launcher script, and one round trip to an idle process. Usage: `<alfred home>`; prints
 * `ready` once `<alfred home>/run/hook.tcp` names its port.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { hasToken, nativeAnswer, parseNativeHeader, PORT_FILE } from '../src/core/integrations/hooks/nativeProtocol';

const home = process.argv[2];
if (!home) throw new Error('usage: instantHookServer.ts <alfred home>');
const token = randomBytes(32).toString('hex');
const proof = randomBytes(32).toString('hex');

const server = net.createServer((socket) => {
  let buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    const end = buffer.indexOf('\n\n');
    if (end === -1) return;
    const [first = '', ...lines] = buffer.subarray(0, end).toString('utf8').split('\n');
    const header = hasToken(first, token) ? parseNativeHeader(lines) : 'bad token';
    if (typeof header === 'string') return void socket.end(`fallback ${header}\n`);
    if (buffer.length - end - 2 < header.length) return;
    socket.removeAllListeners('data');
    socket.end(nativeAnswer({ stdout: '', stderr: '', exitCode: 0 }, process.pid, proof));
  });
  socket.on('error', () => socket.destroy());
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as net.AddressInfo;
  fs.mkdirSync(path.join(home, 'run'), { recursive: true });
  fs.writeFileSync(path.join(home, 'run', PORT_FILE), `${port} ${token} ${proof}\n`, { mode: 0o600 });
  console.log('ready');
});
process.on('SIGINT', () => server.close(() => process.exit(0)));
