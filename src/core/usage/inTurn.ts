/**
 * Reads of where a transcript was left, one at a time per file of places in a process (the hook
 * server answers calls at once): each read saves the places when it ends, so a read that started
 * while another was saving would start from the places before it, and the later save of the two
 * would put back what the other read (read again at the next hook, though charged once).
 */
const under = new Map<string, Promise<void>>();

/** `read` once the reads of `key` started before it in this process are done, whichever way they ended. */
export function inTurn<T>(key: string, read: () => Promise<T>): Promise<T> {
  const result = (under.get(key) ?? Promise.resolve()).then(read);
  const settled = result.then(() => undefined, () => undefined);
  under.set(key, settled);
  void settled.then(() => {
    if (under.get(key) === settled) under.delete(key);
  });
  return result;
}
