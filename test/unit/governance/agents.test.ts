import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { GOVERNED_AGENTS, commandSearchFolders, governedAgent, runsLaterHomePaths, type AgentId } from '../../../src/core/governance/agents';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { commands: Array<{ command: string }> };
};
const contributed = new Set(manifest.contributes.commands.map((c) => c.command));

test('every governed agent\'s govern and stop commands are contributed by the manifest', () => {
  const missing = GOVERNED_AGENTS.flatMap((a) => [a.commands.govern, a.commands.stop]).filter((id) => !contributed.has(id));
  assert.deepEqual(missing, []);
});

test('agents that share a hook file share its commands, and agents with their own file have their own', () => {
  const byFile = new Map<string, string>();
  const byCommands = new Map<string, string>();
  for (const a of GOVERNED_AGENTS) {
    const commands = `${a.commands.govern} ${a.commands.stop}`;
    assert.equal(byFile.get(a.hookFile) ?? commands, commands, `${a.id} shares ${a.hookFile} but not its commands`);
    assert.equal(byCommands.get(commands) ?? a.hookFile, a.hookFile, `${a.id} shares commands with an agent of another hook file`);
    byFile.set(a.hookFile, commands);
    byCommands.set(commands, a.hookFile);
  }
  assert.deepEqual(governedAgent('copilot-cli').commands, { govern: 'alfred.governCopilot', stop: 'alfred.stopGoverningCopilot' });
  assert.deepEqual(governedAgent('codex').commands, { govern: 'alfred.governCodex', stop: 'alfred.stopGoverningCodex' });
});

test('an unknown agent is an error, not a silent first row', () => {
  assert.throws(() => governedAgent('cursor' as AgentId), /unknown agent cursor/);
});

test('the command search folders held are PATH\'s folders in the home, not the home itself nor any folder of the workspace\'s, in PATH\'s order, each once', () => {
  const home = '/home/ana';
  const ws = '/home/ana/src/app';
  const searchPath = [
    '/home/ana/.local/bin', '/usr/local/bin', '/home/ana/.cargo/bin', '/usr/bin', '/home/ana', '/home/ana/src',
    '/home/ana/src/app/node_modules/.bin', 'bin', '', '/home/ana/.local/bin/', '/home/anabel/bin', '/home/ana/.nvm/versions/node/v22.11.0/bin',
  ].join(path.delimiter);
  assert.deepEqual(commandSearchFolders(searchPath, home, ws), ['/home/ana/.local/bin', '/home/ana/.cargo/bin', '/home/ana/.nvm/versions/node/v22.11.0/bin']);
  assert.deepEqual(commandSearchFolders(undefined, home, ws), []);
  // With the environment: what runs later is the fixed list and these.
  const all = runsLaterHomePaths(home, { env: { PATH: searchPath }, workspaceFolder: ws });
  assert.deepEqual(all.slice(0, runsLaterHomePaths(home).length), runsLaterHomePaths(home));
  assert.deepEqual(all.slice(runsLaterHomePaths(home).length), ['/home/ana/.local/bin', '/home/ana/.cargo/bin', '/home/ana/.nvm/versions/node/v22.11.0/bin']);
  assert.deepEqual(runsLaterHomePaths(home, { env: { Path: '/home/ana/bin' }, workspaceFolder: ws }).at(-1), '/home/ana/bin', 'a copy of Windows\' environment spells it Path');
});
