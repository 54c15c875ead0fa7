import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assessCuration, curationOf, DEFAULT_CURATION, lastPublish } from '../../../../src/core/rules/mcp/curation';

const now = new Date('2026-12-01T00:00:00.000Z');
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000).toISOString();

describe('curation watchdog', () => {
  it('the seed\'s thresholds are the defaults: 100 weekly downloads, 90 days', () => {
    assert.deepEqual(DEFAULT_CURATION, { minWeeklyDownloads: 100, maxDaysSincePublish: 90 });
  });

  it('dead when both rare and stale, decaying when one, alive when neither; the thresholds themselves are on the good side', () => {
    assert.equal(assessCuration({ weeklyDownloads: 99, lastPublish: daysAgo(91) }, now), 'dead');
    assert.equal(assessCuration({ weeklyDownloads: 99, lastPublish: daysAgo(10) }, now), 'decaying');
    assert.equal(assessCuration({ weeklyDownloads: 5000, lastPublish: daysAgo(400) }, now), 'decaying');
    assert.equal(assessCuration({ weeklyDownloads: 100, lastPublish: daysAgo(90) }, now), 'alive');
  });

  it('without downloads the last publish decides between alive and decaying; with neither, unknown', () => {
    assert.equal(assessCuration({ lastPublish: daysAgo(10) }, now), 'alive');
    assert.equal(assessCuration({ lastPublish: daysAgo(200) }, now), 'decaying');
    assert.equal(assessCuration({ weeklyDownloads: 3 }, now), 'decaying');
    assert.equal(assessCuration({}, now), 'unknown');
    assert.equal(assessCuration({ lastPublish: 'not a date' }, now), 'unknown');
  });

  it('thresholds are configurable', () => {
    const strict = { minWeeklyDownloads: 10_000, maxDaysSincePublish: 30 };
    assert.equal(assessCuration({ weeklyDownloads: 5000, lastPublish: daysAgo(45) }, now, strict), 'dead');
  });

  it('last publish: the newest version\'s time, not time.modified (a deprecation or a tag moves it); time.modified when versions have none', () => {
    const doc = { name: 'p', versions: { '1.0.0': { version: '1.0.0' }, '1.1.0': { version: '1.1.0' } },
      time: { created: '2020-01-01T00:00:00.000Z', modified: '2026-11-30T00:00:00.000Z', '1.0.0': '2020-01-01T00:00:00.000Z', '1.1.0': '2021-06-01T12:00:00.000Z' } };
    assert.equal(lastPublish(doc), '2021-06-01T12:00:00.000Z');
    assert.equal(lastPublish({ name: 'p', versions: { '1.0.0': { version: '1.0.0' } }, time: { modified: '2024-05-05T00:00:00Z' } }), '2024-05-05T00:00:00.000Z');
    assert.equal(lastPublish({ name: 'p', versions: {} }), undefined);
  });

  it('the audit\'s block carries the facts and the audited version\'s deprecation', () => {
    const doc = { name: 'p', versions: { '1.0.0': { version: '1.0.0', deprecated: 'use q' }, '2.0.0': { version: '2.0.0' } },
      time: { '1.0.0': daysAgo(500), '2.0.0': daysAgo(200) } };
    assert.deepEqual(curationOf(doc, '1.0.0', 12, now), { verdict: 'dead', weeklyDownloads: 12, lastPublish: daysAgo(200), deprecated: 'use q' });
    assert.deepEqual(curationOf(doc, '2.0.0', undefined, now), { verdict: 'decaying', lastPublish: daysAgo(200) });
  });
});
