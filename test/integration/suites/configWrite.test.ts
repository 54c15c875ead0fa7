import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { WritePlan } from '../../../src/core/base/config/types';
import { alfred, harness, workspaceFile } from '../helpers';

/** Runs `fn` with the confirmation answered by `answer`, recording the plans shown. */
async function withReview<T>(answer: boolean, fn: (shown: WritePlan[]) => Promise<T>): Promise<T> {
  const api = await alfred();
  const original = api.confirmations.review;
  const shown: WritePlan[] = [];
  api.confirmations.review = async (_host, plan) => { shown.push(plan); return answer; };
  try {
    return await fn(shown);
  } finally {
    api.confirmations.review = original;
  }
}

const backupsDir = async () => `${(await harness()).stateDir}/backups`;
const backupIds = async () => (fs.existsSync(await backupsDir()) ? fs.readdirSync(await backupsDir()).filter((n) => !n.startsWith('.')) : []);

suite('Configuration writes (diff, confirm, backup, atomic write)', () => {
  test('a confirmed role file is written, backed up, logged, and its role loads at once', async () => {
    const api = await alfred();
    const file = workspaceFile('.alfred/roles/pipeline-made.toml');
    fs.rmSync(file, { force: true });
    const before = await backupIds();
    const text = '[role]\nname = "pipeline-made"\ninherits = "reviewer"\ndescription = "made through the pipeline"\n';
    const written = await withReview(true, async (shown) => {
      const ok = await api.writeConfig({ files: [{ path: file, newText: text }], reason: 'integration test', title: 'New role' });
      assert.equal(shown.length, 1);
      assert.equal(shown[0]!.files[0]!.label, '.alfred/roles/pipeline-made.toml');
      assert.match(shown[0]!.files[0]!.diff, /^\+inherits = "reviewer"$/m);
      return ok;
    });
    assert.equal(written, true);
    assert.equal(fs.readFileSync(file, 'utf8'), text);
    // No waiting for the file watcher: the pipeline reloads the roles itself.
    assert.equal((await harness()).roles().roles.get('pipeline-made')?.inherits, 'reviewer');
    const added = (await backupIds()).filter((id) => !before.includes(id));
    assert.equal(added.length, 1);
    const manifest = JSON.parse(fs.readFileSync(`${await backupsDir()}/${added[0]}/manifest.json`, 'utf8'));
    assert.deepEqual(manifest.files.map((f: { path: string; existed: boolean }) => [f.path, f.existed]), [[fs.realpathSync(file), false]]);
    const event = (await harness()).events({ types: ['ConfigWritten'] }).events.at(-1)!;
    assert.equal(event.reason, 'integration test');
    assert.equal(event.backup, added[0]);
    assert.equal(JSON.stringify(event).includes('made through the pipeline'), false, 'no file content in the log');
    fs.rmSync(file, { force: true });
  });

  test('Cancel writes nothing and keeps no backup', async () => {
    const api = await alfred();
    const file = workspaceFile('.alfred/roles/never-written.toml');
    fs.rmSync(file, { force: true });
    const before = await backupIds();
    const events = (await harness()).events({ types: ['ConfigWritten'] }).events.length;
    const ok = await withReview(false, () => api.writeConfig({ files: [{ path: file, newText: '[role]\nname = "never-written"\n' }], reason: 'cancelled' }));
    assert.equal(ok, false);
    assert.equal(fs.existsSync(file), false);
    assert.deepEqual(await backupIds(), before);
    assert.equal((await harness()).events({ types: ['ConfigWritten'] }).events.length, events);
  });

  test('nothing to change: no confirmation is asked and nothing is written', async () => {
    const api = await alfred();
    const file = workspaceFile('src/cart.js');
    const text = fs.readFileSync(file, 'utf8');
    const before = await backupIds();
    await withReview(true, async (shown) => {
      assert.equal(await api.writeConfig({ files: [{ path: file, newText: text }], reason: 'same text' }), false);
      assert.equal(shown.length, 0);
    });
    assert.deepEqual(await backupIds(), before);
  });

  test('secrets are *** in the diff shown, and a secret file is written 0600', async () => {
    const api = await alfred();
    const file = workspaceFile('.env.alfred-test');
    fs.rmSync(file, { force: true });
    await withReview(true, async (shown) => {
      assert.equal(await api.writeConfig({ files: [{ path: file, newText: 'OPENAI_API_KEY=sk-abcdefghijklmnopqrstuv\nHOST=x\n' }], reason: 'env' }), true);
      assert.equal(shown[0]!.files[0]!.diff.includes('sk-abc'), false);
      assert.match(shown[0]!.files[0]!.diff, /^\+OPENAI_API_KEY=\*\*\*$/m);
    });
    assert.match(fs.readFileSync(file, 'utf8'), /sk-abcdefghijklmnopqrstuv/);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    fs.rmSync(file, { force: true });
  });

  test('Restore Backup and Pin Backup work on the backups the pipeline made', async () => {
    const api = await alfred();
    const file = workspaceFile('.alfred/roles/restorable.toml');
    fs.rmSync(file, { force: true });
    await withReview(true, () => api.writeConfig({ files: [{ path: file, newText: '[role]\nname = "restorable"\ndescription = "v1"\n' }], reason: 'v1' }));
    await withReview(true, () => api.writeConfig({ files: [{ path: file, newText: '[role]\nname = "restorable"\ndescription = "v2"\n' }], reason: 'v2' }));
    const v2backup = (await harness()).events({ types: ['ConfigWritten'] }).events.at(-1)!.backup as string;
    assert.equal(await vscode.commands.executeCommand('alfred.pinBackup', v2backup), true);
    const restored = await withReview(true, async (shown) => {
      const ok = await vscode.commands.executeCommand('alfred.restoreBackup', v2backup);
      assert.match(shown[0]!.files[0]!.diff, /^-description = "v2"\n\+description = "v1"$/m);
      return ok;
    });
    assert.equal(restored, true);
    assert.match(fs.readFileSync(file, 'utf8'), /description = "v1"/);
    assert.equal((await harness()).roles().roles.get('restorable')?.description, 'v1');
    assert.equal(JSON.parse(fs.readFileSync(`${await backupsDir()}/${v2backup}/manifest.json`, 'utf8')).pinned, true);
    assert.equal(await vscode.commands.executeCommand('alfred.pinBackup', v2backup), false, 'picking a pinned backup unpins it');
    fs.rmSync(file, { force: true });
  });
});
