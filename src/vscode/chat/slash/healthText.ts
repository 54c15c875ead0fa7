import * as vscode from 'vscode';
import { FAILURES_TO_FAIL_OVER, type LinkStatus } from '../../../core/models/failover';

/** `active`, `failing 1/2`, `unavailable`, `standby`. */
export function healthText(l: LinkStatus): string {
  const parts: string[] = [];
  if (l.active) parts.push(vscode.l10n.t('active'));
  if (l.health === 'unavailable') parts.push(vscode.l10n.t('unavailable'));
  else if (l.failures > 0) parts.push(vscode.l10n.t('failing {0}/{1}', l.failures, FAILURES_TO_FAIL_OVER));
  else if (!l.active) parts.push(vscode.l10n.t('standby'));
  return parts.join(', ');
}
