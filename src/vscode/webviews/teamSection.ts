/**
 * The dashboard's team budgets: the active role's team budgets and the team's latest refusals,
 * whichever machine made them, read from the team ledger. Another window's refusal reaches no event
 * of this one, so the tracker asks the database (every few seconds while the view lives, and after
 * this window's own events) and redraws the section when the answer changed.
 */
import type { AlfredEvent } from '../../core/base/events/types';
import type { Harness } from '../../core/harness/harness';
import type { TeamView } from '../../protocol/dashboard';

const REFUSALS = 5;
const POLL_MS = 3000;

export class TeamTracker {
  private view: TeamView | null = null;
  private sent = 'null';
  private polling: Promise<void> | undefined;

  /** `summarize`: one readable line of an event (the feed's, localized). */
  constructor(private readonly summarize: (e: AlfredEvent) => string, private readonly onChange: () => void) {}

  current(): TeamView | null {
    return this.view;
  }

  /** Asks the team ledger now (one question at a time); `onChange` when the view differs. */
  poll(harness: Harness | undefined): Promise<void> {
    this.polling ??= this.ask(harness).finally(() => (this.polling = undefined));
    return this.polling;
  }

  private async ask(harness: Harness | undefined): Promise<void> {
    const team = harness?.team;
    let view: TeamView | null = null;
    if (harness && team) {
      try {
        const [budgets, refusals] = await Promise.all([team.statuses(harness.activeRole().role.name), team.refusals(REFUSALS)]);
        view = {
          team: team.team, error: null,
          budgets: budgets.map((b) => ({ name: b.name, period: b.period, signal: b.signal, line: b.line })),
          refusals: refusals.map((r) => ({ id: r.id, ts: r.ts, user: r.user, machine: r.machine, summary: this.summarize(r.event) })),
        };
      } catch (err) {
        view = { team: team.team, budgets: [], refusals: this.view?.refusals ?? [], error: (err as Error).message };
      }
    }
    const key = JSON.stringify(view);
    this.view = view;
    if (key === this.sent) return;
    this.sent = key;
    this.onChange();
  }

  /** Polls while the returned stop function is not called. */
  watch(harness: () => Harness | undefined, everyMs = POLL_MS): () => void {
    void this.poll(harness());
    const timer = setInterval(() => void this.poll(harness()), everyMs);
    return () => clearInterval(timer);
  }
}
