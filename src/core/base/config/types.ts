/** The configuration-write pipeline's vocabulary (ARCHITECTURE.md, Every configuration write is shown, confirmed and backed up). */

/** One file a caller wants changed: its whole new text, or null to delete it. */
export interface FileChange {
  /** Absolute path. */
  path: string;
  newText: string | null;
  /** The file holds secrets: every value is hidden in diffs and the file is written 0600. */
  secret?: boolean;
}

export interface WriteRequest {
  files: FileChange[];
  /** Why, in a few words: goes into the backup's manifest and the ConfigWritten event. */
  reason: string;
  /** Shown above the diff; the reason when absent. */
  title?: string;
}

export type ChangeKind = 'create' | 'modify' | 'delete';

/** A file that will change, with what is shown to the user before it does. */
export interface PlannedFile {
  path: string;
  /** The path as shown (relative to the workspace when inside it). */
  label: string;
  change: ChangeKind;
  /** The text the plan was made against; null when the file does not exist. */
  oldText: string | null;
  newText: string | null;
  secret: boolean;
  /** Unified diff with secrets shown as `***`. */
  diff: string;
  added: number;
  removed: number;
}

/** What a write will do. Empty `files`: nothing to do, everything is already as asked. */
export interface WritePlan {
  id: string;
  title: string;
  reason: string;
  files: PlannedFile[];
  /** Files asked for that already hold the requested text. */
  unchanged: string[];
}
