import { budgetCommand } from './budget';
import type { SlashCommand } from './command';
import { doctorCommand } from './doctor';
import { doneCommand } from './done';
import { handoffCommand } from './handoff';
import { packsCommand } from './packs';
import { profileCommand } from './profile';
import { roleCommand } from './role';
import { toolsCommand } from './tools';

/** `@alfred`'s slash commands, by name (each declared in package.json's chatParticipants commands). */
export const SLASH_COMMANDS: ReadonlyMap<string, SlashCommand> = new Map(
  [roleCommand, budgetCommand, packsCommand, profileCommand, toolsCommand, doctorCommand, doneCommand, handoffCommand].map((c) => [c.name, c]),
);
