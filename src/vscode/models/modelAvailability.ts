import * as vscode from 'vscode';
import { localOffers, type LocalOffer } from '../../core/models/providers/localFirst';
import type { ModelsView } from '../../protocol/models';
import { probeLocalEndpoints } from '../providers/localFirst';
import { providerChecks } from '../providers/providerChecks';
import { readProviders } from '../providers/providerSettings';

/** A provider that never answers VS Code's question must not keep the check running. */
const SELECT_WITHIN_MS = 5_000;

function within<T>(promise: Thenable<T>, fallback: T): Promise<T> {
  return Promise.race([Promise.resolve(promise), new Promise<T>((resolve) => setTimeout(() => resolve(fallback), SELECT_WITHIN_MS))]);
}

/** Copilot's models answer only for a GitHub account signed in (github.com or GitHub Enterprise); asked silently. */
async function signedInToGitHub(): Promise<boolean> {
  for (const provider of ['github', 'github-enterprise']) {
    try {
      if (await within(vscode.authentication.getSession(provider, [], { silent: true }), undefined)) return true;
    } catch { /* that provider is not there */ }
  }
  return false;
}

/** Copilot's vendors: `copilot`, and `copilotcli` (its CLI agent's `auto`, listed even without an account). */
const isCopilot = (m: vscode.LanguageModelChat): boolean => m.vendor.startsWith('copilot');

/**
 * The chat models that can answer: VS Code lists Copilot's even without a sign-in, and a request to
 * one then fails ("Language model unavailable"), so those count only with a GitHub session.
 */
async function chatModels(): Promise<readonly vscode.LanguageModelChat[]> {
  const models = await within(vscode.lm.selectChatModels(), []);
  if (!models.some(isCopilot) || await signedInToGitHub()) return models;
  return models.filter((m) => !isCopilot(m));
}

/**
 * Whether a first answer is possible, for the dashboard's Models section and the status bar's hint:
 * the chat models VS Code lists, each of Alfred's providers with its health, and the local model
 * servers answering on their default ports that no provider points at yet. Checked at start, when
 * VS Code's models or `alfred.providers` change, and when asked; one check at a time.
 */
export class ModelAvailability implements vscode.Disposable {
  private view: ModelsView = { usable: true, chatModels: [], alfredModels: [], providers: [], local: [], checking: true };
  private offers: LocalOffer[] = [];
  private running: Promise<void> | undefined;
  private again = false;
  private readonly changed = new vscode.EventEmitter<ModelsView>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly userSettingsFile?: string) {
    this.subscriptions = [
      this.changed,
      vscode.lm.onDidChangeChatModels(() => void this.check()),
      vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('alfred.providers')) void this.check(); }),
    ];
    void this.check();
  }

  current(): ModelsView {
    return this.view;
  }

  /** The local server found at `baseUrl` at the last check. */
  offer(baseUrl: string): LocalOffer | undefined {
    return this.offers.find((o) => o.endpoint.baseUrl === baseUrl);
  }

  check(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.compute().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        void this.check();
      }
    });
    return this.running;
  }

  private async compute(): Promise<void> {
    this.publish({ ...this.view, checking: true });
    try {
      const [models, checks, probes] = await Promise.all([chatModels(), providerChecks(this.userSettingsFile), probeLocalEndpoints()]);
      this.offers = localOffers(probes, readProviders().providers);
      this.publish({
        usable: models.length > 0,
        chatModels: models.map((m) => `${m.vendor}/${m.id}`),
        alfredModels: models.filter((m) => m.vendor === 'alfred').map((m) => m.id),
        providers: checks.map((c) => ({ name: c.name, state: c.state, detail: c.detail })),
        local: this.offers.map((o) => ({ label: o.endpoint.label, baseUrl: o.endpoint.baseUrl, models: o.models })),
        checking: false,
      });
    } catch (err) {
      console.error('[alfred] checking the models:', err);
      this.publish({ ...this.view, checking: false });
    }
  }

  private publish(view: ModelsView): void {
    if (JSON.stringify(view) === JSON.stringify(this.view)) return;
    this.view = view;
    console.log(`[alfred] models: ${view.checking ? 'checking' : view.usable ? 'a chat model is available' : 'no chat model'}; ${view.providers.length} provider(s), ${view.local.length} local server(s) to offer`);
    this.changed.fire(view);
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
  }
}
