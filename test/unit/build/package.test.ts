/**
 * The VSIX as `npm run package` makes it, built into a temporary folder (dist/ stays as the other
 * tests use it): the production bundles, then `vsce package` with the package script's own flags on
 * the files `vsce ls` ships from this repository. It stays under 2 MB, and the o200k tokenizer's data
 * is in one shipped file, which both the extension and the CLI require from where they lie.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const VSCE = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
const MAX_BYTES = 2 * 1024 * 1024;
const TOKENIZER = 'dist/cli/o200k_base.cjs';
/** Where each bundle requires the tokenizer from, relative to its own folder. */
const REQUIRERS: Record<string, string> = {
  'dist/extension.js': './cli/o200k_base.cjs', 'dist/cli/alfred-main.cjs': './o200k_base.cjs', 'dist/cli/alfred-hook.cjs': './o200k_base.cjs',
};

const run = (cmd: string, args: string[], cwd: string): string =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 16 << 20 });

/** The files `vsce ls` would put in a VSIX made in `dir`, as relative paths with forward slashes. */
const shipped = (dir: string): string[] =>
  run(process.execPath, [VSCE, 'ls', '--no-dependencies'], dir).split('\n').map((l) => l.trim()).filter(Boolean);

/** `vsce package`'s flags in the package script, without its --out. */
function packageFlags(): string[] {
  const script = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.package!;
  const args = script.split('vsce package')[1]!.trim().split(/\s+/);
  const out = args.indexOf('--out');
  if (out >= 0) args.splice(out, 2);
  return args;
}

/**
 * Quoted long words of the o200k ranks as gpt-tokenizer ships them (41 in version 4): a file holding
 * every one holds the tokenizer's data; no other code names them all.
 */
function tokenizerMarkers(): string[] {
  const ranks = fs.readFileSync(path.join(ROOT, 'node_modules', 'gpt-tokenizer', 'esm', 'bpeRanks', 'o200k_base.js'), 'utf8');
  return [...new Set([...ranks.matchAll(/"([A-Za-z]{14,})"/g)].map((m) => m[1]!))];
}

const holdsTokenizer = (text: string, markers: string[]): boolean =>
  markers.every((w) => text.includes(`"${w}"`) || text.includes(`'${w}'`) || text.includes(`\`${w}\``));

/** The production build and the repository's shipped files (not its dist/ or webview bundles) in `dir`, packaged. */
function packageInto(dir: string): string {
  run(process.execPath, ['build.mjs', '--production', '--out', dir], ROOT);
  const fromBuild = /^(dist|media\/webview)\//;
  for (const rel of [...shipped(ROOT).filter((f) => !fromBuild.test(f)), '.vscodeignore']) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, rel), path.join(dir, rel));
  }
  const vsix = path.join(dir, 'alfred.vsix');
  run(process.execPath, [VSCE, 'package', ...packageFlags(), '--out', vsix], dir);
  return vsix;
}

test('the VSIX is at most 2 MB and ships the o200k tokenizer once, where both bundles require it', { timeout: 120_000 }, (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-vsix-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const vsix = packageInto(dir);

  const size = fs.statSync(vsix).size;
  assert.ok(size <= MAX_BYTES, `the VSIX is ${size} bytes, over ${MAX_BYTES}`);

  const files = shipped(dir);
  assert.ok(!files.includes('alfred.vsix'), 'the VSIX does not ship itself');
  const markers = tokenizerMarkers();
  assert.ok(markers.length >= 20, `too few marker words in gpt-tokenizer's o200k ranks: ${markers.length}`);
  const holders = files.filter((f) => /\.(c?js|mjs)$/.test(f) && holdsTokenizer(fs.readFileSync(path.join(dir, f), 'utf8'), markers));
  assert.deepEqual(holders, [TOKENIZER]);

  for (const [bundle, request] of Object.entries(REQUIRERS)) {
    const text = fs.readFileSync(path.join(dir, bundle), 'utf8');
    assert.ok(text.includes(`require("${request}")`), `${bundle} requires ${request}`);
    assert.equal(path.posix.join(path.posix.dirname(bundle), request), TOKENIZER);
  }

  // The shipped file is the tokenizer itself: it counts as gpt-tokenizer's o200k_base does.
  const count = run(process.execPath, ['-e', `process.stdout.write(String(require(${JSON.stringify(path.join(dir, TOKENIZER))}).countTokens('hello world')))`], dir);
  assert.equal(count, '2');
});

test('a hook call without a hook server loads the hook bundle, which holds no other command', () => {
  const cli = path.join(ROOT, 'dist', 'cli');
  const hook = fs.readFileSync(path.join(cli, 'alfred-hook.cjs'), 'utf8');
  const main = fs.readFileSync(path.join(cli, 'alfred-main.cjs'), 'utf8');
  // Strings of other commands' own code, present in the whole command line only.
  for (const marker of ['alfred compare CONTROL TREATMENT', 'alfred trial run', 'alfred audit [--json]', 'alfred usage [--since']) {
    assert.ok(main.includes(marker), `alfred-main.cjs holds ${marker}`);
    assert.ok(!hook.includes(marker), `alfred-hook.cjs does not hold ${marker}`);
  }
  assert.ok(hook.includes('alfred hook <'), 'the hook command itself');
  assert.ok(hook.length < main.length / 2, `${hook.length} bytes vs ${main.length}`);
});
