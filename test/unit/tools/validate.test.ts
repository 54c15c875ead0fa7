import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TOOL_CONTRACTS } from '../../../src/core/tools/contracts';
import { validateToolInput } from '../../../src/core/tools/validate';

interface Case {
  good: Record<string, unknown>[];
  /** An input missing a required argument, and that argument (none for tools without one). */
  missing?: [Record<string, unknown>, string];
  wrongType: [Record<string, unknown>, string];
  enumViolation?: [Record<string, unknown>, string];
}

const CASES: Record<string, Case> = {
  ctx_read: {
    good: [{ path: 'src/a.ts' }, { path: 'a.ts', startLine: 1, endLine: 20 }],
    missing: [{ startLine: 1 }, 'path'],
    wrongType: [{ path: 'a.ts', startLine: 'one' }, 'startLine'],
  },
  ctx_search: {
    good: [{ query: 'TODO' }, { query: 'a.c', isRegex: true, caseSensitive: false, include: ['src/**'], exclude: ['**/*.md'], maxResults: 10 }],
    missing: [{ isRegex: true }, 'query'],
    wrongType: [{ query: 'x', include: 'src/**' }, 'include'],
  },
  ctx_tree: {
    good: [{}, { path: 'src', depth: 2 }],
    wrongType: [{ depth: 2.5 }, 'depth'],
  },
  ctx_edit: {
    good: [{ path: 'a.ts', newString: 'x' }, { path: 'a.ts', oldString: 'a', newString: 'b', replaceAll: true }],
    missing: [{ path: 'a.ts', oldString: 'a' }, 'newString'],
    wrongType: [{ path: 'a.ts', newString: 'b', replaceAll: 'yes' }, 'replaceAll'],
  },
  ctx_shell: {
    good: [{ command: 'npm test' }, { command: 'ls', cwd: 'src', timeoutSeconds: 30 }],
    missing: [{ cwd: 'src' }, 'command'],
    wrongType: [{ command: ['ls'] }, 'command'],
  },
  ctx_session: {
    good: [{ action: 'status' }, { action: 'budget' }, { action: 'role', value: 'reviewer' }, { action: 'reset' }],
    missing: [{ value: 'reviewer' }, 'action'],
    wrongType: [{ action: 'role', value: 7 }, 'value'],
    enumViolation: [{ action: 'delete' }, 'action'],
  },
  alfred_memory_append: {
    good: [{ text: 'Tests run with node --test.' }],
    missing: [{}, 'text'],
    wrongType: [{ text: 42 }, 'text'],
  },
};

const NOTHING_RUN = /Nothing was run\.$/;

it('covers every Alfred tool', () => {
  assert.deepEqual(Object.keys(CASES).sort(), TOOL_CONTRACTS.map((c) => c.name).sort());
});

for (const [tool, c] of Object.entries(CASES)) {
  describe(tool, () => {
    it('good input passes, returned as given', () => {
      for (const input of c.good) assert.deepEqual(validateToolInput(tool, input), { ok: true, value: input });
    });

    const failsNaming = (input: unknown, argument: string, wording: RegExp) => {
      const r = validateToolInput(tool, input);
      assert.equal(r.ok, false, JSON.stringify(input));
      if (r.ok) return;
      assert.match(r.error, new RegExp(`^Invalid arguments for ${tool}: `));
      assert.ok(r.error.includes(`"${argument}"`), `names "${argument}": ${r.error}`);
      assert.match(r.error, wording);
      assert.match(r.error, NOTHING_RUN);
    };

    if (c.missing) {
      const [input, argument] = c.missing;
      it(`a missing ${argument} is named`, () => failsNaming(input, argument, /missing argument/));
    }
    it(`a wrong type for ${c.wrongType[1]} is named`, () => failsNaming(c.wrongType[0], c.wrongType[1], /must be/));
    it('an unknown argument is named', () => failsNaming({ ...c.good[0], bogus: 1 }, 'bogus', /unknown argument "bogus"/));
    if (c.enumViolation) {
      const [input, argument] = c.enumViolation;
      it(`a value of ${argument} outside its enum is named`, () => failsNaming(input, argument, /must be equal to one of the allowed values/));
    }
  });
}

describe('every problem at once', () => {
  it('lists each bad argument in one error', () => {
    const r = validateToolInput('ctx_read', { startLine: 0, extra: true });
    assert.equal(r.ok, false);
    if (r.ok) return;
    for (const part of ['missing argument "path"', 'unknown argument "extra"', '"startLine" must be >= 1']) assert.ok(r.error.includes(part), `${part} in ${r.error}`);
  });

  it('input that is not an object is refused', () => {
    for (const input of [null, 'path', 42, ['a']]) {
      const r = validateToolInput('ctx_read', input);
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.error, NOTHING_RUN);
    }
  });

  it('an unknown tool is refused by name', () => {
    assert.deepEqual(validateToolInput('ctx_nope', {}), { ok: false, error: 'Unknown Alfred tool "ctx_nope".' });
  });
});
