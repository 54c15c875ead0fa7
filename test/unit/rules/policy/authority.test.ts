/** Which switches raise authority (and so wait for the user) and which do not. */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { loadRoles } from '../../../../src/core/rules/roles/loader';
import { moreAuthority } from '../../../../src/core/rules/policy/authority';
import type { Role } from '../../../../src/core/rules/roles/types';

const ROOT = path.resolve(__dirname, '../../../..');
const roles = loadRoles({ workspaceFolder: ROOT, homeDir: '/nonexistent-home', builtinDir: path.join(ROOT, 'roles'), trusted: false }).roles;
const role = (name: string): Role => roles.get(name)!;

describe('moreAuthority', () => {
  it('names every way a built-in role can do more than another', () => {
    assert.deepEqual(moreAuthority(role('admin'), role('coder')), ['context tokens 200000 → 500000', 'shell calls 100 → 500', 'cost limit $ 5 → 50', 'network reaches every name']);
    const fromReviewer = moreAuthority(role('coder'), role('reviewer'));
    assert.equal(fromReviewer[0], 'context tokens 150000 → 200000');
    assert.ok(fromReviewer.includes('shell calls 0 → 100'));
    assert.ok(fromReviewer.includes('shell deny → track'));
    assert.match(fromReviewer.at(-1)!, /^tools /);
  });

  it('a switch down, or to an equal role, raises nothing', () => {
    assert.deepEqual(moreAuthority(role('reviewer'), role('coder')), []);
    assert.deepEqual(moreAuthority(role('coder'), role('coder')), []);
    assert.deepEqual(moreAuthority(role('coder'), role('admin')), []);
  });

  it('less sandbox, failing open and a higher block threshold are more authority', () => {
    const base = role('coder');
    assert.deepEqual(moreAuthority({ ...base, sandbox: 'off' }, { ...base, sandbox: 'required' }), ['sandbox required → off']);
    assert.deepEqual(moreAuthority({ ...base, sandbox: 'required' }, { ...base, sandbox: 'strict' }), ['sandbox strict → required'], 'strict writes only the workspace: required writes the home too');
    assert.deepEqual(moreAuthority({ ...base, sandbox: 'strict' }, { ...base, sandbox: 'required' }), []);
    assert.deepEqual(moreAuthority(base, { ...base, failClosed: true }), ['fails open instead of closed']);
    assert.deepEqual(moreAuthority({ ...base, limits: { ...base.limits, blockAtPercent: 150 } }, base), ['block at % 100 → 150']);
    assert.deepEqual(moreAuthority({ ...base, tools: { denied: [] } }, { ...base, tools: { denied: ['mcp_*'] } }), ['tools mcp_github_create_issue, mcp__github__create_issue']);
  });

  it('wider sandbox writes, network and fewer questions are more authority', () => {
    const base: Role = { ...role('coder'), allowWrite: ['~/notes'], network: { allow: ['registry.npmjs.org'], deny: ['evil.example'] }, tools: { denied: [], ask: ['@exec:git push*'] } };
    assert.deepEqual(moreAuthority({ ...base, allowWrite: ['~/notes/today', '~/.ssh'] }, base), ['sandboxed commands write ~/.ssh']);
    assert.deepEqual(moreAuthority({ ...base, allowWrite: ['~/notes/../.ssh'] }, base), ['sandboxed commands write ~/notes/../.ssh'], 'not under ~/notes once resolved');
    assert.deepEqual(moreAuthority({ ...base, network: { allow: ['registry.npmjs.org', 'pastebin.com'], deny: ['evil.example'] } }, base), ['network reaches pastebin.com']);
    assert.deepEqual(moreAuthority({ ...base, network: { allow: ['*'], deny: [] } }, base), ['network reaches every name']);
    assert.deepEqual(moreAuthority({ ...base, network: undefined }, base), ['network reaches every name'], 'no rules: the network as it is');
    assert.deepEqual(moreAuthority({ ...base, network: { allow: ['registry.npmjs.org'], deny: [] } }, base), ['network no longer denies evil.example']);
    assert.deepEqual(moreAuthority({ ...base, tools: { denied: [] } }, base), ['no longer asks for @exec:git push*']);
    assert.deepEqual(moreAuthority({ ...base, allowWrite: [], network: { allow: [], deny: [] }, tools: { denied: [], ask: ['@exec:git push*', '@exec:rm *'] } }, base), [], 'narrower on each: nothing more');
  });
});
