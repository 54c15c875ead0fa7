import * as vscode from 'vscode';
import { parseProviders } from '../../core/models/providers/config';
import { parseKeyReference } from '../../core/models/providers/keys';
import type { ProviderProtocol } from '../../core/models/providers/types';
import { addProviderToSettings } from '../providers/addToSettings';
import { readProviders } from '../providers/providerSettings';
import { inputStep, pickStep } from '../providers/steps';
import type { AlfredCommand } from './command';

/**
 * Alfred: Add Provider — asks for an endpoint (protocol, base URL, key as a reference) and adds it to
 * `alfred.providers` through the write pipeline (diff, confirm, backup), in the user settings or, in a
 * remote window, the remote machine's (config/settingsFiles.ts). A literal
 * key is refused as you type, with how to store it instead; the entry is checked as the settings
 * reader will check it before anything is written.
 */
export const addProvider: AlfredCommand = {
  id: 'alfred.addProvider',
  async run({ host, extension }) {
    const step = (n: number) => ({ title: vscode.l10n.t('Alfred: Add Provider'), step: n, totalSteps: 4 });
    const protocol = await pickStep({
      ...step(1), placeholder: vscode.l10n.t('Which protocol does the endpoint speak?'),
      items: [
        { label: 'openai', description: vscode.l10n.t('OpenAI-compatible chat completions: OpenAI, OpenRouter, Ollama, LM Studio, llama.cpp, vLLM') },
        { label: 'anthropic', description: vscode.l10n.t('Anthropic\'s messages API') },
      ],
    });
    if (!protocol) return false;
    const baseUrl = await inputStep({
      ...step(2), prompt: vscode.l10n.t('The API\'s base URL'), placeholder: protocol.label === 'anthropic' ? 'https://api.anthropic.com' : 'https://api.openai.com/v1',
      validate: (v) => (/^https?:\/\/[^\s/]+/.test(v.trim()) ? undefined : vscode.l10n.t('An http(s) URL with a host')),
    });
    if (!baseUrl) return false;
    // Masked: a key pasted here by mistake is refused, and never shown on screen either.
    const key = await inputStep({
      ...step(3), password: true,
      prompt: vscode.l10n.t('The key, as a reference: $VAR (an environment variable) or secret:NAME (Alfred: Set Provider Key); empty for none'),
      validate: (v) => {
        const parsed = parseKeyReference(v.trim() === '' ? undefined : v.trim());
        return parsed.ok ? undefined : parsed.reason;
      },
    });
    if (key === undefined) return false;
    const taken = new Set(readProviders().providers.map((p) => p.name.toLowerCase()));
    const name = await inputStep({
      ...step(4), prompt: vscode.l10n.t('A short name for it (letters, digits, _ and -)'),
      validate: (v) => (!/^[A-Za-z0-9_-]{1,32}$/.test(v) ? vscode.l10n.t('Letters, digits, _ and - (at most 32)') : taken.has(v.toLowerCase()) ? vscode.l10n.t('A provider of that name exists') : undefined),
    });
    if (!name) return false;
    const { providers, problems } = parseProviders([{ name, protocol: protocol.label as ProviderProtocol, baseUrl: baseUrl.trim(), ...(key.trim() ? { key: key.trim() } : {}), models: 'list' }]);
    if (!providers[0]) throw new Error(problems.map((p) => `${p.key}: ${p.message}`).join('; '));
    return addProviderToSettings(host, extension, providers[0], { reason: `add the provider ${name}`, title: vscode.l10n.t('Add {0} to Alfred\'s providers', name) });
  },
};
