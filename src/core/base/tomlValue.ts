/** How a TOML file's problem names the value it found, in the messages that name the file and key. */
export function tomlTypeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (v instanceof Date) return 'a date';
  if (typeof v === 'string') return v === '' ? 'an empty string' : `the string "${v}"`;
  if (typeof v === 'object') return 'a table';
  return `${typeof v === 'bigint' ? 'number' : typeof v} ${String(v)}`;
}
