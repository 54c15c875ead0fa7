// One build script, three kinds of bundle: the extension (Node, `vscode` external), the webviews
// (browser) and the `alfred` command line (a small CommonJS entry that asks the resident hook server,
// else runs the CommonJS bundle with V8's code cache, so `alfred hook` starts fast; see src/cli/launcher.ts).
// Usage: node build.mjs [--production] [--watch] [--tests] [--out DIR]
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const withTests = process.argv.includes('--tests');
// --out DIR: dist/ and media/webview/ go under DIR instead (a test packages the VSIX there, leaving dist/ alone).
const outIndex = process.argv.indexOf('--out');
const outRoot = outIndex > 0 ? process.argv[outIndex + 1] : undefined;
if (outIndex > 0 && !outRoot) throw new Error('--out needs a folder');
const out = (p) => (outRoot ? path.join(outRoot, p) : p);

/** The team ledger's SQL migrations, inlined as text (src/core/ledger/team/migrationFiles.ts reads the define). */
const MIGRATIONS = 'src/core/ledger/team/migrations';
const teamMigrations = Object.fromEntries(fs.readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql')).map((f) => [f, fs.readFileSync(path.join(MIGRATIONS, f), 'utf8')]));

/** The sandbox's launcher script, inlined as text (src/core/sandbox/launcher.ts reads the define). */
const sandboxScript = fs.readFileSync('src/core/sandbox/alfred-sandbox.sh', 'utf8');

const common = {
  bundle: true,
  define: { ALFRED_TEAM_MIGRATIONS: JSON.stringify(teamMigrations), ALFRED_SANDBOX_SCRIPT: JSON.stringify(sandboxScript) },
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  // Prefer ES modules: some packages' UMD builds (jsonc-parser) hide requires that a bundle can't follow.
  mainFields: ['module', 'main'],
};

/**
 * The o200k tokenizer (2.7 MB of ranks, loaded only when tokens are counted) ships once, as its own
 * file beside the CLI; the extension and the CLI each require it at run time, by a path relative to
 * where their bundle lies (the VSIX keeps dist/'s layout), so neither bundle carries a copy.
 */
const TOKENIZER_FILE = 'dist/cli/o200k_base.cjs';
function tokenizerFrom(outdir) {
  const rel = path.posix.relative(outdir, TOKENIZER_FILE);
  const target = rel.startsWith('.') ? rel : `./${rel}`;
  return {
    name: 'tokenizer-external',
    setup(build) {
      build.onResolve({ filter: /^gpt-tokenizer\/encoding\/o200k_base$/ }, () => ({ path: target, external: true }));
    },
  };
}

/**
 * pg (the team ledger's client, loaded only when ALFRED_LEDGER_URL is set) ships once beside the
 * CLI as the tokenizer does, so that no hook call parses it when the team ledger is off.
 */
const PG_FILE = 'dist/cli/pg.cjs';
function pgFrom(outdir) {
  const rel = path.posix.relative(outdir, PG_FILE);
  const target = rel.startsWith('.') ? rel : `./${rel}`;
  return {
    name: 'pg-external',
    setup(build) {
      build.onResolve({ filter: /^pg$/ }, () => ({ path: target, external: true }));
    },
  };
}

const BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/**
 * The CLI bundle's imports. Each Node built-in our sources import becomes one shared module: in a
 * CommonJS bundle every `import * as fs` would otherwise copy all of `fs` into a namespace of its own,
 * a few milliseconds of every hook call. proper-lockfile's graceful-fs only queues opens past the fd
 * limit, which a one-shot command never reaches, and its set-up (patching fs, loading streams) costs
 * more, so plain fs stands in. Its signal-exit (v3) loads Node's assert, which loads net and streams,
 * for one `assert.equal` on its argument: a three-line equal stands in.
 */
const cliImports = {
  name: 'cli-imports',
  setup(build) {
    build.onResolve({ filter: /^assert$/ }, (args) => (/[\\/]signal-exit[\\/]/.test(args.importer) ? { path: 'assert', namespace: 'assert-equal' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'assert-equal' }, () => ({
      contents: 'exports.equal = (actual, expected, message) => { if (actual != expected) throw new Error(message); };',
      loader: 'js',
    }));
    build.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) => {
      if (!BUILTINS.has(args.path)) return undefined;
      if (args.namespace === 'builtin') return { path: args.path, external: true };
      return args.kind === 'import-statement' ? { path: args.path.replace(/^node:/, ''), namespace: 'builtin' } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
      contents: `export * from 'node:${args.path}';\nconst m = require('node:${args.path}');\nexport default m;\n`,
      loader: 'js',
    }));
    build.onResolve({ filter: /^graceful-fs$/ }, () => ({ path: 'fs', external: true }));
  },
};

/** Every `alfred` file: the entry, the CommonJS bundle it runs and the tokenizer. Minified: less to read. */
const cli = { ...common, outdir: out('dist/cli'), platform: 'node', target: 'node20', minify: true };

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    ...common,
    entryPoints: { extension: 'src/vscode/extension.ts' },
    outdir: out('dist'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [tokenizerFrom('dist'), pgFrom('dist')],
    // import() of the external tokenizer becomes require(): loaded by Node's CommonJS loader, on demand.
    supported: { 'dynamic-import': false },
  },
  // CommonJS: a hook call must not pay for starting Node's ES module loader (see src/cli/launcher.ts).
  { ...cli, entryPoints: { alfred: 'src/cli/launcher.ts' }, outExtension: { '.js': '.cjs' }, format: 'cjs', banner: { js: '#!/usr/bin/env node' } },
  {
    ...cli,
    // alfred-hook: `alfred hook` alone, half the size, for hook calls no hook server answers.
    entryPoints: { 'alfred-main': 'src/cli/main.ts', 'alfred-hook': 'src/cli/hookMain.ts', 'alfred-net': 'src/cli/netMain.ts' },
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    plugins: [cliImports, tokenizerFrom('dist/cli'), pgFrom('dist/cli')],
    // The launcher passes the bundle's file URL; import() becomes require(), which vm.Script can run.
    define: { ...common.define, 'import.meta.url': '__alfredMetaUrl' },
    supported: { 'dynamic-import': false },
  },
  { ...cli, entryPoints: { o200k_base: 'node_modules/gpt-tokenizer/esm/encoding/o200k_base.js' }, outExtension: { '.js': '.cjs' }, format: 'cjs' },
  // pg-native is the optional libpq binding Alfred does not use; pg requires it only when asked to.
  { ...cli, entryPoints: { pg: 'node_modules/pg/lib/index.js' }, outExtension: { '.js': '.cjs' }, format: 'cjs', external: ['pg-native', 'cloudflare:sockets'] },
  {
    ...common,
    entryPoints: { dashboard: 'webview/dashboard/main.ts', confirm: 'webview/confirm/main.ts', 'role-editor': 'webview/role-editor/main.ts' },
    outdir: out('media/webview'),
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
  },
];

if (withTests) {
  builds.push({
    ...common,
    entryPoints: { index: 'test/integration/index.ts' },
    outdir: out('dist/test/integration'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
  });
}

// Stale chunks and maps from an earlier build must not end up in the package.
for (const dir of ['dist/cli', 'media/webview']) fs.rmSync(out(dir), { recursive: true, force: true });
// vscode-elements draws its icons with the codicon font, which the webview loads from the bundle folder.
fs.mkdirSync(out('media/webview'), { recursive: true });
for (const f of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(`node_modules/@vscode/codicons/dist/${f}`, out(`media/webview/${f}`));

/** dist/cli/alfred.mjs, the name callers have always run: it only loads the CommonJS entry. */
function writeMjsEntry() {
  fs.writeFileSync(out('dist/cli/alfred.mjs'), "#!/usr/bin/env node\n// `alfred`: runs alfred.cjs (src/cli/launcher.ts), which agents' hook launcher calls directly.\nimport { createRequire } from 'node:module';\ncreateRequire(import.meta.url)('./alfred.cjs');\n");
  for (const f of ['alfred.cjs', 'alfred.mjs']) fs.chmodSync(out(`dist/cli/${f}`), 0o755);
}

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.rebuild()));
  writeMjsEntry();
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[alfred] watching for changes…');
} else {
  const started = Date.now();
  await Promise.all(builds.map((b) => esbuild.build(b)));
  writeMjsEntry();
  console.log(`[alfred] built ${builds.length} bundles in ${Date.now() - started} ms${production ? ' (production)' : ''}`);
}
