import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { alfredChecks, doctorText, ledgerCheck, probeProviders, sandboxCheck, teamCheck } from '../../../src/core/doctor/report';
import { useLedgerBackend } from '../../../src/core/ledger/ledgerBackend';
import { openLedgerBackend } from '../../../src/core/ledger/pgLedger/open';
import type { ProviderConfig } from '../../../src/core/models/providers/types';
import { makeEnv } from '../harness/helpers';

const provider = (name: string, extra: Partial<ProviderConfig> = {}): ProviderConfig => ({
  name, protocol: 'openai', baseUrl: `http://127.0.0.1:9/${name}`, key: { kind: 'env', variable: 'KEY' }, models: 'list', ...extra,
});

describe('doctor: providers', () => {
  it('every provider is probed at once; a missing key, an unreachable endpoint and a configured model the endpoint lacks are each named', async () => {
    let inFlight = 0;
    let most = 0;
    const checks = await probeProviders([
      provider('ok'),
      provider('nokey', { key: { kind: 'env', variable: 'NOPE' } }),
      provider('down'),
      provider('partial', { models: [{ id: 'a' }, { id: 'b' }] }),
    ], {
      key: async (p) => (p.name === 'nokey' ? { ok: false, reason: 'the environment variable NOPE is not set' } : { ok: true, key: 'k' }),
      list: async (p) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 20));
        inFlight--;
        if (p.name === 'down') throw new Error('connection refused');
        return p.name === 'partial' ? [{ id: 'a' }] : [{ id: 'm1' }, { id: 'm2' }];
      },
    });
    assert.equal(most, 3, 'the three with keys were probed in parallel');
    assert.deepEqual(checks.map((c) => [c.name, c.state, c.detail]), [
      ['ok', 'ok', 'http://127.0.0.1:9/ok: reachable, 2 listed'],
      ['nokey', 'fail', 'no key: the environment variable NOPE is not set'],
      ['down', 'fail', 'http://127.0.0.1:9/down: connection refused'],
      ['partial', 'warn', 'http://127.0.0.1:9/partial: reachable, 2 configured, not listed by the endpoint: b'],
    ]);
    assert.ok(checks.filter((c) => c.name !== 'nokey').every((c) => typeof c.ms === 'number'));
  });

  it('a probe that hangs ends at the timeout as a failure', async () => {
    const [check] = await probeProviders([provider('slow')], {
      key: async () => ({ ok: true, key: undefined }),
      list: (_p, _k, signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('timed out')))),
    }, 50);
    assert.deepEqual([check!.state, check!.detail], ['fail', 'http://127.0.0.1:9/slow: timed out']);
  });
});

describe('doctor: Alfred', () => {
  it('the sandbox check says what commands may write and reach: strict adds no Unix socket where Alfred has a filter', () => {
    const base = { state: 'kernel', mode: 'strict', role: 'locked' } as const;
    assert.deepEqual(sandboxCheck({ ...base, kind: 'bwrap', noUnixSockets: true }), {
      name: 'sandbox', state: 'ok',
      detail: 'shell commands run in bwrap: they write only the workspace and their own copies of the temporary folders and the download caches; strict: they open no Unix socket',
    });
    assert.equal(sandboxCheck({ ...base, mode: 'auto', kind: 'bwrap', allowWrite: ['~/notes'], network: { kind: 'filtered', rules: { allow: ['registry.npmjs.org', '*.github.com'], deny: ['gist.github.com'] } } }).detail,
      'shell commands run in bwrap: they write only the workspace and their own copies of the temporary folders and the download caches, and ~/notes; '
      + 'network only through Alfred\'s proxy: registry.npmjs.org, *.github.com, never gist.github.com');
    assert.equal(sandboxCheck({ ...base, mode: 'auto', kind: 'bwrap', network: { kind: 'filtered', rules: { allow: [], deny: [] } } }).detail,
      'shell commands run in bwrap: they write only the workspace and their own copies of the temporary folders and the download caches; network only through Alfred\'s proxy: no network name');
    assert.equal(sandboxCheck({ ...base, kind: 'sandbox-exec', network: { kind: 'open', why: 'sandbox-exec has no network namespace' } }).detail,
      'shell commands run in sandbox-exec: they write only the workspace, the temporary folders and the download caches; network as it is (sandbox-exec has no network namespace)');
  });

  it('a refusal says whether there is no sandbox or one that cannot do what the role asks', () => {
    const why = 'bubblewrap cannot set up the strict sandbox here: bwrap: prctl(PR_SET_SECCOMP): Invalid argument';
    assert.deepEqual(sandboxCheck({ state: 'refused', mode: 'strict', role: 'locked', kind: 'bwrap', why }), {
      name: 'sandbox', state: 'fail', detail: `not usable here (${why}): shell calls are refused`,
    });
    assert.deepEqual(sandboxCheck({ state: 'refused', mode: 'required', role: 'locked', why: 'bwrap is not installed' }), {
      name: 'sandbox', state: 'fail', detail: 'none here (bwrap is not installed): shell calls are refused',
    });
  });

  it('roles, governance, hook server, sandbox and state folder, with no model anywhere', async () => {
    const env = makeEnv({ files: { '.alfred/roles/broken.toml': '[role]\nname = "broken"\n[limits]\nmax_cost_usd = "lots"\n' } });
    const socket = path.join(env.root, 'hooks.sock');
    const checks = await alfredChecks({ harness: env.harness, governance: [], hookSocket: socket });
    assert.deepEqual(checks.map((c) => c.name), ['roles', 'hook server', 'sandbox', 'VS Code sandbox', 'state folder', 'ledger', 'MCP servers']);
    assert.deepEqual(checks[5], { name: 'ledger', state: 'ok', detail: `in the state folder's files (${env.harness.stateDir})` });
    assert.equal(checks[0]!.state, 'warn');
    assert.match(checks[0]!.detail, /broken\.toml/);
    assert.deepEqual([checks[1]!.state, checks[1]!.detail], ['ok', 'none running now: the next hook call starts one (slower for that call, same answers)']);
    assert.equal(checks[4]!.state, 'ok');
    const server = net.createServer().listen(socket);
    await new Promise((r) => server.once('listening', r));
    try {
      const again = await alfredChecks({ harness: env.harness, governance: [], hookSocket: socket });
      assert.equal(again[1]!.state, 'ok');
    } finally {
      server.close();
    }
    fs.chmodSync(env.harness.stateDir, 0o500);
    try {
      const readOnly = await alfredChecks({ harness: env.harness, governance: [], hookSocket: socket });
      if (process.getuid?.() !== 0) assert.equal(readOnly[4]!.state, 'fail');
    } finally {
      fs.chmodSync(env.harness.stateDir, 0o700);
    }
  });

  it('a governance row not in force names its reasons in words; a client newer than tested is a warning, one not installed is left out', async () => {
    const env = makeEnv();
    const checks = await alfredChecks({
      harness: env.harness, hookSocket: path.join(env.root, 'none.sock'),
      governance: [{ id: 'codex', label: 'Codex', hookFile: '.codex/hooks.json', installed: true, state: 'not-in-force', reasons: [{ code: 'codex-hooks-unreviewed', events: ['PreToolUse'] }], notes: [], warnings: [] }],
      clients: [
        { id: 'codex', label: 'Codex', program: 'codex', testedWith: '0.169.0', path: '/bin/codex', version: '0.170.0', verdict: 'newer' },
        { id: 'gemini', label: 'Gemini CLI', program: 'gemini', testedWith: '0.61.0', verdict: 'not-installed' },
      ],
    });
    assert.deepEqual(checks.find((c) => c.name === 'governance: Codex'), {
      name: 'governance: Codex', state: 'fail',
      detail: '.codex/hooks.json is written but not in force: Codex has not recorded your review of Alfred\'s hooks (PreToolUse), so it skips them: run codex in this folder and approve them in /hooks',
    });
    assert.deepEqual(checks.filter((c) => c.name.startsWith('client: ')), [{
      name: 'client: Codex', state: 'warn', detail: '0.170.0 at /bin/codex is newer than 0.169.0, the version Alfred was tested with: its hook inputs or answers may have changed',
    }]);
  });

  it('a ledger backend or team ledger set so that it cannot be used fails, saying why', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-doctor-'));
    const typo = openLedgerBackend({ stateDir: dir, workspaceFolder: dir, env: { ALFRED_LEDGER_BACKEND: 'postgress' } });
    try {
      assert.deepEqual(await ledgerCheck(typo, dir), {
        name: 'ledger', state: 'fail',
        detail: 'ALFRED_LEDGER_BACKEND=postgress is not a ledger backend (files or postgres): every call is refused until it is fixed',
      });
      assert.deepEqual(await teamCheck(undefined, 'ALFRED_LEDGER_URL holds a password', 'coder'), {
        name: 'team ledger', state: 'fail', detail: 'ALFRED_LEDGER_URL holds a password: every call is refused until it is fixed',
      });
      assert.equal(await teamCheck(undefined, undefined, 'coder'), undefined, 'no team ledger asked for: no line');
    } finally {
      useLedgerBackend(dir, undefined);
    }
  });

  it('the text names what is missing when no provider is configured', () => {
    const text = doctorText({ providers: [], alfred: [{ name: 'state folder', state: 'ok', detail: '/x is writable' }] });
    assert.equal(text, 'Providers\n  ! no provider configured: add one to alfred.providers (an OpenAI-compatible or Anthropic endpoint, its key as $VAR or secret:NAME)\n\nAlfred\n  ✓ state folder: /x is writable');
  });
});
