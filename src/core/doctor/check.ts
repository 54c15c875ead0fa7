/** One line of `alfred doctor` and of the dashboard's checks. */

export type CheckState = 'ok' | 'warn' | 'fail';

export interface DoctorCheck {
  /** What is checked: a provider's name, or `roles`, `governance: Copilot`, `hook server`, `sandbox`, `state folder`. */
  name: string;
  state: CheckState;
  detail: string;
  /** Round trip of a provider's probe. */
  ms?: number;
}
