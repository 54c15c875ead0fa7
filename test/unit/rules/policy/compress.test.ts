import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compressShellOutput, formatSize } from '../../../../src/core/rules/policy/compress';

const numbered = (n: number): string[] => Array.from({ length: n }, (_, i) => `line ${i + 1}`);

describe('compressShellOutput', () => {
  it('returns short output unchanged plus the exit code', () => {
    assert.equal(compressShellOutput('a\nb\n', 0), 'a\nb\nexit code: 0');
    assert.equal(compressShellOutput('a\na\na', 1), 'a\na\na\nexit code: 1');
    assert.equal(compressShellOutput('', 2), 'exit code: 2');
    assert.equal(compressShellOutput('x', null), 'x\nexit code: unknown');
  });

  it('keeps head and tail of long output and says how much was cut', () => {
    const lines = numbered(1000);
    const out = compressShellOutput(lines.join('\n'), 3).split('\n');
    assert.equal(out.length, 40 + 1 + 40 + 1);
    assert.deepEqual(out.slice(0, 40), lines.slice(0, 40));
    assert.deepEqual(out.slice(41, 81), lines.slice(960));
    const cutBytes = lines.slice(40, 960).reduce((n, l) => n + l.length + 1, 0);
    assert.equal(out[40], `… 920 lines (${formatSize(cutBytes)}) cut …`);
    assert.match(out[40] as string, /^… 920 lines \(\d+ KB\) cut …$/);
    assert.equal(out[81], 'exit code: 3');
  });

  it('honours head and tail options', () => {
    const out = compressShellOutput(numbered(20).join('\n'), 0, { headLines: 2, tailLines: 3 });
    assert.equal(out, 'line 1\nline 2\n… 15 lines (113 B) cut …\nline 18\nline 19\nline 20\nexit code: 0');
  });

  it('folds runs of identical lines, counting folded lines when cutting', () => {
    const text = ['start', ...Array<string>(500).fill('retrying...'), 'done'].join('\r\n');
    assert.equal(compressShellOutput(text, 0), 'start\nretrying... (repeated 500 times)\ndone\nexit code: 0');
    const long = [...numbered(5), ...Array<string>(100).fill('x'), ...numbered(5)].join('\n');
    assert.equal(compressShellOutput(long, 1, { headLines: 2, tailLines: 2 }),
      'line 1\nline 2\n… 106 lines (242 B) cut …\nline 4\nline 5\nexit code: 1');
    const middle = [...Array<string>(100).fill('x'), 'end'].join('\n');
    assert.equal(compressShellOutput(middle, 0, { headLines: 1, tailLines: 1 }), 'x (repeated 100 times)\nend\nexit code: 0');
  });

  it('shortens overlong lines', () => {
    const out = compressShellOutput('y'.repeat(5000), 0, { maxLineChars: 100 });
    assert.equal(out, `${'y'.repeat(50)} … 4900 chars cut … ${'y'.repeat(50)}\nexit code: 0`);
  });
});

describe('formatSize', () => {
  it('uses B, KB and MB', () => {
    assert.equal(formatSize(512), '512 B');
    assert.equal(formatSize(57344), '56 KB');
    assert.equal(formatSize(3 * 1024 * 1024), '3.0 MB');
  });
});
