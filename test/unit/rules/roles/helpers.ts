/** Fixtures for the role tests: a temporary root holding a home folder and a workspace. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';
import { loadRoles } from '../../../../src/core/rules/roles/loader';
import type { LoadedRoles } from '../../../../src/core/rules/roles/types';

export const BUILTIN_DIR = path.resolve(__dirname, '../../../../roles');

export const SECURITY_AUDITOR = `[role]
name = "security-auditor"      # must equal the file name stem; [A-Za-z0-9_-], at most 64 chars
inherits = "reviewer"
description = "Security-focused code review"
shell_policy = "deny"          # track | compress | deny
[tools]
allowed = ["ctx_read", "ctx_search", "ctx_tree", "ctx_review", "ctx_session"]
denied = ["ctx_edit", "ctx_shell", "ctx_execute"]
[limits]
max_context_tokens = 100000
max_shell_invocations = 0
max_cost_usd = 2.0
warn_at_percent = 80           # optional
block_at_percent = 100         # optional
`;

export interface Fixture {
  root: string;
  home: string;
  ws: string;
  /** Writes `text` at `rel` under the root, creating folders; returns the absolute path. */
  write(rel: string, text: string): string;
  load(extra?: { trusted?: boolean; workspaceFolder?: string }): LoadedRoles;
}

const roots: string[] = [];
after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

export function fixture(): Fixture {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-roles-'));
  roots.push(root);
  const home = path.join(root, 'home');
  const ws = path.join(root, 'ws');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(ws, { recursive: true });
  return {
    root, home, ws,
    write(rel, text) {
      const file = path.join(root, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      return file;
    },
    load(extra = {}) {
      return loadRoles({ workspaceFolder: extra.workspaceFolder ?? ws, homeDir: home, builtinDir: BUILTIN_DIR, trusted: extra.trusted ?? true });
    },
  };
}

/** A minimal role file body. */
export function roleToml(name: string, body = ''): string {
  return `[role]\nname = "${name}"\n${body}\n`;
}

export function errorsFor(loaded: LoadedRoles, role: string) {
  return loaded.problems.filter((p) => p.role === role && p.severity === 'error');
}
