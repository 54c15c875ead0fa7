/**
 * The one-line form an agent's terminal command is rewritten into: run with `sh -c` as a terminal
 * would, it refuses the same writes as the argv form, and runs any command byte for byte (quotes,
 * `$VAR`, newlines, `'`). Skipped where there is no sandbox.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { NO_SANDBOX, ORIGINAL, PYTHON, sandboxFixture, type SandboxFixture } from './helpers';

const kernel = { skip: NO_SANDBOX };

/** Runs the line `sh -c` would get from a terminal, with `$SHELL` as given; `after` runs after it, outside. */
function runLine(f: SandboxFixture, command: string, opts: { cwd?: string; lineCwd?: string; shell?: string; after?: string; env?: NodeJS.ProcessEnv } = {}) {
  if (f.plan.kind !== 'sandboxed') throw new Error('not sandboxed');
  const line = f.plan.line(command, opts.lineCwd);
  const r = spawnSync('/bin/sh', ['-c', opts.after ? `${line}; ${opts.after}` : line], {
    cwd: opts.cwd ?? f.ws, env: { ...f.env, SHELL: opts.shell ?? '/bin/sh', ...opts.env }, encoding: 'utf8', timeout: 30_000,
  });
  return { status: r.status, stdout: r.stdout, out: `${r.stdout}${r.stderr}`, line };
}

test('the line refuses what the argv form refuses', kernel, () => {
  const f = sandboxFixture();
  const attempts = [
    ...(PYTHON ? [`${PYTHON} -c "open('tests/x.test.js','w')"`] : []),
    `${JSON.stringify(process.execPath)} -e "require('fs').writeFileSync('tests/x.test.js', 'hacked')"`,
    `bash -c 'echo hacked > tests/x.test.js'`,
    'rm -rf tests',
    'mv tests t2',
    'ln tests/x.test.js src/h.js',
    `echo '{}' > .vscode/settings.json`,
    `echo hacked > "$ALFRED_HOME/launcher"`,
  ];
  for (const command of attempts) {
    const r = runLine(f, command);
    assert.notEqual(r.status, 0, `${command}: ${r.out}`);
    assert.match(r.out, /Read-only file system|EROFS|Device or resource busy|Invalid cross-device link/, command);
  }
  assert.equal(f.read('tests/x.test.js'), ORIGINAL);
  assert.equal(fs.existsSync(path.join(f.ws, 'src', 'h.js')), false);
  assert.equal(fs.existsSync(path.join(f.ws, '.vscode', 'settings.json')), false);
  assert.equal(runLine(f, 'echo ok > src/ok.js').status, 0);
  assert.equal(f.read('src/ok.js'), 'ok\n');
});

test('quotes, $VAR, newlines and \' reach the inner shell unchanged; the outer shell expands nothing', kernel, () => {
  const f = sandboxFixture();
  const cases: Array<[string, string]> = [
    [`printf '%s\\n' "it's \\"quoted\\""`, `it's "quoted"\n`],
    ['echo "$ALFRED_T" $ALFRED_T', 'a b c a b c\n'],
    [`echo '$ALFRED_T' "\\$HOME"`, '$ALFRED_T $HOME\n'],
    ['echo one\necho two', 'one\ntwo\n'],
    [`echo 'a'\\''b' "c'd" e\\'f`, "a'b c'd e'f\n"],
    ['echo $(echo sub) `echo tick`; x=1; echo "$x"', 'sub tick\n1\n'],
    ['printf "%s|" * | grep -c src', '1\n'],
    [`echo '''' "''" '\\'`, " '' \\\n"],
  ];
  for (const [command, expected] of cases) {
    const r = runLine(f, command, { env: { ALFRED_T: 'a b c' } });
    assert.equal(r.stdout, expected, `${JSON.stringify(command)} → ${r.line}\n${r.out}`);
  }
});

test('the command runs in the user\'s $SHELL, in the terminal\'s folder unless a cwd is given', kernel, () => {
  const f = sandboxFixture();
  const src = path.join(f.ws, 'src');
  assert.equal(runLine(f, '[[ -d src ]] && echo "$BASH_VERSION" | cut -c1', { shell: '/bin/bash' }).stdout.trim().length, 1);
  assert.equal(runLine(f, 'pwd -P', { cwd: src }).stdout.trim(), src);
  assert.equal(runLine(f, 'pwd -P', { cwd: src, lineCwd: f.ws }).stdout.trim(), f.ws);
});

test('cd and export inside the line do not reach the terminal\'s later commands', kernel, () => {
  const f = sandboxFixture();
  const r = runLine(f, 'cd /; export ALFRED_LEAK=1; pwd', { after: 'pwd -P; echo "[${ALFRED_LEAK:-}]"' });
  assert.equal(r.stdout, `/\n${f.ws}\n[]\n`);
});

test('the terminal line is short: the launcher script, the workspace id, the single-quoted command; the mounts live in the plan file', kernel, () => {
  const f = sandboxFixture();
  const r = runLine(f, 'true');
  assert.match(r.line, /^\/\S*\/\.alfred\/bin\/alfred-sandbox [0-9a-f]{16} 'true'$/);
  assert.equal(r.status, 0);
  const [script, id] = r.line.split(' ') as [string, string];
  const plan = fs.readFileSync(path.join(path.dirname(script), '..', 'run', 'sandbox', `${id}.args`), 'utf8').split('\n');
  assert.match(plan[0]!, /bwrap$/);
  assert.ok(plan.includes('--ro-bind'), 'the read-only mounts are in the plan');
});

test('with a working folder the line names every mount itself (plain words unquoted)', kernel, () => {
  const f = sandboxFixture();
  const r = runLine(f, 'true', { lineCwd: f.ws });
  assert.match(r.line, /^\/\S*bwrap --ro-bind \/ \/ --dev-bind \/dev \/dev /);
  assert.match(r.line, / -- "\$\{SHELL:-\/bin\/sh\}" -c 'true'$/);
});

test('a workspace path with spaces, quotes and $ is quoted in the line and protected all the same', kernel, () => {
  const f = sandboxFixture(['tests/**'], `it's a "ws" $HOME`);
  const r = runLine(f, 'echo hacked > tests/x.test.js');
  assert.notEqual(r.status, 0);
  assert.match(r.out, /Read-only file system/);
  assert.equal(f.read('tests/x.test.js'), ORIGINAL);
  assert.equal(runLine(f, 'echo ok > src/ok.js && pwd -P', { lineCwd: f.ws }).stdout.trim(), f.ws);
  assert.equal(f.read('src/ok.js'), 'ok\n');
});
