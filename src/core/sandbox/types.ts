/** The kernel sandbox a machine offers: found by detect.ts, used by wrap.ts to build a command line. */

export type Sandbox = { kind: 'bwrap' | 'sandbox-exec'; path: string } | { kind: 'none'; why: string };
export type AvailableSandbox = Extract<Sandbox, { path: string }>;
