/** The dashboard's "Models" section: where a first answer comes from (no vscode, no DOM here). */
import { command } from './ipc';

export interface ProviderHealthView {
  name: string;
  /** ok | warn | fail, as Alfred: Doctor says it. */
  state: 'ok' | 'warn' | 'fail';
  detail: string;
}

/** A local model server answering on its default port, not configured yet. */
export interface LocalServerView {
  label: string;
  baseUrl: string;
  models: string[];
}

export interface ModelsView {
  /** Some chat model is available to VS Code (Alfred's, Copilot's, another extension's). */
  usable: boolean;
  /** The chat models VS Code lists now, as `vendor/id`. */
  chatModels: string[];
  /** Alfred's own models (`alfred/<provider>/<model>`) VS Code lists now. */
  alfredModels: string[];
  /** Each configured provider and how its last check went. */
  providers: ProviderHealthView[];
  local: LocalServerView[];
  /** A check is under way. */
  checking: boolean;
}

// webview → host
/** Runs Alfred: Add Provider. */
export const AddProviderCommand = command<void>('models/addProvider');
/** Adds the local server found at `baseUrl` (through the write pipeline's confirmation). */
export const AddLocalServerCommand = command<{ baseUrl: string }>('models/addLocal');
/** Checks the providers and the local ports again. */
export const CheckModelsCommand = command<void>('models/check');
