/** A parsed JSON object (or TOML table): neither null nor an array. Checked before its keys are read. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
