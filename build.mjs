// One build script, three kinds of bundle: the extension (Node, `vscode` external), the webviews
// (browser) and the `alfred` command line (Node ESM, split so `alfred hook` loads only what it needs).
// Usage: node build.mjs [--production] [--watch] [--tests]
import * as esbuild from 'esbuild';
import fs from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const withTests = process.argv.includes('--tests');

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  // Prefer ES modules: some packages' UMD builds (jsonc-parser) hide requires that a bundle can't follow.
  mainFields: ['module', 'main'],
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    ...common,
    entryPoints: { extension: 'src/vscode/extension.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  },
  {
    ...common,
    entryPoints: { alfred: 'src/cli/main.ts' },
    outdir: 'dist/cli',
    outExtension: { '.js': '.mjs' },
    platform: 'node',
    format: 'esm',
    splitting: true,
    target: 'node20',
    banner: {
      // Bundled CommonJS dependencies call require(); ESM has none, so provide one.
      js: "#!/usr/bin/env node\nimport { createRequire as __alfredCreateRequire } from 'node:module';\nconst require = __alfredCreateRequire(import.meta.url);",
    },
  },
  {
    ...common,
    entryPoints: { dashboard: 'webview/dashboard/main.ts' },
    outdir: 'media/webview',
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
  },
];

if (withTests) {
  builds.push({
    ...common,
    entryPoints: { index: 'test/integration/index.ts' },
    outdir: 'dist/test/integration',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
  });
}

// Stale chunks and maps from an earlier build must not end up in the package.
for (const dir of ['dist/cli', 'media/webview']) fs.rmSync(dir, { recursive: true, force: true });
// vscode-elements draws its icons with the codicon font, which the webview loads from the bundle folder.
fs.mkdirSync('media/webview', { recursive: true });
for (const f of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(`node_modules/@vscode/codicons/dist/${f}`, `media/webview/${f}`);

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[alfred] watching for changes…');
} else {
  const started = Date.now();
  await Promise.all(builds.map((b) => esbuild.build(b)));
  fs.chmodSync('dist/cli/alfred.mjs', 0o755);
  console.log(`[alfred] built ${builds.length} bundles in ${Date.now() - started} ms${production ? ' (production)' : ''}`);
}
