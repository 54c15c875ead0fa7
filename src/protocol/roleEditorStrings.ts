/** Every English string the role editor shows; the host translates them (see dashboardStrings.ts). */
export const ROLE_EDITOR_STRINGS: readonly string[] = [
  'New role', 'Edit role {0}', 'Loading…', 'Name', 'Letters, digits, _ and -; it is also the file name.',
  'Save in', 'This project', 'Your user folder (every workspace)', 'Inherits from', 'No parent (defaults)',
  'Description', 'Shell policy', 'Inherited ({0})', 'track: allowed, counted and logged', 'compress: allowed, long output shortened',
  'deny: every shell tool refused', 'Allowed tools', 'Denied tools', 'Set a list for this role', 'Inherited: {0}', 'every tool',
  'none', 'Tool name or pattern, e.g. ctx_* or @read', 'Add', 'Remove {0}', 'Add pattern', 'Limits', 'Context tokens', 'Shell calls',
  'Cost (USD)', 'Warn at (%)', 'Block at (%)', 'inherited: {0}', 'File', 'TOML preview', 'Save…', 'Cancel', 'Problems',
  'No problems: the loader will accept this role.', 'Replaces {0} (it will be deleted)', 'Saving…',
  'An empty list allows no tool at all (only ctx_session stays callable).', 'Denied always wins over allowed.',
  // role sources
  'builtin', 'project', 'project-lean-ctx', 'user', 'user-lean-ctx',
];
