/**
 * The agents Alfred governs and the paths that set their rules, as the rest of Alfred imports them:
 * the descriptor table (agentTable.ts), the protected-path catalogue (protectedCatalogue.ts) and the
 * live probes of a home (homeProbes.ts), each in its own file.
 */
export * from './agentTable';
export * from './protectedCatalogue';
export * from './homeProbes';
