import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { hostsInText, isBareHost, isScannedSource, scanHosts } from '../../../../src/core/rules/mcp/hostScan';

const fixtures = path.join(import.meta.dirname, '..', '..', '..', 'fixtures', 'mcp', 'real-sources');
const real = (file: string) => ({ path: file, text: fs.readFileSync(path.join(fixtures, file), 'utf8') });

describe('host scanner on real package sources', () => {
  it('node-fetch 2.7.0 lib/index.js: the hosts of its URLs, none of its hundreds of member accesses', () => {
    const src = real('node-fetch-2.7.0-lib-index.js');
    // The file is full of `a.b` accesses (this.body, Body.prototype, res.headers, …) that a naive scanner would take for hosts.
    assert.ok((src.text.match(/\b[a-z]+\.[a-z]+\b/g) ?? []).length > 200);
    assert.deepEqual([...hostsInText(src.text)].sort(), ['fetch.spec.whatwg.org', 'github.com', 'hsivonen.fi', 'stackoverflow.com', 'tools.ietf.org', 'www.w3.org']);
  });

  it('two real files: hosts deduplicated and sorted, each with the files it appears in', () => {
    const hosts = scanHosts([real('node-fetch-2.7.0-lib-index.js'), real('debug-4.4.3-src-browser.js')]);
    assert.deepEqual(hosts, [
      { host: 'developer.mozilla.org', files: ['debug-4.4.3-src-browser.js'] },
      { host: 'fetch.spec.whatwg.org', files: ['node-fetch-2.7.0-lib-index.js'] },
      { host: 'github.com', files: ['debug-4.4.3-src-browser.js', 'node-fetch-2.7.0-lib-index.js'] },
      { host: 'hsivonen.fi', files: ['node-fetch-2.7.0-lib-index.js'] },
      { host: 'stackoverflow.com', files: ['debug-4.4.3-src-browser.js', 'node-fetch-2.7.0-lib-index.js'] },
      { host: 'tools.ietf.org', files: ['node-fetch-2.7.0-lib-index.js'] },
      { host: 'www.w3.org', files: ['node-fetch-2.7.0-lib-index.js'] },
    ]);
  });
});

describe('host scanner: what counts as a host', () => {
  it('URLs of every scheme it knows, with user info, port and IPv6 literal; example.com is reported like any other', () => {
    const text = `
      const a = "https://API.Example.com/v1/x?y=1";
      const b = 'wss://stream.acme.io:8443/feed';
      const c = \`http://user:pw@internal.corp.net/path\`;
      const d = 'http://[::1]:3000/';
      const e = 'ftp://files.example.org';
      const f = 'http://localhost:8080/', g = 'http://10.0.0.7/';
      const h = \`https://\${host}/api\`;
    `;
    assert.deepEqual([...hostsInText(text)].sort(), ['10.0.0.7', '[::1]', 'api.example.com', 'files.example.org', 'internal.corp.net', 'localhost', 'stream.acme.io']);
  });

  it('a quoted host name by itself, with a port or a path; an IPv4 address; not a member access, a file name or a property path', () => {
    const text = `
      connect({ host: "telemetry.vendor.com", port: 443 });
      const api = 'api.x.ai/v2';
      const dns = '1.1.1.1', bad = '300.1.1.1';
      const proxy = "proxy.corp.internal:3128";
      config.server.host = process.env.HOST;
      require('./lib/util.js'); read('README.md'); run('build.sh'); get(obj, 'user.id'); pick('options.name');
      // see \`res.headers\` and 'this.body'
      const upper = 'Api.Example.COM';
    `;
    assert.deepEqual([...hostsInText(text)].sort(), ['1.1.1.1', 'api.x.ai', 'telemetry.vendor.com']);
  });

  it('isBareHost: real top-level domains only, file extensions after one label refused, three labels kept', () => {
    assert.equal(isBareHost('example.com'), true);
    assert.equal(isBareHost('t.me'), true);
    assert.equal(isBareHost('index.js'), false);
    assert.equal(isBareHost('package.json'), false);
    assert.equal(isBareHost('notes.md'), false);
    assert.equal(isBareHost('docs.github.md'), true);
    assert.equal(isBareHost('user.id'), false);
    assert.equal(isBareHost('a.b'), false);
  });

  it('sources scanned: JavaScript and TypeScript that runs, not declaration files', () => {
    assert.deepEqual(['a.js', 'b.mjs', 'c.cjs', 'd.ts', 'e.d.ts', 'f.d.mts', 'g.json', 'h.tsx', 'i.map'].filter(isScannedSource), ['a.js', 'b.mjs', 'c.cjs', 'd.ts', 'h.tsx']);
  });
});
