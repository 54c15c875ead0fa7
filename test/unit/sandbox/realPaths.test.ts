import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RealPaths } from '../../../src/core/sandbox/realPaths';

const realOrUndefined = (p: string): string | undefined => {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
};

test('each path resolves as realpath does: symlinked folders and files, links in a chain, dangling and missing paths, a path under a file', { skip: process.platform === 'win32' }, () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-real-'));
  const ws = path.join(root, 'ws');
  fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
  fs.mkdirSync(path.join(root, 'elsewhere', 'deep'), { recursive: true });
  fs.writeFileSync(path.join(root, 'elsewhere', 'deep', 'settings.json'), '{}');
  fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), '{}');
  fs.symlinkSync(path.join(root, 'elsewhere'), path.join(ws, '.github')); // a governance folder that points out
  fs.symlinkSync(path.join(root, 'elsewhere', 'deep', 'settings.json'), path.join(ws, 'AGENTS.md'));
  fs.symlinkSync(path.join(ws, '.github'), path.join(ws, 'chain')); // a link to a link
  fs.symlinkSync(path.join(root, 'nowhere'), path.join(ws, 'dangling'));
  fs.symlinkSync(ws, path.join(root, 'ws-link')); // the workspace opened through a link
  const paths = [
    ws, path.join(ws, '.vscode'), path.join(ws, '.vscode', 'settings.json'), path.join(ws, '.github'),
    path.join(ws, '.github', 'deep', 'settings.json'), path.join(ws, 'AGENTS.md'), path.join(ws, 'chain', 'deep'),
    path.join(ws, 'dangling'), path.join(ws, 'missing', 'file'), path.join(root, 'ws-link', '.vscode', 'settings.json'),
    path.join(root, 'ws-link', '.github', 'deep'), '/', path.join(ws, '.vscode', '..', 'AGENTS.md'),
    path.join(ws, '.vscode', 'settings.json', 'under-a-file'),
  ];
  const real = new RealPaths('linux');
  for (const p of paths) assert.equal(real.of(p), realOrUndefined(p), p);
  // Asked again (from the cache): the same answers.
  for (const p of paths) assert.equal(real.of(p), realOrUndefined(p), `${p} (again)`);
});
