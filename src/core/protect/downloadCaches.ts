/**
 * The download caches builds write, home-relative. Under `sandbox = "strict"` the kernel sandbox
 * shows each that exists as a copy of the workspace's own, which a command writes (a build that
 * fetches packages needs one; sandbox/mounts.ts, ownCopies), and a completion snapshot leaves them
 * out where they lie in the workspace (the home opened as one): npm writes its logs there on every
 * run, and they are not the work.
 */
import * as path from 'node:path';

export const DOWNLOAD_CACHES: readonly string[] = [
  '.cache', '.npm', '.yarn', '.pnpm-store', '.local/share/pnpm', '.bun/install/cache', '.cargo/registry', '.cargo/git',
  'go/pkg/mod', '.m2/repository', '.gradle/caches', '.gradle/wrapper', '.nuget/packages', 'Library/Caches',
];

/** The download caches of `home`, absolute. */
export const downloadCaches = (home: string): string[] => DOWNLOAD_CACHES.map((p) => path.join(home, p));
