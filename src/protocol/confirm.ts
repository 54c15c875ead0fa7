/** The confirmation panel's messages: the diffs of a planned configuration write, then Confirm or Cancel. */
import { command, notification, request } from './ipc';

export interface ConfirmFileView {
  /** The path as shown (relative to the workspace when inside it). */
  label: string;
  path: string;
  change: 'create' | 'modify' | 'delete';
  /** Unified diff, secrets already shown as `***`. */
  diff: string;
  added: number;
  removed: number;
  /** Written with mode 0600, every value hidden. */
  secret: boolean;
}

export interface ConfirmState {
  title: string;
  reason: string;
  files: ConfirmFileView[];
  /** Where the previous versions will be kept. */
  backupDir: string;
}

// webview → host
export const ReadyCommand = command<void>('ready');
export const ConfirmCommand = command<void>('confirm');
export const CancelCommand = command<void>('cancel');
/** Opens VS Code's own diff editor for one file (current ↔ planned, secrets hidden). */
export const OpenDiffCommand = command<{ index: number }>('diff/open');
export const GetConfirmStateRequest = request<void, ConfirmState>('state/get');

// host → webview
export const ConfirmStateNotification = notification<ConfirmState>('state');
