/**
 * The harness one trial runs under: the trial's worktree as its workspace, a state folder of its own
 * (a fresh ALFRED_HOME), the condition's role, and that role's token and cost limits replaced by the
 * task's budget, so every trial starts with exactly its budget and nothing another trial spent.
 */
import { harnessFingerprint, type FingerprintInputs, type HarnessFingerprint } from '../models/fingerprint/fingerprint';
import { readFingerprintFiles } from '../models/fingerprint/files';
import type { PricingOptions } from '../rules/budget/prices';
import { Harness, type ActiveRole } from '../harness/harness';
import { protectedGlobsReader } from '../protect/protectGlobs';
import type { TrialBudget } from './suite';

export interface TrialHarnessOptions {
  worktree: string;
  /** The trial's own Alfred home: its state folder is created under it. */
  home: string;
  builtinRolesDir: string;
  version: string;
  role: string;
  budget: TrialBudget;
  pricing?: () => PricingOptions;
  env?: NodeJS.ProcessEnv;
}

export class TrialHarness extends Harness {
  constructor(private readonly trial: TrialHarnessOptions) {
    super({
      workspaceFolder: trial.worktree, builtinRolesDir: trial.builtinRolesDir, version: trial.version, trusted: true,
      // The role comes from the environment, as ALFRED_ROLE sets it for any process; no user setting applies.
      env: { ...(trial.env ?? process.env), ALFRED_HOME: trial.home, ALFRED_ROLE: trial.role },
      protectedGlobs: protectedGlobsReader(trial.worktree),
      ...(trial.pricing ? { pricing: trial.pricing } : {}),
    });
  }

  /**
   * The configuration with the role as its file sets it: the budget is the task's, kept apart in every
   * outcome, so one condition's trials of tasks with different budgets share one fingerprint.
   */
  override fingerprint(known: Pick<FingerprintInputs, 'model' | 'endpoint' | 'pack' | 'persona' | 'handoff'> = {}): HarnessFingerprint {
    return harnessFingerprint({ ...readFingerprintFiles(this.workspaceFolder), ...known, alfred: this.version, role: super.activeRole().role });
  }

  override activeRole(): ActiveRole {
    const active = super.activeRole();
    const limits = { ...active.role.limits, maxContextTokens: this.trial.budget.tokens, maxCostUsd: this.trial.budget.usd };
    return { ...active, role: { ...active.role, limits } };
  }
}
