import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_REGISTRY, npmRegistryConfig, parseNpmrc, registryFor, tokenFor } from '../../../../src/core/rules/mcp/npmrc';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-npmrc-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
const home = path.join(root, 'home');
const ws = path.join(root, 'ws');
fs.mkdirSync(home);
fs.mkdirSync(ws);

describe('the registry npm is configured for', () => {
  it('npm\'s default when nothing is configured', () => {
    assert.deepEqual(npmRegistryConfig({ env: {}, home: path.join(root, 'nobody'), workspaceFolder: path.join(root, 'none') }), { registry: DEFAULT_REGISTRY, scopes: {}, tokens: {} });
  });

  it('the project .npmrc over the user\'s, the environment over both (case-insensitive), with scopes and tokens', () => {
    fs.writeFileSync(path.join(home, '.npmrc'), 'registry=https://user.example/npm\n@corp:registry = https://corp.example/npm/\n//corp.example/npm/:_authToken=${CORP_TOKEN}\n');
    fs.writeFileSync(path.join(ws, '.npmrc'), '; project\nregistry = "https://project.example/"\n# comment\n');
    const env = { CORP_TOKEN: 'abc123' };
    const project = npmRegistryConfig({ env, home, workspaceFolder: ws });
    assert.deepEqual(project, { registry: 'https://project.example/', scopes: { '@corp': 'https://corp.example/npm/' }, tokens: { '//corp.example/npm/': 'abc123' } });
    assert.equal(npmRegistryConfig({ env: { ...env, NPM_CONFIG_REGISTRY: 'http://127.0.0.1:4873' }, home, workspaceFolder: ws }).registry, 'http://127.0.0.1:4873/');
    assert.equal(npmRegistryConfig({ env: { npm_config_registry: 'http://env.example/' }, home }).registry, 'http://env.example/');
    assert.equal(registryFor(project, '@corp/tool'), 'https://corp.example/npm/');
    assert.equal(registryFor(project, '@other/tool'), 'https://project.example/');
    assert.equal(tokenFor(project, 'https://corp.example/npm/@corp/tool/-/tool-1.0.0.tgz'), 'abc123');
    assert.equal(tokenFor(project, 'https://project.example/x'), undefined);
  });

  it('npm_config_userconfig names the user file', () => {
    const other = path.join(root, 'other-npmrc');
    fs.writeFileSync(other, 'registry=https://other.example/\n');
    assert.equal(npmRegistryConfig({ env: { npm_config_userconfig: other }, home }).registry, 'https://other.example/');
  });

  it('parseNpmrc: quotes, comments, sections and unset variables', () => {
    assert.deepEqual(parseNpmrc('a=1\n b = "two" \n;c=3\n#d=4\n[section]\ne=${NOPE}x\nnovalue\n', {}), { a: '1', b: 'two', e: 'x' });
  });
});
