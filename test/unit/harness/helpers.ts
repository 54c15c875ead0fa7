/** A harness on a temporary workspace, home folder and ALFRED_HOME, plus a hook caller. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';
import { Harness, type HarnessOptions } from '../../../src/core/harness/harness';
import { handleHook } from '../../../src/core/integrations/hooks/handle';
import { parseHookInput } from '../../../src/core/integrations/hooks/input';
import type { HookAnswer } from '../../../src/core/integrations/hooks/output';

export const BUILTIN_ROLES = path.resolve(__dirname, '../../../roles');

export interface Env {
  root: string;
  ws: string;
  home: string;
  alfredHome: string;
  harness: Harness;
  /** Writes `text` at the workspace-relative `rel`. */
  write(rel: string, text: string): void;
  /** Runs a hook event through parseHookInput and handleHook, as `alfred hook` does. */
  hook(event: string, input: Record<string, unknown>): Promise<HookAnswer & { json: Record<string, unknown> }>;
}

const roots: string[] = [];
after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

export function makeEnv(opts: { env?: NodeJS.ProcessEnv; roleSetting?: string; files?: Record<string, string> } & Omit<Partial<HarnessOptions>, 'env' | 'roleSetting'> = {}): Env {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-harness-'));
  roots.push(root);
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  const alfredHome = path.join(root, 'alfred-home');
  for (const d of [ws, home]) fs.mkdirSync(d, { recursive: true });
  const write = (rel: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  };
  for (const [rel, text] of Object.entries(opts.files ?? {})) write(rel, text);
  const { env, roleSetting, files: _files, ...rest } = opts;
  const harness = new Harness({
    workspaceFolder: ws,
    builtinRolesDir: BUILTIN_ROLES,
    env: { ALFRED_HOME: alfredHome, ...env },
    homeDir: home,
    roleSetting: roleSetting === undefined ? undefined : () => roleSetting,
    ...rest,
  });
  return {
    root, ws, home, alfredHome, harness, write,
    async hook(event, input) {
      const answer = await handleHook(harness, event, parseHookInput(JSON.stringify({ cwd: ws, ...input }), event, ws));
      return { ...answer, json: JSON.parse(answer.stdout) as Record<string, unknown> };
    },
  };
}

/** The reason of a VS Code / Claude Code refusal, or undefined when the answer is not a refusal. */
export function denyReason(json: Record<string, unknown>): string | undefined {
  const out = json.hookSpecificOutput as Record<string, unknown> | undefined;
  return out?.permissionDecision === 'deny' ? String(out.permissionDecisionReason) : undefined;
}

/** A project role file body with explicit limits. */
export function roleFile(name: string, body: string, limits = 'max_context_tokens = 1000\nmax_shell_invocations = 5\nmax_cost_usd = 5.0'): string {
  return `[role]\nname = "${name}"\ndescription = "${name} for tests"\n${body}\n[limits]\n${limits}\n`;
}
