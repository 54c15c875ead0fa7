import * as vscode from 'vscode';
import { governedCall, GovernedRefusal, type GovernedOutcome } from '../../core/harness/governedCall';
import type { Harness } from '../../core/harness/harness';
import { runOperation } from '../../core/workflow/operations/lifecycle';
import { compressShellOutput } from '../../core/rules/policy/compress';
import { toolCall } from '../../core/rules/policy/toolCall';
import type { ToolContract } from '../../core/tools/contracts';
import { validateToolInput } from '../../core/tools/validate';
import type { HarnessHost } from '../harnessHost';

export interface ToolOutput {
  text: string;
  data: Record<string, unknown>;
}

/** The part that differs per tool: the operation itself, after validation and the gate. */
export type ToolRun<I> = (input: I, ctx: ToolRunContext) => Promise<ToolOutput> | ToolOutput;

export interface ToolRunContext {
  harness: Harness;
  signal: AbortSignal;
  /** exec / write-external calls: ALFRED_OPERATION_ID for the child's environment (empty otherwise). */
  operationEnv: Record<string, string>;
}

export interface ToolDefinition {
  name: string;
  run: ToolRun<Record<string, unknown>>;
}

/** Pairs a tool name with its operation; the input type is the one its contract's schema validates. */
export function defineTool<I>(name: string, run: ToolRun<I>): ToolDefinition {
  return { name, run: run as unknown as ToolRun<Record<string, unknown>> };
}

/**
 * Wraps a tool operation in Alfred's rules: validate, then the governed call (core/harness/governedCall.ts:
 * gate → run → charge the output → the budget line at WARNING). A refusal is thrown as a
 * GovernedRefusal, so the model gets an error result, never a silent success, and `@alfred` tells it
 * from a failure.
 */
export function governedTool(contract: ToolContract, host: HarnessHost, run: ToolRun<Record<string, unknown>>): vscode.LanguageModelTool<Record<string, unknown>> {
  return {
    prepareInvocation(options) {
      const summary = describe(contract, options.input);
      if (!contract.needsConfirmation) return { invocationMessage: summary };
      return {
        invocationMessage: summary,
        confirmationMessages: {
          title: contract.displayName,
          message: new vscode.MarkdownString(vscode.l10n.t('Run this command in the workspace?') + '\n\n```sh\n' + String(options.input.command ?? '') + '\n```'),
        },
      };
    },

    async invoke(options, token) {
      const harness = host.require();
      const valid = validateToolInput<Record<string, unknown>>(contract.name, options.input);
      if (!valid.ok) {
        await harness.record([{ type: 'ToolCall', phase: 'decision', tool: contract.name, decision: 'deny', code: 'invalid-input', reason: valid.error, source: 'tool' }]);
        throw new GovernedRefusal(valid.error, { tool: contract.name, role: harness.activeRole().role.name, code: 'invalid-input', reason: valid.error });
      }
      const call = toolCall(contract.name, valid.value);
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      let outcome: GovernedOutcome<ToolOutput>;
      try {
        outcome = await governedCall(harness, call, { source: 'tool' }, async () => {
          host.refresh();
          // exec and write-external calls are persisted as operations before they start (never re-run blindly).
          const output = contract.effect === 'exec' || contract.effect === 'write-external'
            ? await runOperation(harness, { tool: contract.name, effect: contract.effect, args: valid.value, source: 'tool' },
              async (op) => run(valid.value, { harness, signal: abort.signal, operationEnv: op.env }))
            : await run(valid.value, { harness, signal: abort.signal, operationEnv: {} });
          const compress = contract.effect === 'exec' && harness.activeRole().role.shellPolicy === 'compress';
          return { value: output, output: compress ? compressShellOutput(output.text, output.data.exitCode as number | null | undefined) : output.text };
        });
      } finally {
        sub.dispose();
      }
      host.refresh();
      if (outcome.kind === 'refused') throw outcome.refusal;
      if (outcome.kind === 'failed') throw outcome.error;
      return new vscode.LanguageModelToolResult([
        new vscode.LanguageModelTextPart(outcome.output + (outcome.warning ?? '')),
        vscode.LanguageModelDataPart.json({ tool: contract.name, ...outcome.value.data, budget: outcome.charged.line }),
      ]);
    },
  };
}

function describe(contract: ToolContract, input: Record<string, unknown>): string {
  const arg = input.path ?? input.query ?? input.command ?? input.action ?? '';
  return `${contract.displayName}${arg ? `: ${String(arg).slice(0, 80)}` : ''}`;
}
