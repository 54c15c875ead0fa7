/**
 * Which build of Alfred a hook server runs, so that it answers only callers of the same build. The
 * launcher `~/.alfred/bin/alfred` is rewritten for whichever install started last (an update moves
 * the extension, a rebuild rewrites dist/cli in place), while a server started earlier keeps running
 * its old code: it must not decide for the newer one. A caller names the runtime and the command
 * line's file it runs (BuildOf); the server compares them with its own, and checks that the command
 * line's files are still those it started from.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BuildOf } from './serverProtocol';

/** The bundles of the command line beside its entry (build.mjs): a rebuild rewrites them all. */
const BUNDLES = ['alfred.cjs', 'alfred-hook.cjs', 'alfred-main.cjs'];

type Signature = string | undefined;

function signature(file: string): Signature {
  try {
    const s = fs.statSync(file);
    return `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
  } catch {
    return undefined;
  }
}

export class ServerBuild {
  /** The command line's folder: alfred.cjs and alfred.mjs (which loads it) are the same build. */
  private readonly folder: string;
  private readonly files: Array<[file: string, signature: Signature]>;

  constructor(readonly own: BuildOf) {
    this.folder = path.dirname(path.resolve(own.cli));
    this.files = BUNDLES.map((name) => path.join(this.folder, name)).map((file) => [file, signature(file)]);
  }

  /** Whether the command line's files changed (or went) since this server started. */
  changed(): boolean {
    return this.files.some(([file, before]) => signature(file) !== before);
  }

  /**
   * Why this server must not answer a caller of `build`, or undefined when it may. A caller that
   * names no build (a client of the same protocol that does not say) is answered as before.
   */
  differs(build: BuildOf | undefined): string | undefined {
    if (!build) return undefined;
    if (build.runtime !== this.own.runtime || path.dirname(path.resolve(build.cli)) !== this.folder) return 'another build of Alfred';
    return this.changed() ? 'files of Alfred that changed since it started' : undefined;
  }
}
