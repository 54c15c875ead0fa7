import * as vscode from 'vscode';
import type { SandboxStatus } from '../../core/sandbox/status';

/** One sentence on the shell sandbox, for the dashboard and `/doctor`. */
export function sandboxText(s: SandboxStatus): string {
  switch (s.state) {
    case 'kernel': {
      const writes = s.kind === 'bwrap'
        ? (s.mode === 'strict'
          ? vscode.l10n.t('Shell sandbox: {0}, strict. Shell commands write only the workspace and their own copies of the temporary folders and the download caches, and not the protected paths in them.', 'bubblewrap')
          : vscode.l10n.t('Shell sandbox: {0}. Shell commands write only the workspace and their own copies of the temporary folders and the download caches, and not the protected paths in them.', 'bubblewrap'))
        : s.mode === 'strict'
          ? vscode.l10n.t('Shell sandbox: {0}, strict. Shell commands write only the workspace, the temporary folders and the download caches, and not the protected paths in them.', s.kind ?? '')
          : vscode.l10n.t('Shell sandbox: {0}. Shell commands write only the workspace, the temporary folders and the download caches, and not the protected paths in them.', s.kind ?? '');
      const also = s.allowWrite?.length ? vscode.l10n.t('The role also lets them write {0}.', s.allowWrite.join(', ')) : '';
      const sockets = s.noUnixSockets ? vscode.l10n.t('They cannot open a Unix socket (X11, D-Bus, an ssh agent, Docker).') : '';
      const net = !s.network ? ''
        : s.network.kind === 'open' ? vscode.l10n.t('Their network is left as it is ({0}).', s.network.why)
          : s.network.rules.allow.length === 0 ? vscode.l10n.t('They reach no network name.')
            : vscode.l10n.t('They reach only {0}, through Alfred\'s proxy; each refused connection is logged.', s.network.rules.allow.join(', '));
      return [writes, also, sockets, net].filter((t) => t !== '').join(' ');
    }
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
