import * as vscode from 'vscode';
import type { SandboxStatus } from '../../core/sandbox/status';

/** One sentence on the shell sandbox, for the dashboard and `/doctor`. */
export function sandboxText(s: SandboxStatus): string {
  switch (s.state) {
    case 'kernel':
      if (s.mode === 'strict' && s.kind === 'bwrap') {
        const writes = vscode.l10n.t('Shell sandbox: {0}, strict. Shell commands write only the workspace and their own copies of the temporary folders and the download caches, and not the protected paths in them.', 'bubblewrap');
        return s.noUnixSockets ? `${writes} ${vscode.l10n.t('They cannot open a Unix socket (X11, D-Bus, an ssh agent, Docker).')}` : writes;
      }
      return s.mode === 'strict'
        ? vscode.l10n.t('Shell sandbox: {0}, strict. Shell commands write only the workspace, the temporary folders and the download caches, and not the protected paths in them.', s.kind ?? '')
        : vscode.l10n.t('Shell sandbox: {0}. Shell commands run with protected paths, governance files and Alfred\'s home read-only.', s.kind === 'bwrap' ? 'bubblewrap' : s.kind ?? '');
    case 'parsing':
      return vscode.l10n.t('Shell sandbox: none here ({0}). Role {1} has sandbox = "auto": protected paths are guarded by best-effort parsing only.', s.why ?? '', s.role);
    case 'refused':
      // There is a sandbox (kind) that cannot do what the role asks, or none at all.
      return s.kind
        ? vscode.l10n.t('Shell sandbox: not usable here ({0}). Role {1} has sandbox = "{2}": shell calls are refused.', s.why ?? '', s.role, s.mode)
        : vscode.l10n.t('Shell sandbox: none here ({0}). Role {1} has sandbox = "{2}": shell calls are refused.', s.why ?? '', s.role, s.mode);
    case 'off':
      return vscode.l10n.t('Shell sandbox: off for role {0} (sandbox = "off"): protected paths are guarded by best-effort parsing only.', s.role);
  }
}
