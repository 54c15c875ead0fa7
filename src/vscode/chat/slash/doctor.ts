import * as vscode from 'vscode';
import type { Harness } from '../../../core/harness/harness';
import { lastHookRun } from '../../../core/integrations/hooks/lastRun';
import { linkLabel, modelIdentity, type ModelLink } from '../../../core/models/profiles';
import { readGovernanceHealth } from '../../hooks/health';
import { providerChecks } from '../../providers/providerChecks';
import { sandboxText } from '../../hooks/sandboxText';
import { vscodeSandboxShort, vscodeSandboxText } from '../../hooks/vscodeSandboxText';
import { VSCODE_SANDBOX_COMMAND } from '../../../core/sandbox/vscodeSandbox';
import { healthMarkdown } from '../../hooks/healthText';
import { raceCancellation } from '../cancel';
import { readChatSettings } from '../chatSettings';
import { activeProfile, resolveLink } from '../modelSelection';
import { projectionFor } from '../projection';
import { CHARGED_BY_CALLER } from '../../providers/alfredModelProvider';
import { chargeRequest, countText, reportedUsage, type ReportedUsage } from '../usage';
import type { SlashCommand } from './command';
import { mcpCheck } from '../../../core/doctor/mcp';

interface Check {
  label: string;
  model?: vscode.LanguageModelChat;
  probe?: { ok: boolean; text: string; ms: number };
}

const PROBE = 'Reply with the single word: ok';

/** One tiny request; its tokens are charged like any other (once: here), and it is not sent if it could pass the cost cap. */
async function probe(harness: Harness, model: vscode.LanguageModelChat, token: vscode.CancellationToken): Promise<Check['probe']> {
  const started = Date.now();
  try {
    // Its output is bounded by max_tokens: 1.
    const projection = projectionFor(harness, model, await countText(model, [PROBE], token), 1);
    if (!projection.send) return { ok: false, text: vscode.l10n.t('not sent, it could pass the cost limit of role {0}', projection.role), ms: 0 };
    // Charged here, as source `doctor`: Alfred's own provider must not charge it a second time.
    const response = await raceCancellation(model.sendRequest([vscode.LanguageModelChatMessage.User(PROBE)], { modelOptions: { max_tokens: 1, [CHARGED_BY_CALLER]: true } }, token), token);
    let text = '';
    let reported: ReportedUsage | undefined;
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) text += part.value;
      else if (part instanceof vscode.LanguageModelDataPart) reported = reportedUsage(part) ?? reported;
    }
    const ms = Date.now() - started;
    const [inputTokens, outputTokens] = await Promise.all([countText(model, [PROBE], token), countText(model, [text], token)]);
    await chargeRequest(harness, model, { inputTokens, outputTokens, toolResultTokens: 0, latencyMs: ms, source: 'doctor', ...(reported ? { reported } : {}) });
    return { ok: true, text: text.trim().slice(0, 40), ms };
  } catch (err) {
    return { ok: false, text: (err as Error).message || String(err), ms: Date.now() - started };
  }
}

/**
 * `/doctor`: which models of the active chain (or the chat's model) resolve, their limits, and a
 * one-token probe of each, all in parallel; then each governed agent's health (are its hooks in force?).
 */
export const doctorCommand: SlashCommand = {
  name: 'doctor',
  async run({ host, userSettingsFile, request, stream, token }) {
    const harness = host.require();
    const settings = readChatSettings();
    const { profile, missing } = activeProfile(harness, settings.profiles);
    if (missing) stream.markdown(`${vscode.l10n.t('Profile {0} is no longer in the alfred.profiles setting.', missing)}\n\n`);
    const links: Array<ModelLink | undefined> = profile ? [...profile.chain] : [undefined];
    stream.progress(vscode.l10n.t('Probing {0} model(s)…', links.length));
    const checks = await Promise.all(links.map(async (link): Promise<Check> => {
      const model = link ? await resolveLink(link) : request.model;
      const label = link ? linkLabel(link) : vscode.l10n.t('the chat\'s model');
      if (!model) return { label };
      return { label, model, probe: await probe(harness, model, token) };
    }));
    host.refresh();
    stream.markdown(profile
      ? vscode.l10n.t('Profile **{0}**, in failover order:', profile.name)
      : vscode.l10n.t('No profile is active; the chat\'s selected model:'));
    stream.markdown('\n\n');
    for (const c of checks) {
      if (!c.model) {
        stream.markdown(`- ❌ \`${c.label}\`: ${vscode.l10n.t('does not resolve (no such model is available now)')}\n`);
        continue;
      }
      const m = c.model;
      const price = harness.priceOf(m.id);
      const priceText = price.estimated ? vscode.l10n.t('no price (fallback, estimated)') : `$${price.inputPerMTok}/$${price.outputPerMTok} ${vscode.l10n.t('per million tokens')}`;
      const probeText = c.probe!.ok
        ? vscode.l10n.t('probe answered "{0}" in {1} ms', c.probe!.text, c.probe!.ms)
        : vscode.l10n.t('probe failed: {0}', c.probe!.text);
      stream.markdown(`- ${c.probe!.ok ? '✅' : '⚠️'} \`${c.label}\` → ${m.name} (\`${modelIdentity(m)}\`) · ${vscode.l10n.t('max input {0} tokens', m.maxInputTokens)} · ${priceText} · ${probeText}\n`);
    }
    // Alfred's own providers: reachable, key present, models listed.
    const providers = await providerChecks(userSettingsFile);
    if (providers.length > 0) {
      stream.markdown(`\n${vscode.l10n.t('Alfred\'s providers:')}\n\n`);
      for (const c of providers) stream.markdown(`- ${c.state === 'ok' ? '✅' : c.state === 'warn' ? '⚠️' : '❌'} \`${c.name}\`: ${c.detail}${c.ms !== undefined ? ` (${c.ms} ms)` : ''}\n`);
    }
    // Whether each agent's hooks are really in force, and why not.
    stream.markdown(`\n${healthMarkdown(readGovernanceHealth(harness), lastHookRun(harness.stateDir))}`);
    stream.markdown(`\n${sandboxText(harness.sandboxStatus())}\n`);
    const vscodeSandbox = harness.vscodeSandbox();
    stream.markdown(`\n${vscodeSandboxText(vscodeSandbox)}\n`);
    if (vscodeSandboxShort(vscodeSandbox)) stream.button({ command: VSCODE_SANDBOX_COMMAND, title: vscode.l10n.t('Put Alfred\'s Rules in VS Code\'s Sandbox') });
    // What the latest MCP audit found (core/doctor/mcp.ts), as alfred doctor says it.
    const mcp = mcpCheck(harness.stateDir);
    stream.markdown(`\n${mcp.state === 'ok' ? '✅' : '⚠️'} ${vscode.l10n.t('MCP servers')}: ${mcp.detail}\n`);
  },
};
