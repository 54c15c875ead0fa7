import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { parseSuite, suiteHash, taskInstanceId } from '../../../src/core/trials/suite';

const sha12 = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 12);
const FILE = '/w/.alfred/trials.toml';

const SUITE = `
trials = 3
stop = "all"
[[task]]
id = "fix-add"
prompt = "Make test/add.test.js pass"
start = "HEAD"
checks = ".alfred/checks.toml"
hidden_checks = ".alfred/hidden-checks.toml"
budget = { tokens = 50000, seconds = 300, usd = 0.50 }
[[condition]]
name = "control"
control = true
[condition.components]
handoff = "off"
[[condition]]
name = "handoff"
[condition.components]
handoff = "on"
label.temperature = "0.2"
`;

describe('parseSuite', () => {
  it('reads the contract example exactly, named after the file', () => {
    const { suite, problems } = parseSuite(SUITE, FILE);
    assert.deepEqual(problems, []);
    assert.deepEqual(suite, {
      name: 'trials', path: FILE, trials: 3, stop: 'all',
      tasks: [{ id: 'fix-add', prompt: 'Make test/add.test.js pass', start: 'HEAD', checks: '.alfred/checks.toml',
        hiddenChecks: '.alfred/hidden-checks.toml', budget: { tokens: 50000, seconds: 300, usd: 0.5 } }],
      conditions: [
        { name: 'control', control: true, components: { handoff: 'off' } },
        { name: 'handoff', control: false, components: { handoff: 'on', 'label.temperature': '0.2' } },
      ],
    });
  });

  it('defaults start to HEAD and checks to .alfred/checks.toml, and takes a name key', () => {
    const text = `name = "mine"\ntrials = 1\n[[task]]\nid = "t"\nprompt = "p"\nbudget = { tokens = 1, seconds = 2, usd = 3 }\n[[condition]]\nname = "c"\ncontrol = true\n`;
    const { suite, problems } = parseSuite(text, FILE);
    assert.deepEqual(problems, []);
    assert.equal(suite?.name, 'mine');
    assert.equal(suite?.stop, 'all');
    assert.deepEqual(suite?.tasks[0], { id: 't', prompt: 'p', start: 'HEAD', checks: '.alfred/checks.toml', budget: { tokens: 1, seconds: 2, usd: 3 } });
  });

  it('leaves out a broken task with its file and key named, and still loads the others', () => {
    const text = SUITE.replace('[[condition]]', `[[task]]\nid = "bad"\nprompt = "p"\nbudget = { tokens = -1, seconds = 2 }\n[[condition]]`);
    const { suite, problems } = parseSuite(text, FILE);
    assert.deepEqual(suite?.tasks.map((t) => t.id), ['fix-add']);
    assert.deepEqual(problems, [
      { path: FILE, key: 'task[1].budget.tokens', message: 'must be a number more than 0, got number -1' },
      { path: FILE, key: 'task[1].budget.usd', message: 'is required' },
    ]);
  });

  it('leaves out a condition with an unknown component, and a task whose path leaves the workspace', () => {
    const text = SUITE.replace('label.temperature = "0.2"', 'temperature = "0.2"').replace('hidden_checks = ".alfred/hidden-checks.toml"', 'hidden_checks = "../x.toml"');
    const { suite, problems } = parseSuite(text, FILE);
    assert.equal(suite, undefined);
    assert.deepEqual(problems, [
      { path: FILE, key: 'task[0].hidden_checks', message: '"../x.toml" may not leave the workspace folder (..)' },
      { path: FILE, key: 'condition[1].components.temperature', message: 'unknown component "temperature" (expected model, endpoint, role, pack, persona, handoff or label.<name>)' },
      { path: FILE, key: 'task', message: 'the suite has no valid task ([[task]] with id, prompt and budget)' },
    ]);
    const fixedTask = parseSuite(SUITE.replace('label.temperature = "0.2"', 'temperature = "0.2"'), FILE);
    assert.deepEqual(fixedTask.suite?.conditions.map((c) => c.name), ['control']);
  });

  it('gives no suite unless exactly one condition is the control', () => {
    const two = parseSuite(SUITE.replace('name = "handoff"', 'name = "handoff"\ncontrol = true'), FILE);
    assert.equal(two.suite, undefined);
    assert.deepEqual(two.problems, [{ path: FILE, key: 'condition', message: 'exactly one condition must have control = true, found 2' }]);
    const none = parseSuite(SUITE.replace('control = true', 'control = false'), FILE);
    assert.deepEqual(none.problems, [{ path: FILE, key: 'condition', message: 'exactly one condition must have control = true, found 0' }]);
  });

  it('gives no suite without a valid trials count, and names a syntax error with its line', () => {
    assert.deepEqual(parseSuite(SUITE.replace('trials = 3', 'trials = 0'), FILE).problems, [
      { path: FILE, key: 'trials', message: 'must be a whole number from 1 to 10000, got number 0' },
    ]);
    const bad = parseSuite('trials = \n', FILE);
    assert.equal(bad.suite, undefined);
    assert.match(bad.problems[0]!.message, /^TOML syntax error at line 1, column/);
  });

  it('reports duplicated task ids and keeps the first', () => {
    const text = SUITE.replace('[[condition]]', `[[task]]\nid = "fix-add"\nprompt = "other"\nbudget = { tokens = 1, seconds = 1, usd = 1 }\n[[condition]]`);
    const { suite, problems } = parseSuite(text, FILE);
    assert.deepEqual(suite?.tasks.map((t) => t.prompt), ['Make test/add.test.js pass']);
    assert.deepEqual(problems, [{ path: FILE, key: 'task', message: '"fix-add" is the id of more than one task; the later one is left out' }]);
  });
});

describe('suiteHash and taskInstanceId', () => {
  it('hash the canonical JSON of the plan, ignoring conditions and key order', () => {
    const { suite } = parseSuite(SUITE, FILE);
    const expected = sha12('{"stop":"all","tasks":[{"budget":{"seconds":300,"tokens":50000,"usd":0.5},"checks":".alfred/checks.toml",'
      + '"hiddenChecks":".alfred/hidden-checks.toml","id":"fix-add","prompt":"Make test/add.test.js pass","start":"HEAD"}],"trials":3}');
    assert.equal(suiteHash(suite!), expected);
    const fewerConditions = parseSuite(SUITE.slice(0, SUITE.indexOf('[[condition]]\nname = "handoff"')), FILE).suite!;
    assert.equal(suiteHash(fewerConditions), expected);
    assert.notEqual(suiteHash({ ...suite!, trials: 4 }), expected);
  });

  it('changes with any of task, prompt, start commit, checks and budget', () => {
    const base = { task: 't', prompt: 'p', startSha: 'a'.repeat(40), checksHash: 'c1', budget: { tokens: 1, seconds: 2, usd: 3 } };
    assert.equal(taskInstanceId(base), sha12(`{"budget":{"seconds":2,"tokens":1,"usd":3},"checksHash":"c1","prompt":"p","startSha":"${'a'.repeat(40)}","task":"t"}`));
    const ids = new Set([base, { ...base, startSha: 'b'.repeat(40) }, { ...base, checksHash: 'c2' }, { ...base, budget: { ...base.budget, usd: 4 } }, { ...base, prompt: 'q' }].map(taskInstanceId));
    assert.equal(ids.size, 5);
  });
});
