/**
 * The shared result and error types of the tool operations. An expected failure (a missing file,
 * an ambiguous edit, a path outside the workspace) is a ToolError whose message is written for
 * the model to act on; anything else that is thrown is a bug or an I/O fault.
 */

/** What an operation returns: `text` for the model, `data` for tests and the UI. */
export interface OpResult {
  text: string;
  data: Record<string, unknown>;
}

export type ToolErrorCode =
  | 'invalid-input'
  | 'outside-workspace'
  | 'not-found'
  | 'is-directory'
  | 'not-directory'
  | 'binary'
  | 'too-large'
  | 'invalid-range'
  | 'invalid-regex'
  | 'no-match'
  | 'ambiguous'
  | 'exists'
  | 'cancelled'
  | 'spawn-failed';

export class ToolError extends Error {
  override readonly name = 'ToolError';

  constructor(
    message: string,
    /** A stable reason, so callers and tests need not parse the message. */
    readonly code: ToolErrorCode = 'invalid-input',
  ) {
    super(message);
  }
}

export function isToolError(e: unknown): e is ToolError {
  return e instanceof ToolError;
}

/** The errno code of a Node.js system error, if it is one. */
export function errnoCode(e: unknown): string | undefined {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
