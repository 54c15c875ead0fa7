import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { countTokensSync } from '../../core/rules/budget/tokens';
import { offeredModels, type OfferedModel } from '../../core/models/providers/catalog';
import { intentionsOf } from '../../core/models/providers/intentions';
import { resolveKey } from '../../core/models/providers/keys';
import { listModels, streamChat } from '../../core/models/providers/stream';
import { ProviderError, type Intention, type ProviderConfig, type ReportedTokens } from '../../core/models/providers/types';
import type { ModelUsageRecord } from '../../core/usage/types';
import type { HarnessHost } from '../harnessHost';
import { toChatRequest } from './messages';
import { secretKey, useSecretStorage } from './providerChecks';
import { readProviders } from './providerSettings';

/** What the picker shows of a model, plus what the provider needs to serve it. */
interface AlfredModelInfo extends vscode.LanguageModelChatInformation {
  readonly offered: OfferedModel;
}

const LIST_TIMEOUT_MS = 5_000;

/**
 * How a safety or content refusal of an endpoint is told from other `Blocked` errors (a quota, a rate
 * limit), which are failures to fail over from: a refusal is the model's answer, and it is not.
 */
export const REFUSAL_PREFIX = 'Refused by the model: ';

export function refusalOf(err: unknown): string | undefined {
  const message = err instanceof Error ? err.message : '';
  const at = message.indexOf(REFUSAL_PREFIX);
  return at < 0 ? undefined : message.slice(at + REFUSAL_PREFIX.length);
}

/** Set by @alfred, which charges its own requests (with the tool results it already charged taken off). */
export const CHARGED_BY_CALLER = 'alfred.chargedByCaller';

/** The intentions of the models offered last, by id: failover links can ask for `{ "intention": "local" }`. */
const offeredIntentions = new Map<string, readonly Intention[]>();

export function intentionsOfModel(id: string): readonly Intention[] {
  return offeredIntentions.get(id) ?? [];
}

/**
 * Alfred's own language models (vendor `alfred`): the endpoints of `alfred.providers`, served through
 * the core's protocol clients. Every request is governed here, whoever makes it (Copilot's agent mode
 * included): refused with the budget line when the role's budget is exhausted, charged from the usage
 * the endpoint reports (measured), and that usage passed on as a `usage` data part.
 */
export class AlfredModelProvider implements vscode.LanguageModelChatProvider<AlfredModelInfo>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(private readonly host: HarnessHost, secrets: vscode.SecretStorage) {
    useSecretStorage(secrets);
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('alfred.providers')) this.changed.fire();
      }),
      secrets.onDidChange(() => this.changed.fire()),
    );
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  private key(provider: ProviderConfig) {
    return resolveKey(provider.key, { env: process.env, secret: secretKey });
  }

  async provideLanguageModelChatInformation(_options: vscode.PrepareLanguageModelChatModelOptions, token: vscode.CancellationToken): Promise<AlfredModelInfo[]> {
    const { providers } = readProviders();
    if (providers.length === 0) return [];
    const abort = abortOn(token);
    const { models } = await offeredModels(providers, {
      list: async (provider, signal) => {
        const key = await this.key(provider);
        // The picker waits for this list: an endpoint that does not answer soon is left out, not waited for.
        return listModels({ ...provider, timeoutMs: Math.min(provider.timeoutMs ?? LIST_TIMEOUT_MS, LIST_TIMEOUT_MS) }, key.ok ? key.key : undefined, signal);
      },
      intentions: (provider, model) => intentionsOf(provider, model),
    }, abort.signal).finally(() => abort.dispose());
    offeredIntentions.clear();
    for (const m of models) offeredIntentions.set(m.id, m.intentions);
    return models.map(infoOf);
  }

  async provideLanguageModelChatResponse(model: AlfredModelInfo, messages: readonly vscode.LanguageModelChatRequestMessage[], options: vscode.ProvideLanguageModelChatResponseOptions, progress: vscode.Progress<vscode.LanguageModelResponsePart>, token: vscode.CancellationToken): Promise<void> {
    const harness = this.host.current;
    const budget = harness?.budget();
    if (budget?.status.signal === 'EXHAUSTED') {
      throw vscode.LanguageModelError.Blocked(vscode.l10n.t('Alfred (role {0}): the budget is exhausted, so this request was not sent. {1}', budget.status.role, budget.line));
    }
    const { provider, model: served } = model.offered;
    const key = await this.key(provider);
    if (!key.ok && provider.key.kind !== 'none') throw vscode.LanguageModelError.NoPermissions(key.reason);
    const abort = abortOn(token);
    let usage: ReportedTokens | undefined;
    try {
      for await (const part of streamChat(provider, key.ok ? key.key : undefined, toChatRequest(served.id, messages, options), abort.signal)) {
        if (part.type === 'text') progress.report(new vscode.LanguageModelTextPart(part.text));
        else if (part.type === 'toolCall') progress.report(new vscode.LanguageModelToolCallPart(part.callId, part.name, (part.input ?? {}) as object));
        else if (part.type === 'usage') usage = part.usage;
        else if (part.type === 'refusal') throw vscode.LanguageModelError.Blocked(`${REFUSAL_PREFIX}${part.message}`);
      }
    } catch (err) {
      if (err instanceof ProviderError && err.kind === 'cancelled') throw new vscode.CancellationError();
      if (err instanceof ProviderError && err.kind === 'auth') throw vscode.LanguageModelError.NoPermissions(err.message);
      throw err;
    } finally {
      abort.dispose();
    }
    if (!usage) return;
    // The same report Copilot reads from an extension's model, and @alfred too.
    progress.report(new vscode.LanguageModelDataPart(new TextEncoder().encode(JSON.stringify({
      prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens, total_tokens: usage.inputTokens + usage.outputTokens,
      prompt_tokens_details: { cached_tokens: usage.cachedInputTokens },
    })), 'usage'));
    const modelOptions = (options.modelOptions ?? {}) as Record<string, unknown>;
    if (harness && modelOptions[CHARGED_BY_CALLER] !== true) await harness.chargeMeasured([usageRecord(model.id, usage, modelOptions)]);
  }

  provideTokenCount(_model: AlfredModelInfo, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    const value = typeof text === 'string' ? text : text.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : p instanceof vscode.LanguageModelToolResultPart ? JSON.stringify(p.content) : p instanceof vscode.LanguageModelToolCallPart ? JSON.stringify(p.input) : '')).join('');
    // o200k counts are close for most models; an endpoint's own count would cost a request each time.
    return Promise.resolve(countTokensSync(value) ?? Math.ceil(value.length / 4));
  }
}

function infoOf(offered: OfferedModel): AlfredModelInfo {
  const { provider, model, intentions } = offered;
  return {
    id: offered.id, name: model.name ?? model.id, family: model.id, version: provider.name,
    detail: [provider.name, ...intentions].join(' · '),
    tooltip: vscode.l10n.t('{0} through Alfred ({1}, {2})', model.id, provider.name, provider.baseUrl),
    maxInputTokens: model.maxInputTokens ?? model.contextLength ?? 128_000, maxOutputTokens: model.maxOutputTokens ?? 4096,
    capabilities: { toolCalling: model.toolCalling ?? true, imageInput: intentions.includes('vision') },
    offered,
  };
}

/** Copilot names its agent session in `_conversationId`: the charge is that session's. */
function usageRecord(modelId: string, usage: ReportedTokens, modelOptions: Record<string, unknown>): ModelUsageRecord {
  const session = typeof modelOptions._conversationId === 'string' ? modelOptions._conversationId : undefined;
  return {
    id: `alfred:${randomUUID()}`, source: 'alfred', ...(session ? { sessionId: session } : {}), model: modelId,
    inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cachedInputTokens: usage.cachedInputTokens,
    cacheCreationInputTokens: usage.cacheCreationInputTokens, reasoningTokens: 0, at: new Date().toISOString(), measured: true,
  };
}

function abortOn(token: vscode.CancellationToken): AbortController & { dispose(): void } {
  const abort = new AbortController();
  const sub = token.onCancellationRequested(() => abort.abort());
  if (token.isCancellationRequested) abort.abort();
  return Object.assign(abort, { dispose: () => sub.dispose() });
}
