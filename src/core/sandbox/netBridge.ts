/**
 * What runs first inside a sandbox without a network of its own (netRun.ts): a few lines of Node
 * (`node -e BRIDGE <socket> <command…>`) that listen on the namespace's loopback and carry each
 * connection to the proxy's Unix socket outside, then run the command with the proxy variables set
 * (HTTP_PROXY, HTTPS_PROXY and their lower-case forms, ALL_PROXY; loopback left direct), and end
 * as it ends. The command has no other way out: the namespace has no interface but its loopback.
 * Where Alfred's hook server listens (its sandboxed port file names a loopback port), that port is
 * carried too, to a second socket of the runner's: a nested agent's hooks reach the server as before.
 */
export const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy'] as const;

export const BRIDGE = `
const net = require('net'), { spawn } = require('child_process'), { constants } = require('os');
const [sock, hookSock, hookPort, file, ...args] = process.argv.slice(1);
const carry = (to) => (c) => {
  const u = net.connect(to);
  c.pipe(u); u.pipe(c);
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
};
if (hookSock !== '-') net.createServer({ allowHalfOpen: true }, carry(hookSock)).on('error', () => undefined).listen(Number(hookPort), '127.0.0.1');
const server = net.createServer(carry(sock));
server.listen(0, '127.0.0.1', () => {
  const url = 'http://127.0.0.1:' + server.address().port;
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  for (const k of ${JSON.stringify(PROXY_VARIABLES)}) env[k] = url;
  env.NO_PROXY = env.no_proxy = 'localhost,127.0.0.1,::1';
  const child = spawn(file, args, { stdio: 'inherit', env });
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('error', (e) => { process.stderr.write(file + ': ' + e.message + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(signal ? 128 + (constants.signals[signal] || 0) : code));
});
`;
