import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectPack, scorePacks, triggerMatches, triggerWeight, type RadarPack } from '../../../../src/core/workflow/packs/radar';

const pack = (name: string, triggers: string[], hints: string[] = []): RadarPack => ({ name, triggers, hints });

test('a trigger weighs min(3, ceil(length / 6)), the stem\'s length for a stem', () => {
  assert.equal(triggerWeight('sql'), 1);
  assert.equal(triggerWeight('docker'), 1);
  assert.equal(triggerWeight('dockers'), 2);
  assert.equal(triggerWeight('migration'), 2);
  assert.equal(triggerWeight('vulnerability'), 3);
  assert.equal(triggerWeight('internationalization'), 3);
  assert.equal(triggerWeight('deploy*'), 1);
  assert.equal(triggerWeight('documentación'), 3, 'letters, not bytes: 13 characters');
  assert.equal(triggerWeight('año'), 1);
});

test('triggers match whole words only, case-insensitively', () => {
  assert.equal(triggerMatches('test', 'please TEST the cart'), true);
  assert.equal(triggerMatches('test', 'the latest build'), false);
  assert.equal(triggerMatches('test', 'tests are red'), false);
  assert.equal(triggerMatches('test', 'test_cart is red'), false, 'underscore is a word character');
  assert.equal(triggerMatches('test', 'unit-test it'), true, 'a hyphen is a boundary');
  assert.equal(triggerMatches('sql', 'mysql is down'), false);
  assert.equal(triggerMatches('pull request', 'open a pull   request'), true, 'spaces inside a trigger match any run of spaces');
});

test('Spanish letters are letters: á é í ó ú ñ ü do not make a word boundary', () => {
  assert.equal(triggerMatches('prueba', 'una prueba rápida'), true);
  assert.equal(triggerMatches('prueba', 'comprueba esto'), false);
  assert.equal(triggerMatches('diseño', 'mejorar el DISEÑO de la página'), true, 'Ñ matches ñ');
  assert.equal(triggerMatches('dise', 'el diseño'), false, 'ñ continues the word');
  assert.equal(triggerMatches('migraci', 'la migración'), false, 'ó continues the word');
  assert.equal(triggerMatches('pingüino', 'un pingüino'), true);
  assert.equal(triggerMatches('ping', 'pingüino'), false, 'ü continues the word');
  assert.equal(triggerMatches('más', 'más tests'), true);
  assert.equal(triggerMatches('m', 'más tests'), false, 'á is a letter, so "m" is not a word here');
});

test('a trigger ending in * is a stem: a word boundary before it, none after', () => {
  assert.equal(triggerMatches('deploy*', 'the deployment failed'), true);
  assert.equal(triggerMatches('deploy*', 'redeploy it'), false);
  assert.equal(triggerMatches('document*', 'documentación del módulo'), true);
  assert.equal(triggerMatches('prueb*', 'pruebas unitarias'), true);
});

test('a pack\'s score is the sum of its matched triggers\' weights, each trigger counted once', () => {
  const [s] = scorePacks('docker docker compose deployment', [pack('devops', ['docker', 'compose', 'deploy*', 'kubernetes'])]);
  assert.deepEqual(s, { name: 'devops', score: 1 + 2 + 1, matched: ['docker', 'compose', 'deploy*'] });
});

test('the highest score wins', () => {
  const packs = [pack('data', ['sql', 'migration']), pack('testing', ['test', 'coverage'])];
  assert.deepEqual(detectPack({ prompt: 'add a migration and a test', packs }), { pack: 'data', reason: 'trigger', score: 2, matched: ['migration'] });
});

test('a tie goes to the pack whose name sorts first, whatever the order of the packs', () => {
  const packs = [pack('web', ['form']), pack('docs', ['readme']), pack('clean-code', ['rename'])];
  for (const order of [packs, [...packs].reverse()]) {
    assert.equal(detectPack({ prompt: 'rename the form in the readme', packs: order }).pack, 'clean-code');
  }
});

test('no trigger: repository hints decide; the pack with most matching hints wins, ties by name', () => {
  const present = new Set(['Dockerfile', 'docs/', 'db/*.sql']);
  const hintMatches = (h: string) => present.has(h);
  const packs = [pack('docs', ['readme'], ['docs/', 'mkdocs.yml']), pack('devops', ['docker'], ['Dockerfile', '.github/workflows/']), pack('data', ['sql'], ['db/*.sql', 'migrations/'])];
  assert.deepEqual(detectPack({ prompt: 'what next?', packs, hintMatches }), { pack: 'data', reason: 'hint', score: 1, matched: ['db/*.sql'] });
  const more = new Set(['docs/', 'mkdocs.yml', 'Dockerfile']);
  assert.equal(detectPack({ prompt: 'what next?', packs, hintMatches: (h) => more.has(h) }).pack, 'docs');
  assert.equal(detectPack({ prompt: 'fix the docker build', packs, hintMatches }).reason, 'trigger', 'a matched trigger comes before hints');
});

test('no trigger and no hint: the last pack sticks, if it still exists', () => {
  const packs = [pack('data', ['sql']), pack('web', ['css'])];
  assert.deepEqual(detectPack({ prompt: 'and now?', packs, last: 'web', hintMatches: () => false }), { pack: 'web', reason: 'sticky', score: 0, matched: [] });
  assert.deepEqual(detectPack({ prompt: 'and now?', packs, last: 'gone' }), { reason: 'none', score: 0, matched: [] });
  assert.equal(detectPack({ prompt: 'and the css?', packs, last: 'data' }).pack, 'web', 'a trigger beats stickiness');
});
