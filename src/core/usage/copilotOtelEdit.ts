/**
 * The user-settings edit that sends Copilot Chat's OpenTelemetry to Alfred's receiver: export on,
 * OTLP over HTTP to the loopback endpoint, content capture off (prompts and answers never leave
 * Copilot), no output file (one would override the exporter). Comments and other settings are kept.
 */
import { applyEdits, modify, parse as parseJsonc, type FormattingOptions } from 'jsonc-parser';

/** Beside OTLP's 4318, below Linux's ephemeral ports, so an outgoing connection does not hold it. */
export const DEFAULT_OTLP_PORT = 24318;

export const COPILOT_OTEL_SETTINGS = {
  section: 'github.copilot.chat.otel',
  enabled: 'github.copilot.chat.otel.enabled',
  exporterType: 'github.copilot.chat.otel.exporterType',
  otlpEndpoint: 'github.copilot.chat.otel.otlpEndpoint',
  captureContent: 'github.copilot.chat.otel.captureContent',
  outfile: 'github.copilot.chat.otel.outfile',
} as const;

const FORMAT: FormattingOptions = { tabSize: 4, insertSpaces: true, eol: '\n' };

/** `text` (a settings.json, or undefined when there is none) with the export pointed at `endpoint`. */
export function copilotOtelSettingsText(text: string | undefined, endpoint: string): string {
  let out = text && text.trim() ? text : '{}\n';
  const current = parseJsonc(out) as Record<string, unknown> | undefined;
  const wanted: Array<[string, unknown]> = [
    [COPILOT_OTEL_SETTINGS.enabled, true],
    [COPILOT_OTEL_SETTINGS.exporterType, 'otlp-http'],
    [COPILOT_OTEL_SETTINGS.otlpEndpoint, endpoint],
    [COPILOT_OTEL_SETTINGS.captureContent, false],
  ];
  if (current && typeof current[COPILOT_OTEL_SETTINGS.outfile] === 'string' && current[COPILOT_OTEL_SETTINGS.outfile] !== '') wanted.push([COPILOT_OTEL_SETTINGS.outfile, undefined]);
  for (const [key, value] of wanted) {
    if (current && current[key] === value) continue;
    out = applyEdits(out, modify(out, [key], value, { formattingOptions: FORMAT }));
  }
  return out;
}
