/**
 * The block devices of /dev that this process's user could open for writing (root; a member of the
 * disk group, by the device's owner and mode). Written raw, a disk changes the files under every
 * read-only mount without the kernel checking the mount (`debugfs -w`): where a sandbox shows the
 * machine's /dev (`auto`, `required`), each is covered by /dev/null on a mount without device access
 * (WrapInput.hiddenFiles), so opening it fails. Tried as root under `auto`: a command opened a loop
 * and a zram device read-write. Linux only: elsewhere none.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lookup, readdir } from '../base/fs/keptReads';

export function blockDevices(dev = '/dev', platform: NodeJS.Platform = process.platform): string[] {
  if (platform !== 'linux') return [];
  let entries: fs.Dirent[];
  try {
    entries = readdir(dev);
  } catch {
    return [];
  }
  const who = { uid: process.getuid?.(), groups: [process.getgid?.(), ...(process.getgroups?.() ?? [])] };
  return entries.filter((e) => e.isBlockDevice()).map((e) => path.join(dev, e.name)).filter((p) => {
    const st = lookup(p);
    return st?.isBlockDevice() === true && writableBy(st, who);
  });
}

/**
 * Whether a user could open a file of this owner and mode for writing, as the kernel checks it:
 * from what lookup noted (owner, mode), so a kept plan depends on nothing else. Root counts whatever
 * the mode: it owns the disks.
 */
export function writableBy(st: Pick<fs.Stats, 'uid' | 'gid' | 'mode'>, who: { uid?: number; groups: ReadonlyArray<number | undefined> }): boolean {
  if (who.uid === undefined || who.uid === 0) return true;
  if (st.uid === who.uid) return (st.mode & 0o200) !== 0;
  if (who.groups.includes(st.gid)) return (st.mode & 0o020) !== 0;
  return (st.mode & 0o002) !== 0;
}
