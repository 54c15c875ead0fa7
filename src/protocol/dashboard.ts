/** The dashboard webview's messages and the state snapshot it renders. */
import { command, notification, request } from './ipc';

export type SignalView = 'OK' | 'WARNING' | 'EXHAUSTED';

export interface DimensionView {
  used: number;
  limit: number;
  percent: number;
  signal: SignalView;
}

export interface BudgetView {
  role: string;
  signal: SignalView;
  /** The exact budget line, as in the status bar's tooltip. */
  line: string;
  costEstimated: boolean;
  session: string;
  dimensions: { tokens: DimensionView; shell: DimensionView; cost: DimensionView };
}

export interface RoleView {
  name: string;
  source: string;
  description: string;
  shellPolicy: string;
  inherits?: string;
}

export interface ProblemView {
  path: string;
  key: string;
  message: string;
  severity: 'error' | 'warning';
}

export interface EventView {
  id: string;
  ts: string;
  type: string;
  /** One line a person can read. */
  summary: string;
  /** The whole record, pretty-printed. */
  json: string;
}

export interface DashboardState {
  workspace: string | null;
  trusted: boolean;
  activeRole: string;
  budget: BudgetView | null;
  roles: RoleView[];
  problems: ProblemView[];
  events: EventView[];
  logPath: string | null;
}

// webview → host
export const ReadyCommand = command<void>('ready');
export const SwitchRoleCommand = command<{ role: string }>('role/switch');
export const ResetBudgetCommand = command<void>('budget/reset');
export const OpenEventLogCommand = command<void>('log/open');
export const GetStateRequest = request<void, DashboardState>('state/get');

// host → webview
export const StateNotification = notification<DashboardState>('state');
export const BudgetNotification = notification<BudgetView>('budget');
export const EventNotification = notification<EventView>('event');
