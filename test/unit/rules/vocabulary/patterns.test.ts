import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compilePatterns, patternProblem, toolSubject } from '../../../../src/core/rules/vocabulary/patterns';

const matches = (patterns: string[], tool: string): string | undefined => compilePatterns(patterns).match(tool);

describe('compilePatterns', () => {
  it('matches exact names case-sensitively, also on the qualified form', () => {
    assert.equal(matches(['Bash'], 'Bash'), 'Bash');
    assert.equal(matches(['Bash'], 'bash'), undefined);
    assert.equal(matches(['runInTerminal'], 'execute/runInTerminal'), 'runInTerminal');
    assert.equal(matches(['execute/runInTerminal'], 'execute/runInTerminal'), 'execute/runInTerminal');
    assert.equal(matches(['execute/runInTerminal'], 'runInTerminal'), undefined);
  });

  it('supports *, ? and character classes', () => {
    assert.equal(matches(['ctx_*'], 'ctx_read'), 'ctx_*');
    assert.equal(matches(['ctx_*'], 'read_file'), undefined);
    assert.equal(matches(['mcp_github_*'], 'mcp_github_create_issue'), 'mcp_github_*');
    assert.equal(matches(['mcp_github_*'], 'mcp_gitlab_create_issue'), undefined);
    assert.equal(matches(['ctx_?ead'], 'ctx_read'), 'ctx_?ead');
    assert.equal(matches(['ctx_?ead'], 'ctx_rread'), undefined);
    assert.equal(matches(['[BK]ash'], 'Kash'), '[BK]ash');
    assert.equal(matches(['[BK]ash'], 'bash'), undefined);
    assert.equal(matches(['CTX_*'], 'ctx_read'), undefined, 'globs are case-sensitive');
  });

  it('lets * cross / (tool names have no path semantics)', () => {
    assert.equal(matches(['execute/*'], 'execute/runInTerminal'), 'execute/*');
    assert.equal(matches(['execute/*'], 'edit/editFiles'), undefined);
    assert.equal(matches(['*'], 'execute/runInTerminal'), '*');
    assert.equal(matches(['*Terminal'], 'execute/runInTerminal'), '*Terminal');
    assert.equal(matches(['mcp__*'], 'mcp__github__create_issue'), 'mcp__*');
  });

  it('matches @category by the tool category, whatever the name', () => {
    for (const tool of ['run_in_terminal', 'Bash', 'bash', 'execute/runInTerminal', 'ctx_shell', 'KillShell']) {
      assert.equal(matches(['@shell'], tool), '@shell', tool);
    }
    assert.equal(matches(['@edit'], 'apply_patch'), '@edit');
    assert.equal(matches(['@edit'], 'read_file'), undefined);
    assert.equal(matches(['@mcp'], 'mcp__a__b'), '@mcp');
    assert.equal(matches(['@read', '@search'], 'Grep'), '@search');
  });

  it('reports the first matching pattern in list order', () => {
    assert.equal(matches(['@shell', 'Bash', 'B*'], 'Bash'), '@shell');
    assert.equal(matches(['B*', 'Bash'], 'Bash'), 'B*');
    assert.equal(matches(['Bash', '@shell'], 'Bash'), 'Bash');
  });

  it('matches nothing for an empty list, an empty pattern or an unknown category', () => {
    assert.equal(matches([], 'ctx_read'), undefined);
    assert.equal(matches(['', '@nonsense'], 'ctx_read'), undefined);
    assert.match(patternProblem('@nonsense') ?? '', /unknown category/);
    assert.equal(patternProblem('@read'), undefined);
    assert.equal(patternProblem('ctx_*'), undefined);
  });

  it('compiles each list once', () => {
    const list = ['ctx_*'];
    assert.equal(compilePatterns(list), compilePatterns(list));
    assert.notEqual(compilePatterns(list), compilePatterns(['ctx_*']));
  });

  it('takes a prepared subject', () => {
    assert.equal(compilePatterns(['@shell']).match(toolSubject('execute/runInTerminal')), '@shell');
  });
});
