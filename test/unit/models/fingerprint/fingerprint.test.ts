import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { readFingerprintFiles } from '../../../../src/core/models/fingerprint/files';
import { canonicalJson, harnessFingerprint, type FingerprintInputs, type RolePolicy } from '../../../../src/core/models/fingerprint/fingerprint';

const sha12 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex').slice(0, 12);

const role: RolePolicy = {
  name: 'coder', shellPolicy: 'track', sandbox: 'auto', failClosed: false,
  tools: { denied: ['rm'] },
  limits: { maxContextTokens: 1000, maxShellInvocations: 5, maxCostUsd: 2, warnAtPercent: 80, blockAtPercent: 100 },
};

const inputs = (over: Partial<FingerprintInputs> = {}): FingerprintInputs => ({
  alfred: '0.9.0', role, model: 'gpt-x', endpoint: 'copilot', pack: 'rust', persona: true, handoff: false,
  checks: Buffer.from('[[check]]\n'), promptFiles: [{ path: 'AGENTS.md', bytes: Buffer.from('be brief') }], labels: { temp: '0.2' },
  ...over,
});

// The role's rules as canonical JSON, written out by hand: sorted keys, defaults of the optional limits filled in.
const POLICY_JSON = '{"failClosed":false,"limits":{"blockAtPercent":100,"maxContextTokens":1000,"maxCostUsd":2,"maxRepeatedCalls":12,'
  + '"maxShellInvocations":5,"maxSubagents":0,"warnAtPercent":80},"sandbox":"auto","shellPolicy":"track","tools":{"denied":["rm"]}}';

describe('harnessFingerprint', () => {
  it('gives every component its exact value, and the id hashes their canonical JSON', () => {
    const fp = harnessFingerprint(inputs());
    const promptFiles = createHash('sha256').update('9:AGENTS.md:8:').update('be brief').digest('hex').slice(0, 12);
    const expected = {
      alfred: '0.9.0', model: 'gpt-x', endpoint: 'copilot', role: 'coder', rolePolicy: sha12(POLICY_JSON), pack: 'rust',
      persona: 'on', handoff: 'off', checks: sha12('[[check]]\n'), promptFiles, 'label.temp': '0.2',
    };
    assert.deepEqual(fp.components, expected);
    const sortedKeys = Object.keys(expected).sort();
    const canonical = `{${sortedKeys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(expected[k as keyof typeof expected])}`).join(',')}}`;
    assert.equal(fp.id, sha12(canonical));
    assert.match(fp.id, /^[0-9a-f]{12}$/);
  });

  it('what the caller cannot know is n/a, and a missing checks file or no prompt file is none', () => {
    const fp = harnessFingerprint({ alfred: '1.0.0', role, checks: null, promptFiles: [], labels: {} });
    assert.deepEqual(fp.components, {
      alfred: '1.0.0', model: 'n/a', endpoint: 'n/a', role: 'coder', rolePolicy: sha12(POLICY_JSON), pack: 'n/a',
      persona: 'n/a', handoff: 'n/a', checks: 'none', promptFiles: 'none',
    });
  });

  it('the same rules under another role name give the same rolePolicy (and another id)', () => {
    const a = harnessFingerprint(inputs());
    const b = harnessFingerprint(inputs({ role: { ...role, name: 'reviewer' } }));
    assert.equal(b.components.rolePolicy, a.components.rolePolicy);
    assert.equal(b.components.role, 'reviewer');
    assert.notEqual(b.id, a.id);
  });

  it('an absent optional limit and its default spelled out hash the same', () => {
    const spelled = harnessFingerprint(inputs({ role: { ...role, limits: { ...role.limits, maxRepeatedCalls: 12, maxSubagents: 0 } } }));
    assert.equal(spelled.id, harnessFingerprint(inputs()).id);
  });

  it('changing one limit changes exactly rolePolicy and id', () => {
    const a = harnessFingerprint(inputs());
    const b = harnessFingerprint(inputs({ role: { ...role, limits: { ...role.limits, maxCostUsd: 2.5 } } }));
    const changed = Object.keys(a.components).filter((k) => a.components[k] !== b.components[k]);
    assert.deepEqual(changed, ['rolePolicy']);
    assert.notEqual(b.id, a.id);
    const c = harnessFingerprint(inputs({ role: { ...role, tools: { denied: ['rm', 'curl'] } } }));
    assert.notEqual(c.components.rolePolicy, a.components.rolePolicy);
  });

  it('key order of the role and of the labels, and the order of the prompt files, do not change the hash', () => {
    const files = [{ path: 'AGENTS.md', bytes: Buffer.from('a') }, { path: '.github/agents/x.agent.md', bytes: Buffer.from('b') }];
    const a = harnessFingerprint(inputs({ promptFiles: files, labels: { x: '1', y: '2' } }));
    const reordered: RolePolicy = {
      limits: { blockAtPercent: 100, warnAtPercent: 80, maxCostUsd: 2, maxShellInvocations: 5, maxContextTokens: 1000 },
      tools: { denied: ['rm'] }, failClosed: false, sandbox: 'auto', shellPolicy: 'track', name: 'coder',
    };
    const b = harnessFingerprint(inputs({ role: reordered, promptFiles: [...files].reverse(), labels: { y: '2', x: '1' } }));
    assert.deepEqual(b.components, a.components);
    assert.equal(b.id, a.id);
    // Moving bytes from one file to another is another configuration.
    const moved = harnessFingerprint(inputs({ promptFiles: [{ path: 'AGENTS.md', bytes: Buffer.from('ab') }, { path: '.github/agents/x.agent.md', bytes: Buffer.from('') }], labels: { x: '1', y: '2' } }));
    assert.notEqual(moved.components.promptFiles, a.components.promptFiles);
  });

  it('canonicalJson sorts nested keys and keeps array order', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [2, 1], c: null } }), '{"a":{"c":null,"d":[2,1]},"b":1}');
  });
});

describe('readFingerprintFiles', () => {
  it('reads the checks file, the prompt files that exist and the labels; nothing else', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-fp-'));
    const write = (rel: string, text: string): void => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    };
    assert.deepEqual(readFingerprintFiles(dir), { checks: null, promptFiles: [], labels: {} });
    write('.alfred/checks.toml', 'C');
    write('CLAUDE.md', 'claude');
    write('.github/agents/rev.agent.md', 'rev');
    write('.github/agents/notes.md', 'not an agent file');
    write('.alfred/labels.toml', 'temperature = 0.2\ncompaction = "off"\n[nested]\nx = 1\n');
    const read = readFingerprintFiles(dir);
    assert.equal(read.checks?.toString(), 'C');
    assert.deepEqual(read.promptFiles.map((f) => [f.path, f.bytes.toString()]), [['CLAUDE.md', 'claude'], ['.github/agents/rev.agent.md', 'rev']]);
    assert.deepEqual(read.labels, { temperature: '0.2', compaction: 'off' });
    write('.alfred/labels.toml', 'not = = toml');
    assert.deepEqual(readFingerprintFiles(dir).labels, {});
  });
});

it('the files are read again when one changes, an agent file edited in place included', () => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-fp-cache-'));
  fs.mkdirSync(path.join(ws, '.github', 'agents'), { recursive: true });
  const agent = path.join(ws, '.github', 'agents', 'a.agent.md');
  fs.writeFileSync(agent, 'one');
  const first = readFingerprintFiles(ws);
  assert.equal(readFingerprintFiles(ws), first, 'unchanged files: the kept reading');
  fs.writeFileSync(agent, 'two, longer');
  assert.equal(Buffer.from(readFingerprintFiles(ws).promptFiles[0]!.bytes).toString(), 'two, longer');
  fs.mkdirSync(path.join(ws, '.alfred'));
  fs.writeFileSync(path.join(ws, '.alfred', 'checks.toml'), '[[check]]\nname = "t"\nrun = "true"\n');
  assert.notEqual(readFingerprintFiles(ws).checks, null);
  fs.rmSync(ws, { recursive: true, force: true });
});
