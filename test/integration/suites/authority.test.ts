import * as assert from 'node:assert/strict';
import { readRuntimeRole } from '../../../src/core/rules/roles/runtimeRole';
import { alfred, freshSession, until } from '../helpers';

/**
 * A raise of authority asked for outside the editor (`alfred role admin` in a terminal, perhaps an
 * agent's) is put to the user in a modal dialog; it takes effect only when confirmed, and a refusal is
 * logged. The request is written the way another process writes it: to the event log, from where the
 * extension's watcher picks it up.
 */
suite('Authority requested from outside the editor', () => {
  test('declined: the role stays and AuthorityDeclined is logged; confirmed: the switch happens, recorded with who asked', async () => {
    const api = await alfred();
    const h = await freshSession('coder');
    const original = api.prompts.confirm;
    const asked: string[] = [];
    try {
      api.prompts.confirm = async (message) => { asked.push(message); return false; };
      await h.requestAuthority({ action: 'role', target: 'admin', by: 'cli', gains: h.authorityGainOf('admin') });
      await until('the decline to be logged', () => h.events({ types: ['AuthorityDeclined'] }).events.length > 0);
      assert.equal(h.activeRole().role.name, 'coder');
      assert.deepEqual(asked, ['Switch Alfred to role admin?']);
      api.prompts.confirm = async () => true;
      await h.requestAuthority({ action: 'role', target: 'admin', by: 'cli', gains: h.authorityGainOf('admin') });
      await until('the confirmed switch', () => h.activeRole().role.name === 'admin');
      assert.deepEqual(readRuntimeRole(h.stateDir)?.by, 'cli (confirmed by the user in VS Code)');
    } finally {
      api.prompts.confirm = original;
    }
  });
});
