/** Which workspaces' MCP audits are running now (by state folder), for the dashboard's "Auditing…". */
const running = new Set<string>();

export function isAuditRunning(stateDir: string): boolean {
  return running.has(stateDir);
}

export function setAuditRunning(stateDir: string, on: boolean): void {
  if (on) running.add(stateDir);
  else running.delete(stateDir);
}
