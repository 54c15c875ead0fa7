import { sha256Hex } from '../base/crypto/sha256';
/**
 * One command, one charge, whoever observes it (ARCHITECTURE.md, One command, one charge). A terminal command an
 * agent's hook already decided and charged (Copilot's `run_in_terminal`) is seen again when it ends in
 * the terminal; the ledger remembers the allowed commands' fingerprints, under the same lock as the
 * charge, so the terminal observer can tell them from commands a person typed, which are charged there.
 */

export interface TerminalClaim {
  /** commandFingerprint() of the command as the terminal will show it. */
  hash: string;
  /** When the hook charged it (ISO). */
  ts: string;
}

/** A charged command is claimed by its terminal run within this time, or forgotten. */
const CLAIM_WINDOW_MS = 30 * 60_000;
const MAX_CLAIMS = 64;

/** Whitespace-insensitive: terminals may trim or reflow the line they report. No command text is kept. */
export function commandFingerprint(command: string): string {
  return sha256Hex(command.trim().replace(/\s+/g, ' ')).slice(0, 24);
}

function fresh(claims: readonly TerminalClaim[] | undefined, now: number): TerminalClaim[] {
  return (Array.isArray(claims) ? claims : []).filter((c) => c && typeof c.hash === 'string' && now - Date.parse(c.ts) < CLAIM_WINDOW_MS);
}

/** The claims after a hook charged `command`. */
export function rememberCharged(claims: readonly TerminalClaim[] | undefined, command: string, now = Date.now()): TerminalClaim[] {
  return [...fresh(claims, now), { hash: commandFingerprint(command), ts: new Date(now).toISOString() }].slice(-MAX_CLAIMS);
}

/** Whether the terminal's `command` was already charged, and the claims left once it is taken. */
export function takeCharged(claims: readonly TerminalClaim[] | undefined, command: string, now = Date.now()): { charged: boolean; left: TerminalClaim[] } {
  const list = fresh(claims, now);
  const i = list.findIndex((c) => c.hash === commandFingerprint(command));
  if (i < 0) return { charged: false, left: list };
  return { charged: true, left: [...list.slice(0, i), ...list.slice(i + 1)] };
}
