/**
 * The contract of every Alfred tool, in one place: input schema, effect, whether a repeat is safe,
 * timeout, and whether it needs the user's confirmation. package.json's `languageModelTools` is
 * generated from this table (`npm run sync-manifest`); a unit test keeps them equal.
 */

export type ToolEffect = 'read' | 'write-file' | 'exec' | 'write-external';

export interface ToolContract {
  name: string;
  displayName: string;
  toolReferenceName: string;
  userDescription: string;
  modelDescription: string;
  icon: string;
  effect: ToolEffect;
  repeatSafe: boolean;
  timeoutMs: number;
  needsConfirmation: boolean;
  inputSchema: {
    type: 'object';
    properties: Record<string, unknown>;
    required?: string[];
    additionalProperties: false;
  };
}

const str = (description: string, extra: Record<string, unknown> = {}) => ({ type: 'string', description, ...extra });
const int = (description: string, extra: Record<string, unknown> = {}) => ({ type: 'integer', description, ...extra });

export const TOOL_CONTRACTS: readonly ToolContract[] = [
  {
    name: 'ctx_read',
    displayName: 'Alfred: Read File',
    toolReferenceName: 'alfredRead',
    userDescription: 'Read a workspace file, or a range of its lines, under the active role\'s budget.',
    modelDescription: 'Read a text file of the workspace. Give a workspace-relative path; optionally startLine and endLine (1-based, inclusive) to read only part of it. The output is charged to the token budget, so prefer line ranges for big files.',
    icon: '$(file)',
    effect: 'read',
    repeatSafe: true,
    timeoutMs: 10_000,
    needsConfirmation: false,
    inputSchema: {
      type: 'object',
      properties: {
        path: str('Workspace-relative path of the file to read.', { minLength: 1 }),
        startLine: int('First line to read, 1-based.', { minimum: 1 }),
        endLine: int('Last line to read, 1-based, inclusive.', { minimum: 1 }),
      },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: 'ctx_search',
    displayName: 'Alfred: Search Workspace',
    toolReferenceName: 'alfredSearch',
    userDescription: 'Search the workspace\'s text (respecting .gitignore) under the active role\'s budget.',
    modelDescription: 'Search the text of the workspace files for a regular expression or plain text. Files ignored by .gitignore are skipped. Narrow with include / exclude globs (e.g. "src/**/*.ts"). Returns path:line: text for each match, up to maxResults.',
    icon: '$(search)',
    effect: 'read',
    repeatSafe: true,
    timeoutMs: 30_000,
    needsConfirmation: false,
    inputSchema: {
      type: 'object',
      properties: {
        query: str('Text or regular expression to look for.', { minLength: 1 }),
        isRegex: { type: 'boolean', description: 'Treat query as a JavaScript regular expression (default false).' },
        caseSensitive: { type: 'boolean', description: 'Match case (default false).' },
        include: { type: 'array', items: { type: 'string' }, description: 'Globs of files to search, e.g. ["src/**"].' },
        exclude: { type: 'array', items: { type: 'string' }, description: 'Globs of files to skip.' },
        maxResults: int('Most matches to return (default 100).', { minimum: 1, maximum: 2000 }),
      },
      required: ['query'],
      additionalProperties: false,
    },
  },
  {
    name: 'ctx_tree',
    displayName: 'Alfred: Workspace Tree',
    toolReferenceName: 'alfredTree',
    userDescription: 'List the workspace\'s folders and files to a depth, skipping ignored files.',
    modelDescription: 'List the files and folders of the workspace (or of a sub-folder) as an indented tree, to the given depth, skipping files ignored by .gitignore and the .git folder.',
    icon: '$(list-tree)',
    effect: 'read',
    repeatSafe: true,
    timeoutMs: 15_000,
    needsConfirmation: false,
    inputSchema: {
      type: 'object',
      properties: {
        path: str('Workspace-relative folder to list (default: the workspace root).'),
        depth: int('How many levels to descend (default 3).', { minimum: 1, maximum: 10 }),
      },
      additionalProperties: false,
    },
  },
  {
    name: 'ctx_edit',
    displayName: 'Alfred: Edit File',
    toolReferenceName: 'alfredEdit',
    userDescription: 'Replace an exact string in a workspace file, or create a file, unless the path is protected.',
    modelDescription: 'Edit a workspace file: replace oldString (which must occur exactly once, unless replaceAll is true) with newString. To create a new file, omit oldString and give the whole content as newString; an existing file is never overwritten that way. Protected paths are refused.',
    icon: '$(edit)',
    effect: 'write-file',
    repeatSafe: false,
    timeoutMs: 10_000,
    needsConfirmation: false,
    inputSchema: {
      type: 'object',
      properties: {
        path: str('Workspace-relative path of the file to edit or create.', { minLength: 1 }),
        oldString: str('Exact text to replace. Omit to create a new file.'),
        newString: str('Replacement text, or the new file\'s whole content.'),
        replaceAll: { type: 'boolean', description: 'Replace every occurrence of oldString (default false).' },
      },
      required: ['path', 'newString'],
      additionalProperties: false,
    },
  },
  {
    name: 'ctx_shell',
    displayName: 'Alfred: Run Shell Command',
    toolReferenceName: 'alfredShell',
    userDescription: 'Run a shell command in the workspace, counted against the shell budget.',
    modelDescription: 'Run a shell command in the workspace (or in cwd, a workspace-relative folder) and return its output and exit code. Each call counts as one shell invocation of the role\'s budget. Commands that wait for input or never end are stopped at the timeout. Where the machine has a kernel sandbox, protected paths (checks.toml\'s protected files, Alfred\'s and the agents\' settings) are read-only to the command: writing them fails with "Read-only file system"; leave them as they are.',
    icon: '$(terminal)',
    effect: 'exec',
    repeatSafe: false,
    timeoutMs: 120_000,
    needsConfirmation: true,
    inputSchema: {
      type: 'object',
      properties: {
        command: str('The command line to run.', { minLength: 1 }),
        cwd: str('Workspace-relative folder to run it in (default: the workspace root).'),
        timeoutSeconds: int('Seconds before the command is stopped (default 120).', { minimum: 1, maximum: 3600 }),
      },
      required: ['command'],
      additionalProperties: false,
    },
  },
  {
    name: 'ctx_session',
    displayName: 'Alfred: Session',
    toolReferenceName: 'alfredSession',
    userDescription: 'Read the active role and budget, ask to switch role, or ask to reset the budget.',
    modelDescription: 'Alfred\'s session: action "status" or "budget" returns the active role and the budget line; action "role" with value NAME asks the user to switch to that role (the user must confirm; it never happens silently); action "reset" asks the user to reset the budget. Always callable, even when the budget is exhausted.',
    icon: '$(shield)',
    effect: 'read',
    repeatSafe: true,
    timeoutMs: 300_000,
    needsConfirmation: false,
    inputSchema: {
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['status', 'budget', 'role', 'reset'], description: 'What to do.' },
        value: str('For action "role": the role to switch to.'),
      },
      required: ['action'],
      additionalProperties: false,
    },
  },
  {
    // Category edit (rules/vocabulary/categories.ts): a role that may not edit may not write memory either.
    name: 'alfred_memory_append',
    displayName: 'Alfred: Remember',
    toolReferenceName: 'alfredRemember',
    userDescription: 'Append a note to the project memory (.alfred/memory.md), when the project turned memory on.',
    modelDescription: 'Append one short note to the project memory (.alfred/memory.md), which @alfred reads at the start of later sessions: decisions, conventions, facts worth keeping. Works only when the user turned memory on in .alfred/memory-policy.json; otherwise it is refused. One note per call, at most 2000 characters; never secrets.',
    icon: '$(book)',
    effect: 'write-file',
    repeatSafe: false,
    timeoutMs: 10_000,
    needsConfirmation: false,
    inputSchema: {
      type: 'object',
      properties: {
        text: str('The note to remember, in plain Markdown.', { minLength: 1, maxLength: 2000 }),
      },
      required: ['text'],
      additionalProperties: false,
    },
  },
];

export function contractOf(name: string): ToolContract | undefined {
  return TOOL_CONTRACTS.find((c) => c.name === name);
}
