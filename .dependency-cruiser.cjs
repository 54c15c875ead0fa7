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
    paths: ['^src/core/(crypto|fs|events|config)/', '^src/core/state/(lock|lockWaiters|paths|published)\\.ts$', '^src/core/(actor|isObject|processAlive|tomlValue)\\.ts$',
      '^src/core/budget/money\\.ts$', '^src/core/traces/redact\\.ts$'] },
  { tier: 1, name: 'protect', why: 'the catalogue of governance files and the protected paths',
    paths: ['^src/core/governance/(?!(health|readHealth|inForce|inForceAll|issueText|trustEdits)\\.ts$)', '^src/core/policy/(toolPaths|shellWrites|shellProtection)\\.ts$', '^src/core/completion/(checksFile|protectGlobs)\\.ts$'] },
  { tier: 2, name: 'rules/mcp', why: 'the MCP audit, whose verdicts the gate reads',
    paths: ['^src/core/mcp/'] },
  { tier: 3, name: 'rules/vocabulary', why: 'tool categories and patterns, which role files are written in',
    paths: ['^src/core/policy/(types|categories|patterns|mcpServer)\\.ts$'] },
  { tier: 4, name: 'rules/roles', why: 'roles: their files, schema and the active one',
    paths: ['^src/core/roles/(?!authority\\.ts$)', '^src/core/state/runtimeRole\\.ts$'] },
  { tier: 5, name: 'rules/budget', why: 'budget dimensions, prices and status',
    paths: ['^src/core/budget/(?!money\\.ts$)'] },
  { tier: 6, name: 'rules/policy', why: 'the gate and what it decides with',
    paths: ['^src/core/policy/(?!(types|categories|patterns|mcpServer|toolPaths|shellWrites|shellProtection)\\.ts$)', '^src/core/roles/authority\\.ts$'] },
  { tier: 7, name: 'ledger', why: 'the decision under the lock, the ledger, its backends, the team ledger',
    paths: ['^src/core/state/(govern|ledgerBackend|ledgerFold|ledgerFormat|ledgerStore|terminalClaims)\\.ts$', '^src/core/state/pgLedger/', '^src/core/team/'] },
  { tier: 8, name: 'models', why: 'model providers, the fingerprint of a configuration, model charges',
    paths: ['^src/core/models/', '^src/core/providers/', '^src/core/fingerprint/(?!agentSession\\.ts$)'] },
  { tier: 8, name: 'sandbox', why: 'the kernel sandbox for shell commands',
    paths: ['^src/core/sandbox/'] },
  { tier: 9, name: 'usage', why: 'usage agents report, traces of governed calls',
    paths: ['^src/core/usage/', '^src/core/traces/(?!redact\\.ts$)', '^src/core/fingerprint/agentSession\\.ts$'] },
  { tier: 9, name: 'tools', why: 'what Alfred\'s tools do',
    paths: ['^src/core/tools/'] },
  { tier: 9, name: 'work', why: 'what a session works on: completion checks, operations, handoffs, packs, memory',
    paths: ['^src/core/completion/(?!(checksFile|protectGlobs)\\.ts$)', '^src/core/(operations|handoff|packs|memory)/'] },
  { tier: 10, name: 'harness', why: 'the Harness and the one governed call',
    paths: ['^src/core/(harness|governedCall)\\.ts$'] },
  { tier: 11, name: 'integrations', why: 'the agents Alfred governs: hooks, agent files, governance health',
    paths: ['^src/core/hooks/', '^src/core/agents/', '^src/core/governance/(health|readHealth|inForce|inForceAll|issueText|trustEdits)\\.ts$'] },
  { tier: 12, name: 'agent', why: 'the agent loop', paths: ['^src/core/agent/'] },
  { tier: 12, name: 'turn', why: '@alfred\'s chat turn', paths: ['^src/core/turn/'] },
  { tier: 12, name: 'doctor', why: 'alfred doctor', paths: ['^src/core/doctor/'] },
  { tier: 12, name: 'trials', why: 'trials of configurations', paths: ['^src/core/trials/'] },
];
// </layers>
const SIBLINGS_ALLOWED = [['work', 'tools'], ['trials', 'agent'], ['trials', 'turn']];

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
