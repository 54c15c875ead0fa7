// The repository's shell scripts (a `.sh` file, or a file whose first line runs sh or bash), each
// parsed by the shell that runs it (`sh -n`, `bash -n`) and checked by ShellCheck, which
// scripts/lib/install.mjs installs with Debian's packages. Exits non-zero on any finding.
// Usage: node scripts/shellcheck.mjs
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Folders that hold no script of Alfred's own: installed packages, builds, test output. */
const SKIP = new Set(['.git', 'node_modules', 'dist', 'media', 'test-results', '.vscode-test']);
const SHEBANG = /^#!\s*(?:\/usr)?\/bin\/(?:env\s+)?(sh|bash)\b/;

/** Each script's path (relative to the root) and the shell it is written for. */
function scripts(dir = ROOT, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP.has(entry.name)) scripts(file, out);
      continue;
    }
    if (!entry.isFile()) continue;
    const head = firstLine(file);
    const shell = SHEBANG.exec(head)?.[1] ?? (entry.name.endsWith('.sh') ? 'sh' : undefined);
    if (shell) out.push({ file: path.relative(ROOT, file), shell });
  }
  return out;
}

function firstLine(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(64);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('latin1').split('\n', 1)[0];
  } finally {
    fs.closeSync(fd);
  }
}

/** Runs a check; its output is passed through. True when it passed. */
function check(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.error) {
    console.error(`${cmd} could not start (${r.error.message})${cmd === 'shellcheck' ? ': `node scripts/test.mjs setup` installs it (Debian\'s shellcheck)' : ''}`);
    return false;
  }
  return r.status === 0;
}

const found = scripts();
let failed = 0;
for (const { file, shell } of found) {
  // A POSIX script is parsed by both: the shell it names, and bash, which a user's /bin/sh may be.
  const parsers = shell === 'sh' ? ['sh', 'bash'] : ['bash'];
  for (const parser of parsers) if (!check(parser, ['-n', file])) { failed++; console.error(`✖ ${parser} -n ${file}`); }
}
if (found.length && !check('shellcheck', ['--', ...found.map((s) => s.file)])) failed++;
console.log(`${found.length} shell scripts: ${failed ? `${failed} check(s) failed` : 'parsed and checked'} (${found.map((s) => s.file).join(', ')})`);
process.exit(failed ? 1 : 0);
