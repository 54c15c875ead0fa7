/**
 * The audit's settings as the command line reads them: `alfred.mcpAudit.downloadsApi`,
 * `minWeeklyDownloads` and `maxDaysSincePublish` from the user's settings.json files (the editor asks
 * its configuration API instead). User settings only, as in the editor: a repository's
 * .vscode/settings.json cannot make its own packages look maintained. Each setting comes from the
 * first file that sets it to a valid value; anything else keeps the default.
 */
import { parse } from 'jsonc-parser';
import { readIfExists } from '../../base/fs/readIfExists';
import { DEFAULT_CURATION, type CurationThresholds } from './curation';
import { isObject } from '../../base/isObject';

export interface AuditSettings {
  downloadsApi?: string;
  thresholds: CurationThresholds;
}

/** A settings.json's object; absent or unreadable is empty (settings are optional everywhere). */
export function settingsOf(file: string): Record<string, unknown> {
  const text = readIfExists(file);
  if (text === undefined) return {};
  try {
    const doc: unknown = parse(text, [], { allowTrailingComma: true });
    return isObject(doc) ? doc : {};
  } catch {
    return {};
  }
}

export function userAuditSettings(userSettingsFiles: readonly string[]): AuditSettings {
  const docs = userSettingsFiles.map(settingsOf);
  const first = <T>(key: string, valid: (v: unknown) => v is T): T | undefined => {
    for (const doc of docs) {
      const v = doc[`alfred.mcpAudit.${key}`];
      if (valid(v)) return v;
    }
    return undefined;
  };
  const count = (min: number) => (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= min;
  const downloadsApi = first('downloadsApi', (v): v is string => typeof v === 'string' && v.trim() !== '')?.trim();
  return {
    ...(downloadsApi ? { downloadsApi } : {}),
    thresholds: {
      minWeeklyDownloads: first('minWeeklyDownloads', count(0)) ?? DEFAULT_CURATION.minWeeklyDownloads,
      maxDaysSincePublish: first('maxDaysSincePublish', count(1)) ?? DEFAULT_CURATION.maxDaysSincePublish,
    },
  };
}
