/** The role editor panel's messages: a form checked as you type by the host, saved through the write pipeline. */
import { command, notification, request } from './ipc';

export type ShellPolicyChoice = '' | 'track' | 'compress' | 'deny';
export type RoleLocationChoice = 'project' | 'user';

/** The form as typed; empty texts mean "not set" (inherited, or the default). */
export interface RoleForm {
  name: string;
  inherits: string;
  description: string;
  shellPolicy: ShellPolicyChoice;
  /** null: no list (every tool, or the parent's). */
  allowed: string[] | null;
  /** null: no list (the parent's, or none). */
  denied: string[] | null;
  /** TOML limit key (`max_context_tokens`, `max_shell_invocations`, `max_cost_usd`, `warn_at_percent`, `block_at_percent`) → text. */
  limits: Record<string, string>;
  location: RoleLocationChoice;
  /** Kept from the edited file; not shown. */
  failClosed?: boolean;
}

/** A loaded role, for the inherits picker and for showing what an empty field inherits. */
export interface RoleChoice {
  name: string;
  source: string;
  description: string;
  shellPolicy: string;
  allowed: string[] | null;
  denied: string[];
  limits: Record<string, number>;
}

export interface RoleEditorState {
  mode: 'new' | 'edit';
  form: RoleForm;
  roles: RoleChoice[];
  /** What a role without a parent gets (the built-in coder's limits, every tool, shell track). */
  defaults: RoleChoice | null;
  folders: Record<RoleLocationChoice, string>;
  /** `@read`, `@search`, …: quick picks for the pattern lists. */
  categories: string[];
  /** Edit mode: the file being edited. */
  originalPath?: string;
}

export interface RoleProblemView {
  /** TOML key path (`role.name`, `limits.max_cost_usd`, `tools.allowed[2]`), or empty. */
  key: string;
  message: string;
  severity: 'error' | 'warning';
}

export interface RoleCheckView {
  ok: boolean;
  problems: RoleProblemView[];
  path: string;
  toml: string;
  /** Renamed or moved while editing: this file is deleted in the same write. */
  replaces?: string;
}

export interface SaveResult {
  saved: boolean;
  /** Why it was not saved (cancelled, a problem, a failed write). */
  message?: string;
}

// webview → host
export const ReadyCommand = command<void>('ready');
export const CancelCommand = command<void>('cancel');
export const GetEditorStateRequest = request<void, RoleEditorState>('state/get');
/** The loader's validation, run on every keystroke. */
export const ValidateRoleRequest = request<RoleForm, RoleCheckView>('role/validate');
/** Diff → confirm → backup → write → roles reload. */
export const SaveRoleRequest = request<RoleForm, SaveResult>('role/save');

// host → webview
export const EditorStateNotification = notification<RoleEditorState>('state');
