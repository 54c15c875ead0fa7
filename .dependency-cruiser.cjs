// The layers of src/core, each importing only from the layers below it, and no import cycles.
// Checked in the static stage of `npm test` by scripts/depcruise.mjs (dependency-cruiser's API; its
// command line wants Node 22, where `npx depcruise src/core --config .dependency-cruiser.cjs` works too).
// Type-only imports count: a type a lower module needs is declared low.
//
// LAYERS, lowest first. A group may import the groups of lower tiers. Groups of one tier are
// siblings: they do not import each other, except the pairs in SIBLINGS_ALLOWED. Every file of
// src/core belongs to exactly one group (checked by scripts/depcruise.mjs).
// <layers>
const LAYERS = [
  { tier: 0, name: 'base', why: 'files, hashes, the event log, the state folder\'s lock and paths: no Alfred policy',
    paths: ['^src/core/base/'] },
  { tier: 1, name: 'protect', why: 'the catalogue of governance files and the protected paths',
    paths: ['^src/core/protect/'] },
  { tier: 2, name: 'rules/mcp', why: 'the MCP audit, whose verdicts the gate reads',
    paths: ['^src/core/rules/mcp/'] },
  { tier: 3, name: 'rules/vocabulary', why: 'tool categories and patterns, which role files are written in',
    paths: ['^src/core/rules/vocabulary/'] },
  { tier: 4, name: 'rules/roles', why: 'roles: their files, schema and the active one',
    paths: ['^src/core/rules/roles/'] },
  { tier: 5, name: 'rules/budget', why: 'budget dimensions, prices and status',
    paths: ['^src/core/rules/budget/'] },
  { tier: 6, name: 'rules/policy', why: 'the gate and what it decides with',
    paths: ['^src/core/rules/policy/'] },
  { tier: 7, name: 'ledger', why: 'the decision under the lock, the ledger, its backends, the team ledger',
    paths: ['^src/core/ledger/'] },
  { tier: 8, name: 'models', why: 'model providers, the fingerprint of a configuration, model charges',
    paths: ['^src/core/models/'] },
  { tier: 8, name: 'sandbox', why: 'the kernel sandbox for shell commands',
    paths: ['^src/core/sandbox/'] },
  { tier: 9, name: 'usage', why: 'usage agents report, traces of governed calls',
    paths: ['^src/core/usage/'] },
  { tier: 9, name: 'tools', why: 'what Alfred\'s tools do',
    paths: ['^src/core/tools/'] },
  { tier: 9, name: 'workflow', why: 'what a session works on: completion checks, operations, handoffs, packs, memory',
    paths: ['^src/core/workflow/'] },
  { tier: 10, name: 'harness', why: 'the Harness and the one governed call',
    paths: ['^src/core/harness/'] },
  { tier: 11, name: 'integrations', why: 'the agents Alfred governs: hooks, agent files, governance health',
    paths: ['^src/core/integrations/'] },
  { tier: 12, name: 'agent', why: 'the agent loop', paths: ['^src/core/agent/'] },
  { tier: 12, name: 'turn', why: '@alfred\'s chat turn', paths: ['^src/core/turn/'] },
  { tier: 12, name: 'doctor', why: 'alfred doctor', paths: ['^src/core/doctor/'] },
  { tier: 12, name: 'trials', why: 'trials of configurations', paths: ['^src/core/trials/'] },
];
// A module is a layer's folder, or one folder (or file) of a layer that holds several: the modules
// must not import each other round either (scripts/depcruise.mjs checks it).
const MODULE_OF = '^src/core/(?:(?:base|rules|ledger|models|usage|workflow|integrations)/)?[^/]+';
// </layers>
const SIBLINGS_ALLOWED = [['workflow', 'tools'], ['trials', 'agent'], ['trials', 'turn']];

const layerRules = LAYERS.flatMap((group) => {
  const above = LAYERS.filter((g) => g.tier > group.tier).flatMap((g) => g.paths);
  const siblings = LAYERS.filter((g) => g.tier === group.tier && g !== group
    && !SIBLINGS_ALLOWED.some(([from, to]) => from === group.name && to === g.name)).flatMap((g) => g.paths);
  return [
    above.length && { name: `layer ${group.name}`, severity: 'error', comment: `${group.name} (${group.why}) imports only from the layers below it`, from: { path: group.paths }, to: { path: above } },
    siblings.length && { name: `layer ${group.name} (siblings)`, severity: 'error', comment: `${group.name} does not import the other layers of its tier`, from: { path: group.paths }, to: { path: siblings } },
  ].filter(Boolean);
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'An import cycle: one of its types or functions belongs lower.', from: {}, to: { circular: true } },
    { name: 'not-in-a-layer', severity: 'error', comment: 'Every file of src/core belongs to a layer (.dependency-cruiser.cjs, LAYERS).',
      from: { path: '^src/core/', pathNot: LAYERS.flatMap((g) => g.paths) }, to: {} },
    { name: 'not-in-a-layer (imported)', severity: 'error', comment: 'Every file of src/core belongs to a layer (.dependency-cruiser.cjs, LAYERS).',
      from: {}, to: { path: '^src/core/', pathNot: LAYERS.flatMap((g) => g.paths) } },
    ...layerRules,
  ],
  options: {
    includeOnly: '^src/core/',
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
// For scripts/depcruise.mjs, which also finds files no group holds (dependency-cruiser's schema has no place for it).
Object.defineProperty(module.exports, 'layers', { value: LAYERS, enumerable: false });
Object.defineProperty(module.exports, 'moduleOf', { value: MODULE_OF, enumerable: false });
