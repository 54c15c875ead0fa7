/**
 * Times agent sessions without an editor for hookSession.bench.ts, spawned by a small process of its
 * own as bench/spawnTimer.mjs does (and for the same reason). Each session starts with no hook server:
 * its calls spawn the launcher one after another, each next to a bare `node -e 0` in an order the
 * caller shuffles (bench/util.ts, roundOrder); the first call starts the server the later ones use.
 * After each session an untimed call (ALFRED_HOOK_DEBUG) names the server that answered, which is
 * stopped (SIGTERM) and waited for, so that the next session starts without one again.
 *
 * Between two calls of a session it waits `pauseMs`, as an agent waits for its model.
 * Standard input, JSON: { warmup, sessions, calls, pauseMs, ways: { bare, hook: { file, args, env, input } },
 * orders (one per call of every session, warm-up included), workspaces (one per session), portFile,
 * socketFile }. `input` may hold `{n}` and `{ts}`, as in spawnTimer.mjs, and `{ws}`: the session's
 * workspace, which is also the hook's folder (each session a project of its own, its budget too). Standard output, JSON: { times: { bare: ms[], hook: ms[] },
 * byCall: ms[][] (hook times by position in the session), published: boolean[][] (whether a server's
 * port file was there before each call) }, the warm-up sessions left out.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { warmup, sessions, calls, pauseMs, ways, orders, workspaces, portFile, socketFile } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const times = { bare: [], hook: [] };
const byCall = Array.from({ length: calls }, () => []);
const published = [];
let n = 0;
let ws = '';

function run(name, extraEnv = {}) {
  const way = ways[name];
  const input = way.input?.replaceAll('{n}', String(++n)).replaceAll('{ts}', new Date().toISOString()).replaceAll('{ws}', ws);
  const t0 = process.hrtime.bigint();
  const r = spawnSync(way.file, way.args, { env: { ...way.env, ...extraEnv }, cwd: way.input ? ws : undefined, input, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0 || /permissionDecision/.test(r.stdout)) throw new Error(`${name} exited ${r.status}: ${r.stdout} ${r.stderr} ${r.error ?? ''}`);
  return { ms, stderr: r.stderr };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `pid` still runs (a zombie no parent reaped yet does not). */
function alive(pid) {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Stops the server that answers now, and waits until it and its socket are gone. */
async function stopServer() {
  const { stderr } = run('hook', { ALFRED_HOOK_DEBUG: '1' });
  const pid = Number(/answered by the hook server \(pid (\d+)\) on the launcher's fast path/.exec(stderr)?.[1]);
  if (!pid) throw new Error(`the session did not end on the fast path: ${stderr}`);
  process.kill(pid, 'SIGTERM');
  for (const deadline = Date.now() + 20_000; alive(pid) || existsSync(socketFile);) {
    if (Date.now() > deadline) throw new Error(`server ${pid} did not stop`);
    await sleep(20);
  }
}

for (let s = 0; s < warmup + sessions; s++) {
  if (existsSync(portFile) || existsSync(socketFile)) throw new Error('a hook server runs before the session');
  ws = workspaces[s];
  const up = [];
  for (let k = 0; k < calls; k++) {
    if (k > 0) await sleep(pauseMs);
    up.push(existsSync(portFile));
    for (const name of orders[s * calls + k]) {
      const { ms } = run(name);
      if (s < warmup) continue;
      times[name].push(ms);
      if (name === 'hook') byCall[k].push(ms);
    }
  }
  if (s >= warmup) published.push(up);
  await stopServer();
}
process.stdout.write(JSON.stringify({ times, byCall, published }));
