import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { create } from 'tar';
import { binaries, inspectPackage, installScripts } from '../../../../src/core/rules/mcp/inspect';
import { integrityProblem, readTarball, type TarFile } from '../../../../src/core/rules/mcp/tarball';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-mcp-tar-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

/** An npm-style tarball (`package/…`) of these files, with the modes given. */
function tarball(files: Record<string, { text: string | Buffer; mode?: number }>): Buffer {
  const dir = fs.mkdtempSync(path.join(root, 'src-'));
  for (const [rel, f] of Object.entries(files)) {
    const file = path.join(dir, 'package', rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, f.text);
    fs.chmodSync(file, f.mode ?? 0o644);
  }
  const out = path.join(dir, 'pkg.tgz');
  create({ gzip: true, cwd: dir, file: out, sync: true }, ['package']);
  return fs.readFileSync(out);
}

const opts = { maxUnpackedBytes: 10_000_000, maxTextBytes: 1_000_000, wantText: (p: string) => p === 'package.json' || p.endsWith('.js') };

describe('tarballs', () => {
  it('lists files without the package/ folder, with their mode; keeps the text of the files asked for', async () => {
    const gz = tarball({
      'package.json': { text: '{"name":"x","version":"1.0.0"}' },
      'index.js': { text: 'fetch("https://a.example.net")' },
      'bin/run.sh': { text: '#!/bin/sh\necho hi\n', mode: 0o755 },
      'data.bin': { text: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1]) },
    });
    const files = (await readTarball(gz, opts)).sort((a, b) => a.path.localeCompare(b.path));
    assert.deepEqual(files.map((f) => [f.path, f.mode & 0o777, f.size, f.text]), [
      ['bin/run.sh', 0o755, 18, undefined],
      ['data.bin', 0o644, 6, undefined],
      ['index.js', 0o644, 30, 'fetch("https://a.example.net")'],
      ['package.json', 0o644, 30, '{"name":"x","version":"1.0.0"}'],
    ]);
    assert.equal(files[1]!.head.toString('hex'), '7f454c46');
  });

  it('a gzip bomb stops at the unpacked cap', async () => {
    const bomb = gzipSync(Buffer.alloc(5_000_000));
    await assert.rejects(readTarball(bomb, { ...opts, maxUnpackedBytes: 1_000_000 }), { message: 'it unpacks to more than 1000000 bytes' });
    await assert.rejects(readTarball(Buffer.from('not gzip'), opts), { code: 'Z_DATA_ERROR' });
  });

  it('integrity: sha512 matches, a changed byte does not; a sha1 shasum stands in; none is said', () => {
    const bytes = Buffer.from('tarball bytes');
    const sri = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
    const sha1 = createHash('sha1').update(bytes).digest('hex');
    assert.equal(integrityProblem(bytes, sri, undefined), undefined);
    assert.equal(integrityProblem(Buffer.from('tarball bytez'), sri, undefined), `the tarball does not match its integrity ${sri}`);
    assert.equal(integrityProblem(bytes, undefined, sha1), undefined);
    assert.equal(integrityProblem(bytes, undefined, '0'.repeat(40)), `the tarball does not match its shasum ${'0'.repeat(40)}`);
    assert.equal(integrityProblem(bytes, undefined, undefined), 'the registry gives no integrity for the tarball');
  });
});

describe('what a package\'s files show', () => {
  const file = (p: string, head: number[] | string, mode = 0o644): TarFile => ({ path: p, mode, size: 10, head: Buffer.from(head as never).subarray(0, 4) });

  it('binaries: bin entries (string form named after the unscoped package), native files by header or extension, executable scripts', () => {
    const files = [
      file('cli.js', '#!/u', 0o755),
      file('lib/tool.sh', '#!/b', 0o755),
      file('lib/data.json', '{"a"', 0o755),
      file('vendor/mac', [0xcf, 0xfa, 0xed, 0xfe]),
      file('vendor/win.dll', 'xxxx'),
      file('vendor/app', [0x4d, 0x5a, 0x90, 0]),
      file('index.js', 'cons'),
    ];
    assert.deepEqual(binaries({ name: '@scope/tool', bin: './cli.js' }, files), ['tool: cli.js', 'lib/tool.sh', 'vendor/mac', 'vendor/win.dll', 'vendor/app']);
    assert.deepEqual(binaries({ bin: { a: 'cli.js', b: 'lib/tool.sh' } }, files), ['a: cli.js', 'b: lib/tool.sh', 'vendor/mac', 'vendor/win.dll', 'vendor/app']);
  });

  it('install scripts: the four lifecycle scripts only; binding.gyp without install means node-gyp', () => {
    assert.deepEqual(installScripts({ scripts: { preinstall: 'a', install: 'b', postinstall: 'c', prepare: 'd', test: 'e', prepublishOnly: 'f' } }, []), { preinstall: 'a', install: 'b', postinstall: 'c', prepare: 'd' });
    assert.deepEqual(installScripts({}, [file('binding.gyp', '{')]), { install: 'node-gyp rebuild (implied by binding.gyp)' });
    assert.deepEqual(installScripts({ scripts: { install: 'prebuild-install' } }, [file('binding.gyp', '{')]), { install: 'prebuild-install' });
  });

  it('dependencies counted once across dependencies and optionalDependencies; hosts only from sources with text', () => {
    const r = inspectPackage({ dependencies: { a: '1', b: '1' }, optionalDependencies: { b: '1', c: '1' } }, [
      { ...file('index.js', 'x'), text: 'const u = "https://api.one.io/x";' },
      { ...file('index.d.ts', 'x'), text: '// https://types.one.io' },
      { ...file('big.js', 'x') },
    ]);
    assert.equal(r.dependencyCount, 3);
    assert.deepEqual(r.hosts, [{ host: 'api.one.io', files: ['index.js'] }]);
  });

  it('an install script\'s URLs are hosts of package.json; other scripts\' are not', () => {
    const r = inspectPackage({ scripts: { postinstall: 'curl -fsSL https://get.tool.sh/install | sh', test: 'curl https://ci.example.com' } }, [
      { ...file('index.js', 'x'), text: 'load("https://get.tool.sh/x")' },
    ]);
    assert.deepEqual(r.hosts, [{ host: 'get.tool.sh', files: ['index.js', 'package.json'] }]);
  });
});
