import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { McpAudit } from '../../../../src/core/rules/mcp/types';
import { decide, rolePermits } from '../../../../src/core/rules/policy/gate';
import { readMcpTrust, latestAuditPath } from '../../../../src/core/rules/policy/mcpAuditFile';
import { serverReadings } from '../../../../src/core/rules/vocabulary/mcpServer';
import { trustFromAudits, NO_AUDIT, type McpTrust } from '../../../../src/core/rules/policy/mcpTrust';
import { compilePatterns, patternProblem } from '../../../../src/core/rules/vocabulary/patterns';
import { toolCall } from '../../../../src/core/rules/policy/toolCall';
import type { McpRules, Role, ToolRules } from '../../../../src/core/rules/roles/types';

function role(tools: ToolRules, mcp?: McpRules): Role {
  return {
    name: 'r', source: 'project', path: '/r.toml', description: '', shellPolicy: 'track', sandbox: 'auto', tools, failClosed: false,
    ...(mcp ? { mcp } : {}),
    limits: { maxContextTokens: 1000, maxShellInvocations: 10, maxCostUsd: 5, warnAtPercent: 80, blockAtPercent: 100 },
  };
}

function audit(name: string, over: Partial<McpAudit> = {}): McpAudit {
  return {
    server: { name, source: 'workspace', configPath: '/w/.vscode/mcp.json', command: 'npx', args: [`${name}-pkg@1.0.0`],
      package: { ecosystem: 'npm', name: `${name}-pkg`, spec: '1.0.0', version: '1.0.0', pinned: true } },
    status: 'audited', auditedVersion: `${name}-pkg@1.0.0`, inUseIsAudited: true, installScripts: {}, hosts: [], binaries: [],
    dependencyCount: 0, curation: { verdict: 'alive', weeklyDownloads: 5000, lastPublish: '2026-11-01T00:00:00.000Z' }, auditedAt: '2026-12-01T00:00:00.000Z',
    ...over,
  };
}

const gate = (r: Role, tool: string, trust: McpTrust = NO_AUDIT, input?: unknown) => decide({ role: r, call: toolCall(tool, input), mcpTrust: () => trust });

describe('@mcp:server patterns', () => {
  it('match every tool of the server, whatever the agent calls it', () => {
    const m = compilePatterns(['@mcp:github']);
    for (const tool of ['mcp_github_create_issue', 'mcp__github__create_issue', 'github-create_issue', 'mcp_github_x', 'mcp__GitHub__x']) {
      assert.equal(m.match(tool), '@mcp:github', tool);
    }
    assert.equal(m.match('ReadMcpResourceTool'), undefined, 'no server in the input');
    assert.equal(decide({ role: role({ denied: ['@mcp:github'] }), call: toolCall('ReadMcpResourceTool', { server: 'github', uri: 'x' }) }).code, 'tool-denied');
  });

  it('a server named git does not match github, nor github git', () => {
    const git = compilePatterns(['@mcp:git']);
    const github = compilePatterns(['@mcp:github']);
    for (const tool of ['mcp_github_x', 'mcp__github__x', 'github-x']) assert.equal(git.match(tool), undefined, tool);
    for (const tool of ['mcp_git_status', 'mcp__git__status', 'git-status']) assert.equal(github.match(tool), undefined, tool);
    assert.equal(git.match('mcp_git_status'), '@mcp:git');
  });

  it('match only MCP tools: a built-in whose name looks like a server tool is not one', () => {
    assert.equal(compilePatterns(['@mcp:run']).match('run_in_terminal'), undefined);
    assert.equal(compilePatterns(['@mcp:ctx']).match('ctx_read'), undefined);
  });

  it('read every split of an ambiguous name', () => {
    assert.deepEqual(serverReadings('mcp_git_hub_push'), ['git', 'git_hub']);
    assert.deepEqual(serverReadings('mcp__git__hub__push'), ['git', 'git__hub', '_git', '_git_', '_git__hub', '_git__hub_']);
    assert.deepEqual(serverReadings('git-hub-push'), ['git', 'git_hub']);
    assert.deepEqual(serverReadings('read_file'), []);
  });

  it('a tool named to look like another server\'s does not pass an allow of that server', () => {
    // Server "git" (untrusted) names its tool "hub_push": VS Code calls it mcp_git_hub_push, like a tool "push" of "git-hub".
    const allowGitHub = role({ allowed: ['@mcp:git-hub', 'read_file'], denied: [] });
    const trust = trustFromAudits([audit('git-hub'), audit('git')]);
    const d = gate(allowGitHub, 'mcp_git_hub_push', trust);
    assert.equal(d.allowed, false);
    assert.equal(d.code, 'tool-not-allowed');
    assert.equal(rolePermits(allowGitHub, 'mcp_git_hub_push', trust), false);
    // The real tool of git-hub, with the same inventory, passes; so does any when only git-hub is configured.
    assert.equal(gate(allowGitHub, 'mcp_git_hub_list', trustFromAudits([audit('git-hub')])).allowed, true);
    assert.equal(gate(allowGitHub, 'mcp__git-hub__push', trust).allowed, true);
  });

  it('a deny of a server refuses every name that may be its tool', () => {
    const denyGitHub = role({ denied: ['@mcp:git_hub'] });
    const trust = trustFromAudits([audit('git-hub'), audit('git')]);
    assert.equal(gate(denyGitHub, 'mcp_git_hub_push', trust).code, 'tool-denied');
    assert.equal(gate(denyGitHub, 'mcp_git_status', trust).allowed, true);
    assert.equal(gate(role({ denied: ['@mcp:github'] }), 'mcp__github__delete_repo').reason,
      'Tool mcp__github__delete_repo is denied for role r by the pattern "@mcp:github". Ask the user to switch role if mcp__github__delete_repo is needed.');
  });

  it('are checked as patterns: an empty server is a problem, a good one is not', () => {
    assert.equal(patternProblem('@mcp:github'), undefined);
    assert.equal(patternProblem('@mcp:'), '"@mcp:" names no MCP server; write @mcp:SERVER, e.g. @mcp:github');
    assert.equal(patternProblem('@mcp'), undefined, 'the category');
    assert.match(patternProblem('@mcpgithub') ?? '', /^unknown category @mcpgithub/);
  });
});

describe('[mcp] unaudited / dead', () => {
  const trust = trustFromAudits([
    audit('github'),
    audit('old', { curation: { verdict: 'dead', weeklyDownloads: 3, lastPublish: '2024-01-02T00:00:00.000Z' } }),
    audit('moving', { inUseIsAudited: false, server: { ...audit('moving').server, package: { ecosystem: 'npm', name: 'moving-pkg', spec: 'latest', pinned: false } } }),
    audit('offline', { status: 'not-audited', reason: 'the registry did not answer (ECONNREFUSED)' }),
  ]);

  it('allow is the default: nothing changes', () => {
    for (const tool of ['mcp_old_x', 'mcp_unknown_x', 'mcp_offline_x']) {
      const d = gate(role({ denied: [] }), tool, trust);
      assert.deepEqual([d.allowed, d.confirm], [true, undefined], tool);
    }
  });

  it('ask: an unaudited server\'s tool is allowed once confirmed, an audited one passes', () => {
    const r = role({ denied: [] }, { unaudited: 'ask', dead: 'allow' });
    assert.deepEqual(gate(r, 'mcp_github_create_issue', trust), { allowed: true, category: 'mcp', shellCharge: 0 });
    assert.equal(gate(r, 'mcp_offline_x', trust).confirm,
      'Tool mcp_offline_x belongs to MCP server "offline": its package could not be audited (the registry did not answer (ECONNREFUSED)). Role r asks the user before the tools of unaudited MCP servers run ([mcp] unaudited = "ask").');
    assert.match(gate(r, 'mcp__moving__x', trust).confirm ?? '', /the version it runs may not be the audited moving-pkg@1\.0\.0 \(moving-pkg@latest; pin it/);
    assert.match(gate(r, 'notinaudit-x', trust).confirm ?? '', /MCP server "notinaudit": it is not in Alfred's latest MCP audit/);
    assert.equal(gate(r, 'mcp_old_x', trust).confirm, undefined, 'dead but audited, dead = allow');
  });

  it('deny: a dead server\'s tools are refused with the facts', () => {
    const r = role({ denied: [] }, { unaudited: 'allow', dead: 'deny' });
    const d = gate(r, 'mcp_old_fetch', trust);
    assert.equal(d.code, 'mcp-untrusted');
    assert.equal(d.reason, 'Tool mcp_old_fetch belongs to MCP server "old": its package looks unmaintained (3 downloads a week, last published 2024-01-02). Role r refuses the tools of dead MCP servers ([mcp] dead = "deny"). Ask the user to audit and pin the server, or to switch role.');
    assert.equal(rolePermits(r, 'mcp_old_fetch', trust), false);
    assert.equal(rolePermits(r, 'mcp_github_x', trust), true);
  });

  it('the audit is read only for MCP calls of a role whose rules need it', () => {
    let reads = 0;
    const counting = () => { reads++; return trust; };
    decide({ role: role({ denied: ['mcp_x_*'] }), call: toolCall('mcp_github_x'), mcpTrust: counting });
    decide({ role: role({ denied: [] }, { unaudited: 'allow', dead: 'allow' }), call: toolCall('mcp_github_x'), mcpTrust: counting });
    decide({ role: role({ denied: [] }, { unaudited: 'ask', dead: 'allow' }), call: toolCall('read_file', { filePath: 'a' }), mcpTrust: counting });
    assert.equal(reads, 0);
    decide({ role: role({ denied: ['@mcp:x'] }), call: toolCall('mcp_github_x'), mcpTrust: counting });
    decide({ role: role({ denied: [] }, { unaudited: 'allow', dead: 'ask' }), call: toolCall('mcp_github_x'), mcpTrust: counting });
    assert.equal(reads, 2);
  });

  it('no audit at all: every server is unaudited; non-MCP tools never are', () => {
    const r = role({ denied: [] }, { unaudited: 'deny', dead: 'allow' });
    assert.equal(gate(r, 'mcp_github_x').code, 'mcp-untrusted');
    assert.equal(gate(r, 'read_file').allowed, true);
    assert.equal(gate(r, 'ListMcpResourcesTool').code, 'mcp-untrusted', 'no server named: cannot be vouched for');
  });

  it('an ambiguous name is judged by its strictest reading', () => {
    const r = role({ denied: [] }, { unaudited: 'ask', dead: 'deny' });
    const t = trustFromAudits([audit('git_hub'), audit('git', { curation: { verdict: 'dead' } })]);
    assert.equal(gate(r, 'mcp_git_hub_push', t).code, 'mcp-untrusted');
  });
});

describe('readMcpTrust', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-mcptrust-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads latest.json, follows its changes, and reads a broken file as no audit', () => {
    assert.equal(readMcpTrust(dir), NO_AUDIT);
    fs.mkdirSync(path.dirname(latestAuditPath(dir)), { recursive: true });
    fs.writeFileSync(latestAuditPath(dir), JSON.stringify({ at: 'x', audits: [audit('GitHub')] }));
    assert.deepEqual([...readMcpTrust(dir).known], ['github']);
    fs.writeFileSync(latestAuditPath(dir), JSON.stringify({ at: 'y', audits: [audit('a'), audit('b', { status: 'not-checked', reason: 'docker image' })] }) + '\n');
    assert.deepEqual([...readMcpTrust(dir).known], ['a', 'b']);
    assert.deepEqual(readMcpTrust(dir).servers.get('b'), { unaudited: 'it was not audited (docker image)' });
    fs.writeFileSync(latestAuditPath(dir), '{"audits": [tor');
    assert.equal(readMcpTrust(dir).known.size, 0);
  });
});
