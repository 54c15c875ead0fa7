/** The descriptor table: one row per agent, whose commands the manifest contributes, in both languages. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { GOVERNED_AGENTS } from '../../../src/core/protect/agentTable';
import { AGENT_HOOK_FILES } from '../../../src/core/integrations/hooks/agentHooks';
import { categoryOf } from '../../../src/core/rules/vocabulary/categories';
import { isNewShellInvocation } from '../../../src/core/rules/vocabulary/categories';

const ROOT = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { contributes: { commands: Array<{ command: string; title: string }> } };
const nls = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, string>;

describe('the agent descriptors', () => {
  it('keep the command ids of before, one pair per hook file, Gemini CLI\'s added', () => {
    assert.deepEqual([...new Set(GOVERNED_AGENTS.flatMap((a) => [a.commands.govern, a.commands.stop]))], [
      'alfred.governCopilot', 'alfred.stopGoverningCopilot', 'alfred.governClaudeCode', 'alfred.stopGoverningClaudeCode',
      'alfred.governCodex', 'alfred.stopGoverningCodex', 'alfred.governGemini', 'alfred.stopGoverningGemini',
    ]);
  });

  it('every govern and stop command is contributed, titled in English and Spanish', () => {
    for (const agent of GOVERNED_AGENTS) {
      for (const id of [agent.commands.govern, agent.commands.stop]) {
        const contributed = manifest.contributes.commands.find((c) => c.command === id);
        assert.ok(contributed, `${id} contributed`);
        const key = contributed.title.replace(/^%|%$/g, '');
        assert.ok(nls('package.nls.json')[key], `${key} in English`);
        assert.ok(nls('package.nls.es.json')[key], `${key} in Spanish`);
      }
    }
  });

  it('each agent has its hook file behaviour, and installing then removing leaves the user\'s file', () => {
    for (const agent of GOVERNED_AGENTS) {
      const hooks = AGENT_HOOK_FILES[agent.id];
      const written = hooks.install(undefined);
      assert.ok(hooks.installed(written), agent.id);
      assert.equal(hooks.remove(written), null, `${agent.id}: a file that held only Alfred's hooks goes`);
    }
  });

  it('each terminal agent names its program and the version it was tested with; its tools are in the category table', () => {
    for (const agent of GOVERNED_AGENTS.filter((a) => a.cli)) {
      assert.match(agent.cli!.testedWith, /^\d+\.\d+\.\d+$/, agent.id);
      for (const [category, names] of Object.entries(agent.tools)) {
        for (const name of names) {
          if (category === 'shellHelpers') assert.deepEqual([categoryOf(name), isNewShellInvocation(name)], ['shell', false], name);
          else assert.equal(categoryOf(name), category, `${agent.id}: ${name}`);
        }
      }
    }
  });
});
