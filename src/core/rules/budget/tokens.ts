/**
 * Token counting with the o200k_base encoding. The tokenizer takes ~300 ms to load, and the hook
 * CLI runs on every tool call, so it is imported lazily, only when tokens are actually counted.
 * In the extension and the CLI bundles this import is a require of the one shipped copy,
 * dist/cli/o200k_base.cjs (build.mjs), so activation does not load it either.
 */
type Tokenizer = typeof import('gpt-tokenizer/encoding/o200k_base');

let tokenizer: Tokenizer | undefined;
let loading: Promise<Tokenizer> | undefined;

// Tool output may contain text such as `<|endoftext|>`; count it as plain text instead of throwing.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function loadTokenizer(): Promise<Tokenizer> {
  if (tokenizer) return Promise.resolve(tokenizer);
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then(
    (mod) => (tokenizer = mod),
    (err: unknown) => {
      loading = undefined; // allow a later retry
      throw err;
    },
  );
  return loading;
}

export function isTokenizerLoaded(): boolean {
  return tokenizer !== undefined;
}

export async function countTokens(text: string): Promise<number> {
  if (!text) return 0;
  const t = await loadTokenizer();
  return t.countTokens(text, PLAIN_TEXT);
}

/** Exact count when the tokenizer is already loaded, else `undefined` (call `countTokens`). */
export function countTokensSync(text: string): number | undefined {
  if (!text) return 0;
  return tokenizer?.countTokens(text, PLAIN_TEXT);
}

/** A rough, dependency-free estimate (~4 characters a token) for when an exact count can't wait. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
