/** The inner npm installs (Node 24, code-server) must not inherit the outer `npm start` / `npm test`. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { npmFreeEnv } from '../../../scripts/lib/npmEnv.mjs';

test('every variable an outer npm script sets is dropped, what the user set to reach the registry is kept', () => {
  const env = npmFreeEnv({
    HOME: '/home/u',
    PATH: ['/repo/node_modules/.bin', '/node_modules/.bin', '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin', '/usr/local/bin', '/usr/bin'].join(path.delimiter),
    npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
    npm_config_local_prefix: '/repo',
    npm_config_prefix: '/usr',
    npm_config_node_gyp: '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
    npm_config_nodedir: '/usr',
    npm_config_loglevel: 'silent',
    npm_config_npm_version: '11.19.1',
    npm_lifecycle_event: 'test',
    npm_lifecycle_script: 'node scripts/test.mjs',
    npm_package_json: '/repo/package.json',
    npm_package_name: 'alfred-harness',
    npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
    npm_node_execpath: '/usr/bin/node',
    npm_command: 'test',
    INIT_CWD: '/repo',
    NODE: '/usr/bin/node',
    COLOR: '0',
    npm_config_registry: 'https://registry.example/',
    'npm_config_@acme:registry': 'https://acme.example/',
    npm_config_https_proxy: 'http://proxy:3128',
    npm_config_cafile: '/etc/ssl/certs/ca-certificates.crt',
    npm_config_userconfig: '/home/u/.npmrc',
    npm_config_cache: '/home/u/.npm',
    NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt',
  });
  assert.deepEqual(env, {
    HOME: '/home/u',
    PATH: ['/usr/local/bin', '/usr/bin'].join(path.delimiter),
    npm_config_registry: 'https://registry.example/',
    'npm_config_@acme:registry': 'https://acme.example/',
    npm_config_https_proxy: 'http://proxy:3128',
    npm_config_cafile: '/etc/ssl/certs/ca-certificates.crt',
    npm_config_userconfig: '/home/u/.npmrc',
    npm_config_cache: '/home/u/.npm',
    NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt',
  });
});

test('outside npm, NODE and COLOR are the user\'s own and stay', () => {
  assert.deepEqual(npmFreeEnv({ NODE: '/opt/node', COLOR: '1', PATH: '/usr/bin' }), { NODE: '/opt/node', COLOR: '1', PATH: '/usr/bin' });
});

test('an npm started from an npm script with the clean environment reports its own Node, not the outer one', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-npmenv-'));
  // What code-server's postinstall reads: the inner npm's user agent.
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'x', private: true, scripts: { ua: 'node -e "console.log(process.env.npm_config_user_agent)"' } }));
  const outer = { ...process.env, npm_config_user_agent: 'npm/0.0.0 node/v1.2.3 linux x64 workspaces/false', npm_config_loglevel: 'silent' };
  const leaked = spawnSync('npm', ['run', '-s', 'ua'], { cwd: dir, env: outer, encoding: 'utf8' });
  assert.match(leaked.stdout, /node\/v1\.2\.3/, 'without cleaning, the outer agent leaks (the bug this guards against)');
  const clean = spawnSync('npm', ['run', '-s', 'ua'], { cwd: dir, env: npmFreeEnv(outer), encoding: 'utf8' });
  assert.match(clean.stdout, new RegExp(`node/${process.version.replace(/\./g, '\\.')} `));
  fs.rmSync(dir, { recursive: true, force: true });
});
