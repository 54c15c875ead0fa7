/**
 * Settings that name a server or a key are the user's alone (`"scope": "machine"`): a repository's
 * `.vscode/settings.json` or workspace file, which anyone who publishes a repository writes, cannot
 * point Alfred's models at a server of its choosing with the user's key by reference, nor move the
 * ledger to another database, nor the audit's registry.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { scope?: string }> } };
};
const properties = manifest.contributes.configuration.properties;

test('alfred.providers, alfred.ledgerUrl and the audit\'s registry are set by the user only', () => {
  const userOnly = ['alfred.providers', 'alfred.ledgerUrl', 'alfred.mcpAudit.downloadsApi'];
  assert.deepEqual(userOnly.map((k) => [k, properties[k]?.scope]), userOnly.map((k) => [k, 'machine']));
});
