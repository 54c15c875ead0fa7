// The private VS Code's install (install.mjs) in a process of its own: `npm test` starts it first and
// runs its static checks and unit tests meanwhile. The last line on stderr says why it failed.
import { ensureCodeServer, InstallError } from './install.mjs';

try {
  await ensureCodeServer();
} catch (err) {
  process.stderr.write(`${err instanceof InstallError ? err.message : String(err?.stack ?? err)}\n`);
  process.exit(1);
}
