/**
 * Which callers a hook server answers: those of its own build (ServerBuild), named by the launcher's
 * `runtime` and `cli` header lines (nativeProtocol.ts) or the Node client's `build`.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseNativeHeader } from '../../../../src/core/integrations/hooks/nativeProtocol';
import { ServerBuild } from '../../../../src/core/integrations/hooks/serverBuild';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-serverbuild-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

function install(name: string): string {
  const dir = path.join(root, name, 'dist', 'cli');
  fs.mkdirSync(dir, { recursive: true });
  for (const f of ['alfred.cjs', 'alfred-hook.cjs', 'alfred-main.cjs']) fs.writeFileSync(path.join(dir, f), `// ${f}\n`);
  return path.join(dir, 'alfred.cjs');
}

describe('ServerBuild', () => {
  it('answers callers of its runtime and command line folder, or that name none', () => {
    const cli = install('a');
    const build = new ServerBuild({ runtime: '/usr/bin/node', cli });
    assert.equal(build.differs(undefined), undefined);
    assert.equal(build.differs({ runtime: '/usr/bin/node', cli }), undefined);
    // alfred.mjs only loads alfred.cjs: the same build.
    assert.equal(build.differs({ runtime: '/usr/bin/node', cli: path.join(path.dirname(cli), 'alfred.mjs') }), undefined);
    assert.equal(build.differs({ runtime: '/usr/local/bin/node', cli }), 'another build of Alfred');
    assert.equal(build.differs({ runtime: '/usr/bin/node', cli: install('b') }), 'another build of Alfred');
  });

  it('refuses everyone once its files were rebuilt or removed', () => {
    const cli = install('c');
    const build = new ServerBuild({ runtime: 'node', cli });
    assert.equal(build.changed(), false);
    fs.writeFileSync(path.join(path.dirname(cli), 'alfred-main.cjs'), '// rebuilt, longer\n');
    assert.equal(build.changed(), true);
    assert.equal(build.differs({ runtime: 'node', cli }), 'files of Alfred that changed since it started');
    const gone = new ServerBuild({ runtime: 'node', cli: install('d') });
    fs.rmSync(path.join(root, 'd'), { recursive: true });
    assert.equal(gone.changed(), true);
  });
});

describe('the launcher\'s build lines', () => {
  const lines = ['event PreToolUse', 'cwd /w', 'length 2'];
  it('runtime and cli make the header\'s build, together or not at all', () => {
    assert.deepEqual((parseNativeHeader([...lines, 'runtime /usr/bin/node', 'cli /x/alfred.cjs']) as { build?: unknown }).build, { runtime: '/usr/bin/node', cli: '/x/alfred.cjs' });
    assert.equal((parseNativeHeader(lines) as { build?: unknown }).build, undefined);
    assert.equal(parseNativeHeader([...lines, 'runtime /usr/bin/node']), 'runtime and cli go together');
    assert.equal(parseNativeHeader([...lines, 'runtime /a', 'cli /b', 'cli /c']), 'cli given twice');
  });
});
