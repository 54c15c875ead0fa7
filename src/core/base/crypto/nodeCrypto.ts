/**
 * Node's crypto module, for processes that keep running. Loading it costs a one-shot process about
 * 8 ms (35 internal modules, all of Node's streams among them), a tenth of a hook call without a
 * server, so this folder hashes and draws random bytes without it (JavaScript SHA-256, the kernel's
 * random device) until a long-lived process (the extension, `alfred serve`) loads it here once;
 * from then on the native functions, faster on large inputs, are used.
 */
import type * as NodeCrypto from 'node:crypto';

let native: typeof NodeCrypto | undefined;

/** The loaded module, or undefined while no one asked for it. */
export function loadedNodeCrypto(): typeof NodeCrypto | undefined {
  return native;
}

/** Loads Node's crypto: every hash and id after this comes from it. */
export function useNodeCrypto(): typeof NodeCrypto {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  native ??= require('node:crypto') as typeof NodeCrypto;
  return native;
}
