/** Budget periods: each resets on a UTC boundary (a day at 00:00, a week on Monday, a month on the 1st). */

export type Period = 'day' | 'week' | 'month';
export const PERIODS: readonly Period[] = ['day', 'week', 'month'];

/** When the period holding `at` began, in UTC. */
export function periodStart(period: Period, at: Date): Date {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const d = at.getUTCDate();
  if (period === 'month') return new Date(Date.UTC(y, m, 1));
  if (period === 'day') return new Date(Date.UTC(y, m, d));
  // getUTCDay: Sunday 0 … Saturday 6; ISO weeks start on Monday.
  const sinceMonday = (at.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(y, m, d - sinceMonday));
}
