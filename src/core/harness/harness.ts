/**
 * The harness for one workspace: roles, the active role, the gate with its ledger, and the event
 * bus, behind one object that the VS Code adapter and the `alfred` command line both use.
 */
import os from 'node:os';
import path from 'node:path';
import type { Actor } from '../base/actor';
import type { CompletionHost } from '../workflow/completion/verify';
import type { CallGovernor, CallOrigin } from './governedCall';
import type { HandoffHost } from '../workflow/handoff/handoff';
import type { OperationsHost } from '../workflow/operations/lifecycle';
import { costOf, priceFor, type PriceQuote, type PricingOptions } from '../rules/budget/prices';
import { formatBudgetLine } from '../rules/budget/status';
import { countTokens } from '../rules/budget/tokens';
import type { BudgetStatus } from '../rules/budget/types';
import { EventBus } from '../base/events/bus';
import { EVENTS_FILE } from '../base/events/format';
import { readEvents, type ReadResult } from '../base/events/read';
import type { AlfredEvent, EventType } from '../base/events/types';
import { chargeModelUsage, type ModelChargeResult, type ModelUsage } from '../models/charge';
import { governanceHomePaths, installationPaths, runsLaterPaths } from '../protect/agents';
import { decide } from '../rules/policy/gate';
import { readMcpTrust } from '../rules/policy/mcpAuditFile';
import type { GateDecision } from '../rules/vocabulary/types';
import type { ToolCall } from '../rules/policy/toolCall';
import type { Toolset } from '../rules/policy/toolsets';
import type { ProtectionOptions } from '../protect/toolPaths';
import { detectSandbox, planSandbox, type SandboxPlan } from '../sandbox/index';
import { sandboxRefusal as sandboxRefusalOf } from '../sandbox/refusal';
import { strictProbeFailure } from '../sandbox/detect';
import { sandboxStatus, type SandboxStatus } from '../sandbox/status';
import type { VscodeSandboxInput } from '../sandbox/vscodeSandbox';
import { vscodeSandboxEverywhere, vscodeSandboxOnHere, vscodeUserSettingsFiles, type VscodeSandboxReport } from '../sandbox/vscodeSettingsFiles';
import { chargeMeasured, type MeasuredCharge } from '../usage/chargeMeasured';
import type { ModelUsageRecord } from '../usage/types';
import { requireRole, resolveActiveRoleName, type ActiveRoleOrigin } from '../rules/roles/active';
import { moreAuthority, withWorkspaceRole } from '../rules/policy/authority';
import { loadRoles, roleFolders, type RoleFolder } from '../rules/roles/loader';
import { DEFAULT_ROLE, type LoadedRoles, type Role, type RoleProblem } from '../rules/roles/types';
import { authorize, charge, currentStatus, observeShell, type AuthorizeResult, type ChargeResult, type ObserveShellResult } from '../ledger/govern';
import { readLedger } from '../ledger/ledgerFormat';
import { recordEvents, resetSession } from '../ledger/ledgerStore';
import { stateDir } from '../base/state/paths';
import { readRuntimeRole, writeRuntimeRole } from '../rules/roles/runtimeRole';
import { Tracer } from '../usage/traces/tracer';
import { harnessFingerprint, type FingerprintInputs, type HarnessFingerprint } from '../models/fingerprint/fingerprint';
import { teamDecide } from '../ledger/team/decide';
import { openTeamLedger } from '../ledger/team/open';
import type { LedgerBackend } from '../ledger/ledgerBackend';
import { openLedgerBackend } from '../ledger/pgLedger/open';
import type { TeamLedger } from '../ledger/team/teamLedger';
import { readFingerprintFiles } from '../models/fingerprint/files';

export interface HarnessOptions {
  workspaceFolder: string;
  /** The extension's (or the CLI's) `roles/` folder. */
  builtinRolesDir: string;
  homeDir?: string;
  env?: NodeJS.ProcessEnv;
  /** Workspace Trust; the CLI runs with the user's own authority and passes true. */
  trusted?: boolean;
  /** The user's own `alfred.role` setting, read each time the active role is resolved. */
  roleSetting?: () => string | undefined;
  /**
   * `alfred.role` from the workspace's settings (the repository's, which an agent may have written):
   * it may lower authority, never raise it above what the user's setting (or coder) gives.
   */
  workspaceRoleSetting?: () => string | undefined;
  pricing?: () => PricingOptions;
  /** Globs of paths agents may not edit (checks.toml's `protect`). */
  protectedGlobs?: () => readonly string[];
  /** Alfred's version (the extension's package.json), kept in traces and completion records. */
  version?: string;
  /** The alfred.ledgerUrl setting: team budgets and audit trail in PostgreSQL (ALFRED_LEDGER_URL wins). */
  ledgerUrl?: string;
  /**
   * Writes a call's trace later (the hook server: once the caller has its answer), with the times
   * of the call; by default it is written before `authorize` and `chargeOutput` return.
   */
  traceLater?: (write: () => Promise<void>) => void;
}

/** A role switch or reset asked for from outside the editor (the command line, an agent's shell). */
export interface AuthorityRequest {
  action: 'role' | 'reset';
  /** The role asked for (`role` is every event's active role). */
  target?: string;
  /** Who asked: `cli`, … */
  by: string;
  /** What it would raise (moreAuthority), for the user's confirmation. */
  gains: string[];
}

export interface ActiveRole {
  role: Role;
  from: ActiveRoleOrigin;
  /** Set when the requested role does not exist and `coder` stands in for it. */
  problem?: string;
}

export interface BudgetSnapshot {
  status: BudgetStatus;
  line: string;
  session?: string;
}

/** One harness, and the narrow parts of it that governed calls, completion, handoffs and operations use. */
export class Harness implements CallGovernor, CompletionHost, HandoffHost, OperationsHost {
  readonly bus = new EventBus<AlfredEvent>();
  readonly stateDir: string;
  readonly workspaceFolder: string;
  private loaded: LoadedRoles | undefined;
  private readonly opts: HarnessOptions;
  /** Per-call traces (traces.jsonl); the chat loop may add its model requests with `tracer.model`. */
  readonly tracer: Tracer;
  /** Team budgets and audit trail, when the user opted in (ledger/team/open.ts). */
  readonly team: TeamLedger | undefined;
  /** Why the team ledger the user asked for could not be opened: every call is refused with it. */
  readonly teamProblem: string | undefined;
  /** Where the personal ledger lives when not in the state folder's files (ALFRED_LEDGER_BACKEND). */
  readonly ledgerBackend: LedgerBackend | undefined;

  constructor(opts: HarnessOptions) {
    this.opts = opts;
    this.workspaceFolder = opts.workspaceFolder;
    this.stateDir = stateDir(opts.workspaceFolder, this.env);
    this.tracer = new Tracer(this.stateDir, this.workspaceFolder, () => this.version, (model) => this.fingerprint({ model }));
    this.ledgerBackend = openLedgerBackend({ workspaceFolder: this.workspaceFolder, stateDir: this.stateDir, env: this.env, setting: opts.ledgerUrl });
    try {
      this.team = openTeamLedger({ workspaceFolder: this.workspaceFolder, stateDir: this.stateDir, env: this.env, setting: opts.ledgerUrl });
    } catch (err) {
      this.teamProblem = (err as Error).message;
    }
  }

  get version(): string {
    return this.opts.version ?? 'unknown';
  }

  /** The harness configuration now (the fingerprint of issue 15); what the caller does not say is `n/a`. */
  fingerprint(known: Pick<FingerprintInputs, 'model' | 'endpoint' | 'pack' | 'persona' | 'handoff'> = {}): HarnessFingerprint {
    return harnessFingerprint({ ...readFingerprintFiles(this.workspaceFolder), ...known, alfred: this.version, role: this.activeRole().role });
  }

  /** The environment Alfred's paths (ALFRED_HOME) are resolved in. */
  get env(): NodeJS.ProcessEnv {
    return this.opts.env ?? process.env;
  }

  /** The folder Alfred runs from: the one holding its built-in roles (the extension's, or the repository's). */
  private get installation(): string {
    return path.dirname(path.resolve(this.opts.builtinRolesDir));
  }

  /** The user's home (HarnessOptions.homeDir, for tests; else the system's). */
  get homeDir(): string {
    return this.opts.homeDir ?? os.homedir();
  }

  get logPath(): string {
    return path.join(this.stateDir, EVENTS_FILE);
  }

  roles(): LoadedRoles {
    this.loaded ??= loadRoles({
      workspaceFolder: this.workspaceFolder,
      homeDir: this.homeDir,
      builtinDir: this.opts.builtinRolesDir,
      trusted: this.opts.trusted ?? true,
    });
    return this.loaded;
  }

  /** Forget the loaded roles: the next call reads the role files again. */
  reloadRoles(): LoadedRoles {
    this.loaded = undefined;
    return this.roles();
  }

  /** Folders whose `*.toml` files define roles, for a file watcher. */
  roleFolders(): RoleFolder[] {
    return roleFolders({ workspaceFolder: this.workspaceFolder, homeDir: this.homeDir, builtinDir: this.opts.builtinRolesDir });
  }

  problems(): readonly RoleProblem[] {
    return this.roles().problems;
  }

  activeRole(): ActiveRole {
    const resolve = (setting: string | undefined): ActiveRole => {
      const { name, from } = resolveActiveRoleName({
        runtime: readRuntimeRole(this.stateDir)?.role, env: this.env, setting, trusted: this.opts.trusted ?? true,
      });
      try {
        return { role: requireRole(this.roles(), name), from };
      } catch (err) {
        return { role: requireRole(this.roles(), DEFAULT_ROLE), from: 'default', problem: (err as Error).message };
      }
    };
    const workspaceSetting = this.opts.workspaceRoleSetting?.()?.trim();
    return withWorkspaceRole(resolve(this.opts.roleSetting?.()), workspaceSetting ? () => resolve(workspaceSetting) : undefined);
  }

  /** The active role and its budget session, for records of who did what (the budget itself not computed). */
  actor(): Actor {
    const { role } = this.activeRole();
    const ledger = readLedger(this.stateDir);
    return { role: role.name, session: ledger?.role === role.name ? ledger.session : null };
  }

  /** In what ways switching to `name` would raise the active role's authority (empty: it would not). */
  authorityGainOf(name: string): string[] {
    return moreAuthority(requireRole(this.roles(), name), this.activeRole().role);
  }

  /**
   * A role switch or budget reset asked for outside the editor's UI that raises authority: logged as
   * AuthorityRequested, applied only when the user confirms it (src/vscode/authorityRequests.ts asks).
   */
  async requestAuthority(request: AuthorityRequest): Promise<void> {
    await this.record([{ type: 'AuthorityRequested', ...request }]);
  }

  /** Applies a confirmed request, or logs that the user declined it. */
  async settleAuthority(request: AuthorityRequest, confirmed: boolean, by: string): Promise<void> {
    if (!confirmed) {
      await this.record([{ type: 'AuthorityDeclined', ...request, by }]);
      return;
    }
    if (request.action === 'role' && request.target) await this.switchRole(request.target, `${request.by} (confirmed by ${by})`);
    else if (request.action === 'reset') await this.reset(`${request.by} (confirmed by ${by})`);
  }

  budget(): BudgetSnapshot {
    const { role } = this.activeRole();
    const status = currentStatus(this.stateDir, role);
    const ledger = readLedger(this.stateDir);
    return { status, line: formatBudgetLine(status), session: ledger?.role === role.name ? ledger.session : undefined };
  }

  private protectedPaths(): ProtectionOptions {
    return {
      globs: this.opts.protectedGlobs?.() ?? [], workspaceFolder: this.workspaceFolder, stateDir: this.stateDir,
      home: {
        dir: this.homeDir, runsLaterPaths: runsLaterPaths(this.homeDir, { env: this.env, workspaceFolder: this.workspaceFolder }),
        governancePaths: [...governanceHomePaths(this.env, this.homeDir), ...installationPaths(this.installation, this.workspaceFolder)],
      },
    };
  }

  /** How a shell command of the active role runs so that protected paths hold (sandbox/index.ts). */
  sandboxPlan(): SandboxPlan {
    return planSandbox({
      role: this.activeRole().role, workspaceFolder: this.workspaceFolder, protectedGlobs: this.opts.protectedGlobs?.() ?? [],
      stateDir: this.stateDir, env: this.env, home: this.homeDir, installation: this.installation,
    });
  }

  /** What VS Code's own sandbox must hold for the active role (sandbox/vscodeSandbox.ts); undefined where Alfred plans no sandbox to compare with. */
  vscodeSandboxInput(): VscodeSandboxInput | undefined {
    const plan = this.sandboxPlan();
    if (plan.kind !== 'sandboxed') return undefined;
    const { role } = this.activeRole();
    return { denyWrite: plan.readOnly, allowWrite: role.allowWrite ?? [], ...(role.network ? { network: role.network } : {}), workspaceFolder: this.workspaceFolder, home: this.homeDir };
  }

  /** Whether VS Code's own sandbox holds Alfred's rules in every editor here (then Copilot's terminal commands are left to it). */
  vscodeSandbox(): VscodeSandboxReport {
    const input = this.vscodeSandboxInput();
    return input ? vscodeSandboxEverywhere(vscodeUserSettingsFiles(this.env, this.homeDir), input) : { holds: false, off: false, missing: ['Alfred plans no sandbox here to compare with'] };
  }

  /** The same for a hook call: no plan is made where VS Code's sandbox is off in some editor (the usual case). */
  vscodeSandboxHolds(): boolean {
    return vscodeSandboxOnHere(this.env, this.homeDir, this.workspaceFolder) && this.vscodeSandbox().holds;
  }

  /** Whether shell commands of the active role run in the kernel sandbox, without planning one. */
  sandboxStatus(): SandboxStatus {
    const detected = detectSandbox(this.env);
    return sandboxStatus(this.activeRole().role, detected, process.arch, detected.kind === 'bwrap' ? strictProbeFailure(detected.path) : undefined);
  }

  /** What the gate would decide now, with nothing charged or logged (for permission prompts); `toolset`: the caller's tools. */
  preview(call: ToolCall, toolset?: Toolset): GateDecision {
    const { role } = this.activeRole();
    const budget = currentStatus(this.stateDir, role);
    const sandboxRefusal = sandboxRefusalOf(role, call, undefined, this.env, toolset);
    return decide({
      role, call, budget, budgetLine: formatBudgetLine(budget), protectedPaths: this.protectedPaths(), ...(toolset ? { toolset } : {}),
      mcpTrust: () => readMcpTrust(this.stateDir), ...(sandboxRefusal ? { sandboxRefusal } : {}),
    });
  }

  /** The gate, decided and charged atomically across processes; events go onto the bus. */
  async authorize(call: ToolCall, origin: CallOrigin): Promise<AuthorizeResult> {
    const startedAt = Date.now();
    const { role } = this.activeRole();
    const protectedPaths = this.protectedPaths();
    const sandboxRefusal = sandboxRefusalOf(role, call, origin.sandboxed, this.env, origin.toolset);
    await this.team?.prepare();
    const result = await authorize(this.stateDir, {
      role,
      tool: call.name,
      toolInput: call.input,
      fingerprint: call.fingerprint,
      startsSubagent: call.startsSubagent,
      source: origin.source,
      ...(origin.terminalCommand ? { terminalCommand: origin.terminalCommand } : {}),
      ...(origin.agentSession ? { agentSession: origin.agentSession } : {}),
      ...(origin.announce ? { announce: true } : {}),
      // Only where a team budget applies (or the team ledger is misconfigured) is the call decided
      // there, under the lock; otherwise its charge is copied after the call, with its events.
      ...(this.teamProblem !== undefined || this.team?.decides(role.name) ? { team: (d: GateDecision) => teamDecide({ team: this.team, problem: this.teamProblem }, role.name, call, d, origin.model ?? this.opts.pricing?.().model) } : {}),
      decide: (budget, context) => decide({
        role, call, budget, budgetLine: formatBudgetLine(budget), protectedPaths, ...context,
        ...(origin.toolset ? { toolset: origin.toolset } : {}),
        mcpTrust: () => readMcpTrust(this.stateDir),
        ...(sandboxRefusal ? { sandboxRefusal } : {}),
      }),
    });
    this.publish(result.events, origin.model);
    const { decision } = result;
    const at = Date.now();
    await this.trace(() => this.tracer.decision({
      role: role.name, session: result.session, model: origin.model ?? this.opts.pricing?.().model, source: origin.source,
      tool: call.name, decision: decision.allowed ? 'allow' : 'deny', code: decision.code, reason: decision.reason, input: call.input, startedAt, at,
    }));
    return result;
  }

  /**
   * Charges a finished call's output: tokens (o200k_base) and their estimated cost as model input —
   * unless the agent's model requests are measured (`costMeasured`): the next request carries this
   * output and is charged then, so its cost is not added twice.
   */
  async chargeOutput(call: ToolCall, output: string, origin: CallOrigin & { costMeasured?: boolean }): Promise<ChargeResult> {
    const { role } = this.activeRole();
    const pricing = this.opts.pricing?.() ?? {};
    const tokens = output ? await countTokens(output) : 0;
    const price = priceFor(origin.model ?? pricing.model, pricing.overrides, pricing.fallback);
    const costUsd = origin.costMeasured ? 0 : costOf(tokens, 0, price);
    const result = await charge(this.stateDir, {
      role, tool: call.name, category: call.category, startsSubagent: call.startsSubagent, tokens, costUsd,
      estimated: !origin.costMeasured && price.estimated, source: origin.source,
      ...(origin.announce ? { announce: true } : {}),
    });
    this.publish(result.events, origin.model ?? pricing.model);
    const at = Date.now();
    await this.trace(() => this.tracer.result({
      role: role.name, session: result.session, model: origin.model ?? pricing.model, source: origin.source, tool: call.name,
      tokens: { input: tokens, output: 0, cached: 0 }, costUsd: result.charged.costUsd, estimated: price.estimated, at,
    }));
    return result;
  }

  /** A call's trace: now, or through `traceLater` (a trace never changes what was decided and charged). */
  private trace(write: () => Promise<void>): Promise<void> {
    if (!this.opts.traceLater) return write();
    this.opts.traceLater(write);
    return Promise.resolve();
  }

  /** A model's price from the table, the `alfred.prices` overrides, else the fallback (estimated). */
  priceOf(model: string | undefined): PriceQuote {
    const pricing = this.opts.pricing?.() ?? {};
    return priceFor(model, pricing.overrides, pricing.fallback);
  }

  /** Charges model requests an agent reported (measured), each once, to the cost budget and the daily spend. */
  async chargeMeasured(records: readonly ModelUsageRecord[]): Promise<MeasuredCharge | undefined> {
    if (records.length === 0) return undefined;
    const pricing = this.opts.pricing?.() ?? {};
    const result = await chargeMeasured(this.stateDir, this.activeRole().role, records, { overrides: pricing.overrides, fallback: pricing.fallback }, (model) => this.fingerprint({ model }));
    this.publish(result.events);
    return result;
  }

  /** Charges one `@alfred` model request to the cost budget and records it for the daily spend. */
  async chargeModel(usage: ModelUsage): Promise<ModelChargeResult> {
    const fingerprint = usage.fingerprint ?? this.fingerprint({ model: usage.model, endpoint: usage.vendor });
    const result = await chargeModelUsage(this.stateDir, this.activeRole().role, { ...usage, fingerprint });
    this.publish(result.events);
    return result;
  }

  /** A terminal command that already ran: charged and logged, a PolicyViolation under shell deny. */
  async observeShell(run: { command: string; exitCode: number | undefined; cwd?: string; source: string }): Promise<ObserveShellResult> {
    const result = await observeShell(this.stateDir, { role: this.activeRole().role, ...run });
    this.publish(result.events);
    return result;
  }

  /** Switches role for this workspace (a fresh budget session). Throws for an unknown role, listing those that exist. */
  async switchRole(name: string, by: string): Promise<Role> {
    const role = requireRole(this.roles(), name);
    writeRuntimeRole(this.stateDir, { role: role.name, ts: new Date().toISOString(), by });
    await this.sync();
    return role;
  }

  /** Starts a new budget session with the active role. */
  async reset(reason: string): Promise<void> {
    const { role } = this.activeRole();
    const out = await resetSession(this.stateDir, role.name, reason);
    this.publish(out.events);
  }

  /**
   * Makes the ledger follow the active role (a changed setting, environment or another process's
   * switch), logging RoleChanged when it starts a new session.
   */
  async sync(): Promise<void> {
    const { role } = this.activeRole();
    const ledger = readLedger(this.stateDir);
    if (ledger?.role === role.name) return;
    // transact() opens the new session and writes RoleChanged itself.
    this.publish(await recordEvents(this.stateDir, role.name, []));
  }

  /** Appends events of other capabilities (ConfigWritten, ShellExecution, …) to the log. */
  async record(events: Array<{ type: EventType } & Record<string, unknown>>): Promise<AlfredEvent[]> {
    const written = await recordEvents(this.stateDir, this.activeRole().role.name, events);
    this.publish(written);
    return written;
  }

  events(options: { tail?: number; types?: EventType[] } = {}): ReadResult {
    return readEvents(this.stateDir, options);
  }

  /** Onto the bus, and into the team's audit trail and budgets when there is a team ledger (not waited for). */
  private publish(events: readonly AlfredEvent[], model?: string): void {
    for (const e of events) this.bus.emit(e);
    this.team?.settle(events, model);
  }
}
