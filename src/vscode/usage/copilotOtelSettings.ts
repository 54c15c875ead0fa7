import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { copilotOtelSettingsText, COPILOT_OTEL_SETTINGS, DEFAULT_OTLP_PORT } from '../../core/usage/copilotOtelEdit';

/** The port of Alfred's OTLP receiver (`alfred.usage.otlpPort`): fixed, because Copilot reads its endpoint once, at start. */
export function otlpPort(): number {
  const port = vscode.workspace.getConfiguration('alfred.usage').get<number>('otlpPort', DEFAULT_OTLP_PORT);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : DEFAULT_OTLP_PORT;
}

export function otlpEndpoint(): string {
  return `http://127.0.0.1:${otlpPort()}`;
}

/**
 * Whether Copilot Chat (as configured now; it reads the settings when it starts) sends its spans to
 * `endpoint`: export on, OTLP over HTTP, no output file, that endpoint, and no environment variable
 * of the extension host overriding them (they take precedence over settings).
 */
export function copilotOtelPointsAt(endpoint: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const c = vscode.workspace.getConfiguration(COPILOT_OTEL_SETTINGS.section);
  const enabled = env.COPILOT_OTEL_ENABLED !== undefined ? /^(true|1)$/i.test(env.COPILOT_OTEL_ENABLED) : c.get<boolean>('enabled') === true;
  if (!enabled || env.COPILOT_OTEL_FILE_EXPORTER_PATH || c.get<string>('outfile')) return false;
  if ((c.get<string>('exporterType') ?? 'otlp-http') !== 'otlp-http') return false;
  const target = env.COPILOT_OTEL_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT ?? c.get<string>('otlpEndpoint') ?? '';
  return sameEndpoint(target, endpoint);
}

function sameEndpoint(a: string, b: string): boolean {
  const norm = (s: string) => s.trim().replace(/\/+$/, '').replace('//localhost:', '//127.0.0.1:');
  return norm(a) === norm(b);
}

/** The settings file's text with Copilot's export pointed at Alfred, or undefined when it already is. */
export function userSettingsWithExport(file: string): { text: string | undefined; newText: string } | undefined {
  let text: string | undefined;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    text = undefined;
  }
  const newText = copilotOtelSettingsText(text, otlpEndpoint());
  return newText === (text ?? '') ? undefined : { text, newText };
}
