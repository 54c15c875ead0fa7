/**
 * A case of the adversarial corpus as the tool call a real client's model makes: each client's own
 * tool names and argument shapes, as offered in its requests (Claude Code 2.1, Codex 0.169 with
 * gpt-5.5's tools, Copilot CLI 1.0, Gemini CLI 0.61).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CorpusCase } from '../../unit/adversarial/corpusHome';
import type { ScriptedCall } from '../scriptedModel/server';
import type { ClientId } from './hookFiles';

/** A Codex patch that gives `abs` the text `content`: an update of every line when the file exists, else an added file. */
function codexPatch(abs: string, content: string): string {
  const plus = content.split('\n').filter((l, i, all) => i < all.length - 1 || l !== '').map((l) => `+${l}`);
  if (fs.existsSync(abs) && fs.statSync(abs).isFile()) {
    const old = fs.readFileSync(abs, 'utf8').split('\n').filter((l, i, all) => i < all.length - 1 || l !== '').map((l) => `-${l}`);
    return ['*** Begin Patch', `*** Update File: ${abs}`, '@@', ...old, ...plus, '*** End Patch', ''].join('\n');
  }
  return ['*** Begin Patch', `*** Add File: ${abs}`, ...plus, '*** End Patch', ''].join('\n');
}

/** The absolute path a case's edit targets (`~/…`: in the home). */
export function editTarget(c: CorpusCase, ws: string, home: string): string {
  return c.edit!.startsWith('~/') ? path.join(home, c.edit!.slice(2)) : path.join(ws, c.edit!);
}

/**
 * The calls a case is made of, or none when the client has no such tool (VS Code's tasks and
 * commands) or the case cannot be a model's call (an input nested past what a client's schema passes
 * on). Claude Code writes a file that exists only after reading it (its Write tool refuses before any
 * hook runs otherwise), so its edits read the file first, as its model would: every one of them, since
 * a file missing now may exist by the time the call is played (Alfred's sandbox probe is written by the
 * session's first sandboxed command); the read of a missing file only answers that it does not exist.
 */
export function corpusCalls(c: CorpusCase, client: ClientId, ws: string, home: string): ScriptedCall[] {
  const call = corpusCall(c, client, ws, home);
  if (!call) return [];
  if (client === 'claude' && c.edit !== undefined) {
    return [{ name: 'Read', args: { file_path: editTarget(c, ws, home) } }, call];
  }
  return [call];
}

function corpusCall(c: CorpusCase, client: ClientId, ws: string, home: string): ScriptedCall | undefined {
  if (c.shell !== undefined) {
    switch (client) {
      case 'claude': return { name: 'Bash', args: { command: c.shell, description: 'Run it' } };
      case 'codex': return { name: 'exec_command', args: { cmd: c.shell } };
      case 'copilot-cli': return { name: 'bash', args: { command: c.shell, description: 'Run it' } };
      case 'gemini': return { name: 'run_shell_command', args: { command: c.shell } };
    }
  }
  if (c.edit !== undefined) {
    const abs = editTarget(c, ws, home);
    const content = c.content ?? '';
    switch (client) {
      case 'claude': return { name: 'Write', args: { file_path: abs, content } };
      case 'codex': return { name: 'apply_patch', freeform: true, args: { input: codexPatch(abs, content) } };
      case 'copilot-cli': return { name: 'create', args: { path: abs, file_text: content } };
      case 'gemini': return { name: 'write_file', args: { file_path: abs, content } };
    }
  }
  return undefined;
}
