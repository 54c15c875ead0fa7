#!/bin/sh
# Written by Alfred: runs one command in the kernel sandbox Alfred planned for a workspace
# (~/.alfred/run/sandbox/<id>.args: the sandbox program and its arguments, one a line).
set -f
case "$1" in *[!0-9a-f]*|'') echo "alfred-sandbox: bad workspace id '$1'" >&2; exit 126 ;; esac
bin=$(dirname "$0")
plan="$bin/../run/sandbox/$1.args"
[ -r "$plan" ] || { echo "alfred-sandbox: no sandbox plan at $plan" >&2; exit 126; }
command=$2
set --
set +f
# The sockets of the editor's windows and of tmux and screen sessions outside, as they are now (commandServers.ts).
for s in "${XDG_RUNTIME_DIR:-/nonexistent}"/vscode-ipc-*.sock "${TMPDIR:-/tmp}"/vscode-ipc-*.sock /tmp/vscode-ipc-*.sock \
  "${TMUX_TMPDIR:-/tmp}"/tmux-*/* "${SCREENDIR:-/nonexistent}"/* /run/screen/S-*/* /var/run/screen/S-*/*; do
  { [ -S "$s" ] || [ -p "$s" ]; } && set -- "$@" --ro-bind-try /dev/null "$s"
done
set -f
IFS='
'
args=$(cat "$plan")
# A strict plan has bwrap read the seccomp filter from its descriptor: opened here (missing, the command does not run).
case "
$args
" in *"
--seccomp
9
"*) exec 9< "$bin/alfred-sandbox.bpf" ;; esac
exec $args "$@" -- "${SHELL:-/bin/sh}" -c "$command"
