import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { BWRAP_FLAGS, STRICT_BWRAP_FLAGS, renameGuards, sandboxArgv, sandboxCommandLine, sandboxExecProfile, shellQuote } from '../../../src/core/sandbox/wrap';
import { outermost } from '../../../src/core/sandbox/pathSet';

const BWRAP = { kind: 'bwrap', path: '/usr/bin/bwrap' } as const;
const SBX = { kind: 'sandbox-exec', path: '/usr/bin/sandbox-exec' } as const;

test('shellQuote leaves plain words alone and single-quotes the rest, \' written \'\\\'\'', () => {
  assert.equal(shellQuote('/home/u/ws/.github/hooks'), '/home/u/ws/.github/hooks');
  assert.equal(shellQuote('--ro-bind'), '--ro-bind');
  assert.equal(shellQuote(''), "''");
  assert.equal(shellQuote('a b'), "'a b'");
  assert.equal(shellQuote("it's"), "'it'\\''s'");
  for (const s of ['=x', '~/x', 'a*', '$HOME', 'a;b', 'a\nb', '{a,b}', '!x', '#x']) assert.equal(shellQuote(s), `'${s}'`, s);
});

test('a quoted word reads back as itself in sh, whatever it holds', { skip: process.platform === 'win32' && 'POSIX sh' }, () => {
  const nasty = ["it's", '"double"', '$HOME ${X:-y} `id` $(id)', 'a\nb\n', "'''", '\\', '*', ' lead', 'tab\there', 'ünï', '-n', ''];
  for (const s of nasty) {
    const r = spawnSync('/bin/sh', ['-c', `printf '%s' ${shellQuote(s)}`], { encoding: 'utf8' });
    assert.equal(r.stdout, s, JSON.stringify(s));
  }
});

test('outermost: absolute, no duplicates, nothing inside another, shallowest first', () => {
  assert.deepEqual(outermost(['/a/b/c', '/a/b', '/z', '/a/b/', 'rel', '/a/bc', '/z/../z']), ['/z', '/a/b', '/a/bc']);
});

test('renameGuards: every folder above a read-only path, except / and what is itself read-only', () => {
  assert.deepEqual(renameGuards(['/w/p/.github/hooks', '/w/p/.vscode', '/w/p/tests/x.js', '/h/.alfred', '/h/.alfred/state/1']), ['/h', '/w', '/w/p', '/w/p/.github', '/w/p/tests']);
  assert.deepEqual(renameGuards(['/top']), []);
  assert.deepEqual(renameGuards([]), []);
});

test('bwrap argv: fixed flags, then the guards bound writable, then the read-only paths, the folder, the shell', () => {
  const argv = sandboxArgv(BWRAP, { command: 'npm test', cwd: '/w/p', readOnly: ['/w/p/tests', '/w/p/.alfred', '/w/p/tests/a'] });
  assert.deepEqual(argv, [
    '/usr/bin/bwrap', ...BWRAP_FLAGS,
    '--bind', '/w', '/w', '--bind', '/w/p', '/w/p',
    '--ro-bind', '/w/p/.alfred', '/w/p/.alfred', '--ro-bind', '/w/p/tests', '/w/p/tests',
    '--chdir', '/w/p', '--', '/bin/sh', '-c', 'npm test',
  ]);
  assert.deepEqual(BWRAP_FLAGS.slice(0, 3), ['--dev-bind', '/', '/'], 'everything else unchanged: / as it is');
  assert.ok(!BWRAP_FLAGS.includes('--unshare-net') && !BWRAP_FLAGS.includes('--unshare-all'), 'the network stays');
  assert.deepEqual(sandboxArgv(BWRAP, { command: 'x', readOnly: [], shell: '/bin/bash' }).slice(-4), ['--', '/bin/bash', '-c', 'x']);
});

test('the bwrap line: the same words, plain ones unquoted, the command one quoted argument of the user\'s shell', () => {
  const line = sandboxCommandLine(BWRAP, { command: "echo 'hi' \"$HOME\"", cwd: '/w/my p', readOnly: ["/w/my p/it's"] });
  assert.equal(line, `/usr/bin/bwrap ${BWRAP_FLAGS.join(' ')} --bind /w /w --bind '/w/my p' '/w/my p' --ro-bind '/w/my p/it'\\''s' '/w/my p/it'\\''s' --chdir '/w/my p' -- "\${SHELL:-/bin/sh}" -c 'echo '\\''hi'\\'' "$HOME"'`);
  assert.match(sandboxCommandLine(BWRAP, { command: 'ls', readOnly: [] }), /--die-with-parent -- "\$\{SHELL:-\/bin\/sh\}" -c 'ls'$/);
  assert.match(sandboxCommandLine(BWRAP, { command: 'ls', readOnly: [], shell: '/bin/bash' }), / -- \/bin\/bash -c 'ls'$/);
});

test('sandbox-exec profile: writes denied under each path, folders above kept from renames, strings escaped', () => {
  assert.equal(sandboxExecProfile(['/w/p/tests', '/w/p/.alfred']),
    '(version 1)(allow default)(deny file-write* (subpath "/w/p/.alfred") (subpath "/w/p/tests"))(deny file-write-unlink (literal "/w") (literal "/w/p"))');
  assert.equal(sandboxExecProfile([]), '(version 1)(allow default)');
  assert.match(sandboxExecProfile(['/a "b"\\c']), /\(subpath "\/a \\"b\\"\\\\c"\)/);
});

test('sandbox-exec argv and line: cd through a small sh (argv) or a subshell (line), never in the terminal', () => {
  const argv = sandboxArgv(SBX, { command: 'ls', cwd: '/w/p', readOnly: ['/w/p/tests'] });
  assert.deepEqual(argv.slice(0, 5), ['/bin/sh', '-c', 'cd -- "$0" && exec "$@"', '/w/p', '/usr/bin/sandbox-exec']);
  assert.deepEqual(argv.slice(5, 6), ['-p']);
  assert.deepEqual(argv.slice(-3), ['/bin/sh', '-c', 'ls']);
  assert.deepEqual(sandboxArgv(SBX, { command: 'ls', readOnly: [] }).slice(0, 2), ['/usr/bin/sandbox-exec', '-p']);
  const line = sandboxCommandLine(SBX, { command: 'ls', cwd: '/w/p', readOnly: ['/w/p/tests'] });
  assert.match(line, /^\(cd \/w\/p && exec \/usr\/bin\/sandbox-exec -p '\(version 1\)\(allow default\)\(deny file-write\* \(subpath "\/w\/p\/tests"\)\).*' "\$\{SHELL:-\/bin\/sh\}" -c 'ls'\)$/);
});

test('strict bwrap argv: / read-only and the devices as they are, the writable folders bound writable, then the guards and read-only paths within them only', () => {
  const argv = sandboxArgv(BWRAP, { command: 'make', cwd: '/w/p', readOnly: ['/w/p/.alfred', '/w/p/.github/hooks', '/h/.alfred', '/h/.npmrc'], writable: ['/w/p', '/tmp', '/h/.npm', '/tmp/x'] });
  assert.deepEqual(argv, [
    '/usr/bin/bwrap', ...STRICT_BWRAP_FLAGS,
    '--bind', '/tmp', '/tmp', '--bind', '/h/.npm', '/h/.npm', '--bind', '/w/p', '/w/p',
    '--bind', '/w/p/.github', '/w/p/.github',
    '--ro-bind', '/w/p/.alfred', '/w/p/.alfred', '--ro-bind', '/w/p/.github/hooks', '/w/p/.github/hooks',
    '--chdir', '/w/p', '--', '/bin/sh', '-c', 'make',
  ]);
  assert.deepEqual(STRICT_BWRAP_FLAGS.slice(0, 5), ['--ro-bind', '/', '/', '--dev', '/dev']);
  assert.deepEqual(STRICT_BWRAP_FLAGS.slice(5), [...BWRAP_FLAGS.slice(3), '--unshare-ipc'], 'the same closures of the ways out, and System V\'s shared memory its own');
});

test('strict bwrap argv: each temporary folder and download cache shown as its own copy, before a writable folder it holds and after the others; the read-only paths in it show the real ones, with no guard binding the real folder writable', () => {
  const argv = sandboxArgv(BWRAP, {
    command: 'make', cwd: '/w/p', readOnly: ['/w/p/.alfred', '/h/.cache/lean-ctx/bin'], writable: ['/w/p', '/tmp'],
    // A cache within a writable folder (the workspace opened on the home) is its own copy too.
    ownCopies: [{ source: '/h/.alfred/sandbox-caches/1/.cache', target: '/h/.cache' }, { source: '/h/.alfred/sandbox-caches/1/.npm', target: '/w/p/.npm' }],
  });
  assert.deepEqual(argv, [
    '/usr/bin/bwrap', ...STRICT_BWRAP_FLAGS,
    '--bind', '/tmp', '/tmp', '--bind', '/w/p', '/w/p',
    '--bind', '/h/.alfred/sandbox-caches/1/.cache', '/h/.cache', '--bind', '/h/.alfred/sandbox-caches/1/.npm', '/w/p/.npm',
    '--ro-bind', '/w/p/.alfred', '/w/p/.alfred', '--ro-bind', '/h/.cache/lean-ctx/bin', '/h/.cache/lean-ctx/bin',
    '--chdir', '/w/p', '--', '/bin/sh', '-c', 'make',
  ]);
  // A home in a writable folder (/tmp): the guard above a cache comes before its copy, and none is bound in the copy.
  assert.deepEqual(sandboxArgv(BWRAP, {
    command: 'make', readOnly: ['/tmp/h/.alfred', '/tmp/h/.cache/x/bin'], writable: ['/tmp'],
    ownCopies: [{ source: '/tmp/h/.alfred/sandbox-caches/1/.cache', target: '/tmp/h/.cache' }],
  }).slice(STRICT_BWRAP_FLAGS.length + 1, -4), [
    '--bind', '/tmp', '/tmp', '--bind', '/tmp/h', '/tmp/h',
    '--bind', '/tmp/h/.alfred/sandbox-caches/1/.cache', '/tmp/h/.cache',
    '--ro-bind', '/tmp/h/.alfred', '/tmp/h/.alfred', '--ro-bind', '/tmp/h/.cache/x/bin', '/tmp/h/.cache/x/bin',
  ]);
  // A workspace in a copied temporary folder: the copy comes first, the workspace over it.
  assert.deepEqual(sandboxArgv(BWRAP, {
    command: 'make', readOnly: ['/tmp/w/.alfred'], writable: ['/tmp/w'],
    ownCopies: [{ source: '/h/.alfred/sandbox-copies/1/tmp', target: '/tmp' }, { source: '/h/.alfred/sandbox-copies/1/h/.npm', target: '/h/.npm' }],
  }).slice(STRICT_BWRAP_FLAGS.length + 1, -4), [
    '--bind', '/h/.alfred/sandbox-copies/1/tmp', '/tmp', '--bind', '/tmp/w', '/tmp/w',
    '--bind', '/h/.alfred/sandbox-copies/1/h/.npm', '/h/.npm',
    '--ro-bind', '/tmp/w/.alfred', '/tmp/w/.alfred',
  ]);
  // sandbox-exec cannot mount: there the caches themselves are writable.
  assert.match(sandboxArgv(SBX, { command: 'make', readOnly: [], writable: ['/w/p'], ownCopies: [{ source: '/x', target: '/h/.npm' }] })[2]!,
    /\(allow file-write\* \(subpath "\/dev"\) \(subpath "\/h\/.npm"\) \(subpath "\/w\/p"\)\)/);
});

test('strict bwrap argv: a closed home in a writable folder is bound read-only, what is writable in it bound again after it; a guard only where the deepest folder holding it is writable', () => {
  const mounts = (input: { readOnly: string[]; writable: string[]; closed: string[] }) => sandboxArgv(BWRAP, { command: 'make', ...input }).slice(STRICT_BWRAP_FLAGS.length + 1, -4);
  assert.deepEqual(mounts({ readOnly: ['/tmp/h/.bashrc', '/tmp/h/ws/.github/hooks', '/tmp/o/f'], writable: ['/tmp', '/tmp/h/ws'], closed: ['/tmp/h'] }), [
    '--bind', '/tmp', '/tmp', '--ro-bind', '/tmp/h', '/tmp/h', '--bind', '/tmp/o', '/tmp/o',
    '--bind', '/tmp/h/ws', '/tmp/h/ws', '--bind', '/tmp/h/ws/.github', '/tmp/h/ws/.github',
    '--ro-bind', '/tmp/h/.bashrc', '/tmp/h/.bashrc', '--ro-bind', '/tmp/o/f', '/tmp/o/f', '--ro-bind', '/tmp/h/ws/.github/hooks', '/tmp/h/ws/.github/hooks',
  ]);
  // The closed home named writable too: writable, so the folder above a read-only path in it is guarded.
  const guarded = mounts({ readOnly: ['/tmp/h/x/y'], writable: ['/tmp', '/tmp/h'], closed: ['/tmp/h'] }).join(' ');
  assert.match(guarded, /--bind \/tmp\/h\/x \/tmp\/h\/x --ro-bind \/tmp\/h\/x\/y \/tmp\/h\/x\/y$/);
  assert.doesNotMatch(guarded, /--ro-bind \/tmp\/h \/tmp\/h/);
});

test('strict sandbox-exec profile: writes denied everywhere, allowed in the devices and the writable folders, denied again on the read-only paths within them', () => {
  assert.equal(sandboxExecProfile(['/w/p/.alfred', '/h/.npmrc'], ['/w/p', '/private/tmp']),
    '(version 1)(allow default)(deny file-write* (subpath "/"))(allow file-write* (subpath "/dev") (subpath "/private/tmp") (subpath "/w/p"))'
    + '(deny file-write* (subpath "/w/p/.alfred"))(deny file-write-unlink (literal "/w") (literal "/w/p"))');
});
