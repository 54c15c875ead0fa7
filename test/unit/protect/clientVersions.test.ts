/** The installed terminal agents against the versions Alfred was tested with. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { GOVERNED_AGENTS } from '../../../src/core/protect/agentTable';
import { clientVersionEnglish, clientVersions, compareVersions, onPath, verdictOf, versionIn } from '../../../src/core/protect/clientVersions';

const dirs: string[] = [];
after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A folder of fake programs printing the given `--version` outputs. */
function binFolder(programs: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-clients-'));
  dirs.push(dir);
  for (const [name, out] of Object.entries(programs)) fs.writeFileSync(path.join(dir, name), `#!/bin/sh\nprintf '%s\\n' '${out}'\n`, { mode: 0o755 });
  return dir;
}

describe('client versions', () => {
  it('the tested-with table: Claude Code 2.1.328, Codex 0.169.0, Copilot CLI 1.0.102, Gemini CLI 0.61.0', () => {
    assert.deepEqual(Object.fromEntries(GOVERNED_AGENTS.filter((a) => a.cli).map((a) => [a.cli!.program, a.cli!.testedWith])),
      { copilot: '1.0.102', claude: '2.1.328', codex: '0.169.0', gemini: '0.61.0' });
  });

  it('reads each client\'s --version line and compares part by part', () => {
    assert.equal(versionIn('codex-cli 0.169.0'), '0.169.0');
    assert.equal(versionIn('2.1.328 (Claude Code)'), '2.1.328');
    assert.equal(versionIn('GitHub Copilot CLI 1.0.102.\nRun \'copilot update\' to check for updates.'), '1.0.102');
    assert.equal(versionIn('no version here'), undefined);
    assert.ok(compareVersions('0.170.0', '0.169.9') > 0);
    assert.ok(compareVersions('0.61.0', '0.61.0') === 0);
    assert.ok(compareVersions('2.1.99', '2.1.328') < 0, 'numbers, not text');
    assert.equal(verdictOf('1.0.0', {}), 'not-installed');
    assert.equal(verdictOf('1.0.0', { path: '/x' }), 'unknown');
  });

  it('finds the programs on PATH, asks them, and says which is newer than tested', async () => {
    const bin = binFolder({ codex: 'codex-cli 0.170.1', claude: '2.1.328 (Claude Code)', gemini: 'oops' });
    fs.writeFileSync(path.join(bin, 'copilot'), 'not executable');
    const env = { PATH: `relative/bin${path.delimiter}${bin}` };
    assert.equal(onPath('copilot', env), undefined, 'a file that is not executable is not a program');
    const found = Object.fromEntries((await clientVersions(env)).map((c) => [c.program, c]));
    assert.deepEqual([found.codex?.verdict, found.codex?.version], ['newer', '0.170.1']);
    assert.equal(found.claude?.verdict, 'same-or-older');
    assert.equal(found.gemini?.verdict, 'unknown');
    assert.equal(found.copilot?.verdict, 'not-installed');
    assert.equal(clientVersionEnglish(found.codex!), `0.170.1 at ${path.join(bin, 'codex')} is newer than 0.169.0, the version Alfred was tested with: its hook inputs or answers may have changed`);
  });

  it('an npm-installed client: the version of its package, read without running it', async () => {
    const root = binFolder({});
    const pkg = path.join(root, 'node_modules', '@google', 'gemini-cli');
    fs.mkdirSync(path.join(pkg, 'bundle'), { recursive: true });
    fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: '@google/gemini-cli', version: '0.62.0' }));
    // A program that would fail the test if it ran.
    fs.writeFileSync(path.join(pkg, 'bundle', 'gemini.js'), '#!/bin/sh\necho 9.9.9\n', { mode: 0o755 });
    const bin = path.join(root, 'node_modules', '.bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(path.join('..', '@google', 'gemini-cli', 'bundle', 'gemini.js'), path.join(bin, 'gemini'));
    const gemini = (await clientVersions({ PATH: bin })).find((c) => c.program === 'gemini');
    assert.deepEqual([gemini?.version, gemini?.verdict], ['0.62.0', 'newer']);
  });
});
