/**
 * Whether `alfred` may ask the user right here to confirm a raise of authority, and asking. Only at an
 * interactive terminal outside any editor or agent: in a VS Code terminal (where an agent's terminal
 * tool runs too) or under an agent (Claude Code, Codex, the Copilot CLI mark their commands), the
 * request waits for the user's confirmation in VS Code instead, in a dialog no agent tool can answer.
 */
import fs from 'node:fs';
import readline from 'node:readline';

const AGENT_MARKERS = ['CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT', 'CODEX_SANDBOX', 'CODEX_THREAD_ID', 'COPILOT_CLI', 'COPILOT_AGENT_SESSION_ID', 'VSCODE_PID', 'VSCODE_IPC_HOOK_CLI'];

export function canAskHere(env: NodeJS.ProcessEnv = process.env): boolean {
  const tty = (fd: number): boolean => {
    try {
      return fs.fstatSync(fd).isCharacterDevice() && Boolean((fd === 0 ? process.stdin : process.stdout).isTTY);
    } catch {
      return false;
    }
  };
  if (env.TERM_PROGRAM === 'vscode' || AGENT_MARKERS.some((k) => env[k])) return false;
  return tty(0) && tty(1);
}

/** Asks the user to type `word`; true only when they do. */
export async function askToType(question: string, word: string): Promise<boolean> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await new Promise<string>((resolve) => rl.question(`${question}\nType ${word} to confirm: `, resolve));
    return answer.trim() === word;
  } finally {
    rl.close();
  }
}
