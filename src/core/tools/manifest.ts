import { TOOL_CONTRACTS } from './contracts';

/** The `contributes.languageModelTools` entries VS Code needs, derived from the contracts. */
export function manifestTools() {
  return TOOL_CONTRACTS.map((c) => ({
    name: c.name,
    displayName: c.displayName,
    toolReferenceName: c.toolReferenceName,
    canBeReferencedInPrompt: true,
    icon: c.icon,
    userDescription: c.userDescription,
    modelDescription: c.modelDescription,
    tags: ['alfred'],
    inputSchema: c.inputSchema,
  }));
}
