import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { withCodexProjectTrust, withCopilotCliTrust, withGeminiTrust } from '../../../../src/core/integrations/agents/trustEdits';

describe('trust entries added to the agents\' own files', () => {
  it('Codex: a new table at the end, the user\'s settings kept; an untrusted entry turned trusted; unchanged when already trusted', () => {
    assert.equal(withCodexProjectTrust(undefined, '/w/app'), '[projects."/w/app"]\ntrust_level = "trusted"\n');
    assert.equal(withCodexProjectTrust('model = "o3"\n', '/w/app'), 'model = "o3"\n\n[projects."/w/app"]\ntrust_level = "trusted"\n');
    const untrusted = '[projects."/w/app"]\ntrust_level = "untrusted"\n\n[tui]\ntheme = "x"\n';
    const fixed = withCodexProjectTrust(untrusted, '/w/app')!;
    assert.deepEqual(JSON.parse(JSON.stringify(parseToml(fixed))), { projects: { '/w/app': { trust_level: 'trusted' } }, tui: { theme: 'x' } });
    const trusted = '[projects."/w/app"]\ntrust_level = "trusted"\n';
    assert.equal(withCodexProjectTrust(trusted, '/w/app'), trusted);
  });

  it('Codex: a path with a quote or a backslash is written as TOML reads it back; a broken file is left to the user', () => {
    const odd = 'C:\\Users\\a "b"';
    const out = withCodexProjectTrust('', odd)!;
    assert.deepEqual(JSON.parse(JSON.stringify(parseToml(out))), { projects: { [odd]: { trust_level: 'trusted' } } });
    assert.equal(withCodexProjectTrust('x = [', '/w'), undefined);
  });

  it('Copilot CLI: trusted_folders extended, other keys kept; not a list: left to the user', () => {
    assert.deepEqual(JSON.parse(withCopilotCliTrust(undefined, '/w/app')!), { trusted_folders: ['/w/app'] });
    assert.deepEqual(JSON.parse(withCopilotCliTrust('{"model":"x","trusted_folders":["/a"]}', '/w/app')!), { model: 'x', trusted_folders: ['/a', '/w/app'] });
    assert.equal(withCopilotCliTrust('{"trusted_folders":["/w/app"]}', '/w/app'), '{"trusted_folders":["/w/app"]}');
    assert.equal(withCopilotCliTrust('{"trusted_folders":"/a"}', '/w/app'), undefined);
    assert.equal(withCopilotCliTrust('{oops', '/w/app'), undefined);
  });

  it('Gemini CLI: the folder as TRUST_FOLDER, a DO_NOT_TRUST of it replaced, the rest kept', () => {
    assert.deepEqual(JSON.parse(withGeminiTrust(undefined, '/w/app')!), { '/w/app': 'TRUST_FOLDER' });
    assert.deepEqual(JSON.parse(withGeminiTrust('{"/w/app":"DO_NOT_TRUST","/x":"TRUST_PARENT"}', '/w/app')!), { '/w/app': 'TRUST_FOLDER', '/x': 'TRUST_PARENT' });
  });
});
