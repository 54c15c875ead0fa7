/**
 * Audits run in parallel, with a bound: a fake registry (the audit's `fetch`) holds each request a
 * moment and counts how many are open at once. Ten packages at the default bound must overlap (more
 * than one at once) and never pass it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditServers } from '../../../../src/core/rules/mcp/audit';
import { packageOfLaunch } from '../../../../src/core/rules/mcp/launchers';
import type { McpServerEntry } from '../../../../src/core/rules/mcp/types';

/** The bound auditServers documents as its default (AuditOptions.concurrency). */
const DEFAULT_BOUND = 4;

function servers(count: number): McpServerEntry[] {
  return Array.from({ length: count }, (_, i) => {
    const args = ['-y', `pkg-${i}@1.0.0`];
    return { name: `s${i}`, source: 'workspace', configPath: '/ws/.vscode/mcp.json', command: 'npx', args, package: packageOfLaunch('npx', args)! };
  });
}

/** A registry that knows no package, answering each request after `delayMs`, and the most requests it had open at once. */
function countingRegistry(delayMs: number): { fetch: typeof fetch; urls: string[]; peak: () => number } {
  let open = 0;
  let peak = 0;
  const urls: string[] = [];
  const fake = async (input: string | URL | Request): Promise<Response> => {
    urls.push(String(input));
    open++;
    peak = Math.max(peak, open);
    await new Promise((r) => setTimeout(r, delayMs));
    open--;
    return new Response('{"error":"not found"}', { status: 404, headers: { 'content-type': 'application/json' } });
  };
  return { fetch: fake as typeof fetch, urls, peak: () => peak };
}

describe('auditServers runs audits in parallel, within its bound', () => {
  it('ten packages at the default bound: more than one request at once, never more than the bound', async () => {
    const registry = countingRegistry(40);
    const audits = await auditServers(servers(10), { registry: 'http://registry.invalid/', downloadsApi: null, fetch: registry.fetch, writeLatest: false });
    assert.equal(registry.urls.length, 10, 'one metadata request per package');
    assert.ok(registry.peak() > 1, `requests overlapped (peak ${registry.peak()})`);
    assert.ok(registry.peak() <= DEFAULT_BOUND, `at most ${DEFAULT_BOUND} at once (peak ${registry.peak()})`);
    assert.deepEqual(audits.map((a) => a.status), Array(10).fill('not-audited'));
    assert.match(audits[0]!.reason ?? '', /^the registry has no package pkg-0/);
  });

  it('a smaller bound is kept too; the same package asked twice is fetched once', async () => {
    const registry = countingRegistry(20);
    const list = [...servers(6), { ...servers(1)[0]!, name: 'again' }];
    const audits = await auditServers(list, { registry: 'http://registry.invalid/', downloadsApi: null, fetch: registry.fetch, concurrency: 2, writeLatest: false });
    assert.equal(registry.peak(), 2);
    assert.equal(registry.urls.length, 6);
    assert.equal(audits.length, 7);
  });
});
