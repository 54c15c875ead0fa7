import * as vscode from 'vscode';
import { SUMMARY_TEMPLATES, describeEvent } from '../../core/base/events/summary';
import type { AlfredEvent } from '../../core/base/events/types';
import { formatCount } from '../../protocol/dashboardFormat';

/**
 * The event's sentence in the user's language: the core chose the template and its values
 * (src/core/base/events/summary.ts); the template's English text is its key in l10n/bundle.l10n.es.json.
 */
export function localizedSummary(e: AlfredEvent): string {
  const { kind, args } = describeEvent(e);
  const values = args.map((v) => (typeof v === 'number' ? formatCount(v, vscode.env.language) : v));
  return vscode.l10n.t(SUMMARY_TEMPLATES[kind], ...values);
}
