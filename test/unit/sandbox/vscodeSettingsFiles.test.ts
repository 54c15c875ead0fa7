/** VS Code's sandbox checked in every editor's settings here (core/sandbox/vscodeSettingsFiles.ts). */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, mock, test } from 'node:test';
import { rememberReads } from '../../../src/core/base/fs/keptReads';
import { VSCODE_SANDBOX as S, vscodeSandboxSettings, type VscodeSandboxInput } from '../../../src/core/sandbox/vscodeSandbox';
import { rememberVscodeUserDir, settingsFileOf, settingsTextWith, vscodeSandboxEverywhere, vscodeSandboxOnEverywhere, vscodeSandboxOnHere, vscodeUserSettingsFiles } from '../../../src/core/sandbox/vscodeSettingsFiles';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-vscode-settings-'));
after(() => {
  rememberReads(false);
  fs.rmSync(root, { recursive: true, force: true });
});
const ws = path.join(root, 'ws');
const home = path.join(root, 'home');
fs.mkdirSync(ws, { recursive: true });
const INPUT: VscodeSandboxInput = { workspaceFolder: ws, home, denyWrite: [path.join(ws, '.alfred')], allowWrite: [], network: { allow: [], deny: [] } };
const write = (file: string, value: unknown): void => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
};
const holding = { [S.enabled]: 'on', ...vscodeSandboxSettings({}, INPUT) };

test('every existing editor\'s settings must hold: one short is named, an absent file is no editor, none at all is not in use', () => {
  const a = path.join(root, 'a', 'settings.json');
  const b = path.join(root, 'b', 'settings.json');
  const absent = path.join(root, 'c', 'settings.json');
  assert.deepEqual(vscodeSandboxEverywhere([absent], INPUT, 'linux'), { holds: false, off: true, missing: ['no VS Code user settings here'] });
  write(a, holding);
  assert.deepEqual(vscodeSandboxEverywhere([a, absent], INPUT, 'linux'), { holds: true });
  write(b, '// another editor\n{ "editor.tabSize": 2 }');
  assert.deepEqual(vscodeSandboxEverywhere([a, b], INPUT, 'linux'), { holds: false, off: true, missing: ['chat.agent.sandbox.enabled is off'], file: b });
  write(b, { [S.enabled]: 'on' });
  const short = vscodeSandboxEverywhere([a, b], INPUT, 'linux');
  assert.equal(short.holds === false && short.file, b);
  // Changed on disk: read again, not from the cache.
  write(b, { ...holding, 'editor.tabSize': 2 });
  assert.deepEqual(vscodeSandboxEverywhere([a, b], INPUT, 'linux'), { holds: true });
  fs.rmSync(path.dirname(b), { recursive: true });
});

test('before a hook call plans anything: on in every existing editor, the workspace laid over each', () => {
  const a = path.join(root, 'on-a', 'settings.json');
  const b = path.join(root, 'on-b', 'settings.json');
  const wsOn = path.join(root, 'ws-on');
  assert.equal(vscodeSandboxOnEverywhere([a], wsOn), false, 'no editor here');
  write(a, { [S.enabled]: 'on' });
  assert.equal(vscodeSandboxOnEverywhere([a, b], wsOn), true, 'an absent file is no editor');
  write(b, {});
  assert.equal(vscodeSandboxOnEverywhere([a, b], wsOn), false, 'off in one editor');
  write(path.join(wsOn, '.vscode', 'settings.json'), { [S.enabled]: 'on' });
  assert.equal(vscodeSandboxOnEverywhere([a, b], wsOn), true, 'the workspace turns it on in both');
});

test('the workspace\'s .vscode/settings.json counts over each editor\'s: it can turn the sandbox off or empty denyWrite', () => {
  const a = path.join(root, 'a', 'settings.json');
  write(a, holding);
  write(path.join(ws, '.vscode', 'settings.json'), { [S.fileSystemLinux]: { denyWrite: [] } });
  assert.deepEqual(vscodeSandboxEverywhere([a], INPUT, 'linux'),
    { holds: false, off: false, missing: [`chat.agent.sandbox.fileSystem.linux denyWrite lacks ${path.join(ws, '.alfred')}`], file: a });
  fs.rmSync(path.join(ws, '.vscode'), { recursive: true });
  assert.deepEqual(vscodeSandboxEverywhere([a], INPUT, 'linux'), { holds: true });
});

test('an editor\'s own user folder, noted at its start, is checked beside the default ones', () => {
  const env = { ALFRED_HOME: path.join(root, 'alfred-home'), XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local', 'share') };
  const custom = path.join(root, 'custom-user-data', 'User');
  assert.equal(vscodeUserSettingsFiles(env, home, 'linux').includes(path.join(custom, 'settings.json')), false);
  rememberVscodeUserDir(custom, env);
  rememberVscodeUserDir(custom, env);
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(env.ALFRED_HOME, 'vscode-user-dirs.json'), 'utf8')), [custom]);
  assert.deepEqual(vscodeUserSettingsFiles(env, home, 'linux'), [
    path.join(home, '.config', 'Code', 'User', 'settings.json'), path.join(home, '.config', 'Code - Insiders', 'User', 'settings.json'),
    path.join(home, '.config', 'VSCodium', 'User', 'settings.json'), path.join(home, '.local', 'share', 'code-server', 'User', 'settings.json'),
    path.join(custom, 'settings.json'),
  ]);
  // A profile's settings hold only what it sets: an editor using it must hold too.
  fs.mkdirSync(path.join(custom, 'profiles', '7f3a'), { recursive: true });
  assert.deepEqual(vscodeUserSettingsFiles(env, home, 'linux').slice(-2), [path.join(custom, 'settings.json'), path.join(custom, 'profiles', '7f3a', 'settings.json')]);
});

test('the settings text keeps the user\'s comments and other settings; a file that does not parse reads as empty', () => {
  const text = settingsTextWith('{\n    // mine\n    "editor.tabSize": 2\n}\n', { [S.allowUnsandboxed]: false });
  assert.equal(text, '{\n    // mine\n    "editor.tabSize": 2,\n    "chat.agent.sandbox.allowUnsandboxedCommands": false\n}\n');
  assert.equal(settingsTextWith(undefined, { [S.enabled]: 'on' }), '{\n    "chat.agent.sandbox.enabled": "on"\n}\n');
  const bad = path.join(root, 'bad.json');
  write(bad, '[1, 2');
  assert.deepEqual(settingsFileOf(bad), {});
});

test('kept between a hook server\'s calls, the answer sees at once each change that turns the sandbox off somewhere', async () => {
  const RACY_MS = 50;
  rememberReads(true, RACY_MS);
  const h = path.join(root, 'kept-home');
  const w = path.join(root, 'kept-ws');
  const env = { ALFRED_HOME: path.join(h, '.alfred'), XDG_CONFIG_HOME: path.join(h, '.config'), XDG_DATA_HOME: path.join(h, '.local', 'share') };
  fs.mkdirSync(env.ALFRED_HOME, { recursive: true });
  fs.mkdirSync(w, { recursive: true });
  const code = path.join(h, '.config', 'Code', 'User');
  write(path.join(code, 'settings.json'), { [S.enabled]: 'on' });
  const on = () => vscodeSandboxOnHere(env, h, w);
  /** The answer after the racy window, and whether it came without reading a settings file. */
  const settled = async (): Promise<{ on: boolean; kept: boolean }> => {
    on();
    await new Promise((resolve) => setTimeout(resolve, RACY_MS + 30));
    on();
    const read = mock.method(fs, 'readFileSync');
    const now = on();
    const reads = read.mock.calls.length;
    read.mock.restore();
    return { on: now, kept: reads === 0 };
  };
  assert.deepEqual(await settled(), { on: true, kept: true });
  // A profile of that editor, its sandbox off.
  write(path.join(code, 'profiles', '7f3a', 'settings.json'), {});
  assert.equal(on(), false, 'a new profile');
  fs.rmSync(path.join(code, 'profiles'), { recursive: true });
  assert.equal(on(), true);
  assert.deepEqual(await settled(), { on: true, kept: true });
  write(path.join(h, '.local', 'share', 'code-server', 'User', 'settings.json'), { 'editor.tabSize': 2 });
  assert.equal(on(), false, 'another editor installed');
  fs.rmSync(path.join(h, '.local'), { recursive: true });
  assert.deepEqual(await settled(), { on: true, kept: true });
  write(path.join(w, '.vscode', 'settings.json'), { [S.enabled]: 'off' });
  assert.equal(on(), false, 'the workspace turns it off');
  fs.rmSync(path.join(w, '.vscode'), { recursive: true });
  assert.deepEqual(await settled(), { on: true, kept: true });
  const custom = path.join(root, 'kept-custom', 'User');
  write(path.join(custom, 'settings.json'), {});
  rememberVscodeUserDir(custom, env);
  assert.equal(on(), false, 'an editor with its own user folder noted');
  write(path.join(custom, 'settings.json'), { [S.enabled]: 'on' });
  assert.equal(on(), true, 'that editor\'s settings edited');
  write(path.join(code, 'settings.json'), { [S.enabled]: 'on', 'editor.tabSize': 3 });
  assert.deepEqual(await settled(), { on: true, kept: true });
  write(path.join(code, 'settings.json'), { [S.enabled]: 'off' });
  assert.equal(on(), false, 'the first editor\'s settings edited');
});
