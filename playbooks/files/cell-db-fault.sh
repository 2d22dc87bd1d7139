#!/bin/bash
# Make a nova cell's database unreachable and reachable again, the way an
# operator's database outage looks to nova: connection refused. Used by
# the conformance suite through [conformance] fault_cell_down_command /
# fault_cell_up_command:
#
#   cell-db-fault.sh down cell2      cell-db-fault.sh up cell2
#
# conformance-cells-setup.yaml pointed the cell's database connection (its
# cell mapping and the cell conductor's nova.conf) at a forwarder
# (cell_db_forwarder.py, next to this script) and described it in
# <dir>/<cell>.forward as "LISTEN_HOST LISTEN_PORT TARGET_HOST TARGET_PORT".
# "down" stops the forwarder: nova's open connections to the cell's
# database are reset and new ones are refused. "up" starts it again.
# Both are idempotent. Nothing on the database server changes, so no
# database credentials are needed here.
#
# <dir> is this script's directory, or $CELL_DB_FAULT_DIR when set (the
# proof on a local MariaDB uses that; sudo clears it).
set -euo pipefail

usage() {
    echo "usage: $0 down|up CELL" >&2
    exit 2
}
[[ $# -eq 2 ]] || usage
action=$1
cell=$2
[[ $action == down || $action == up ]] || usage
# The cell name becomes part of file names: letters, digits, _ and - only.
if [[ ! $cell =~ ^[A-Za-z0-9_-]+$ ]]; then
    echo "$0: cell name '$cell' may hold only letters, digits, _ and -" >&2
    exit 2
fi

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${CELL_DB_FAULT_DIR:-$here}
spec=$dir/$cell.forward
pidfile=$dir/$cell.pid
log=$dir/$cell.log
forwarder=$here/cell_db_forwarder.py

if [[ ! -r $spec ]]; then
    echo "$0: $spec is missing: write 'LISTEN_HOST LISTEN_PORT" \
         "TARGET_HOST TARGET_PORT' there (conformance-cells-setup.yaml" \
         "does) before taking cell $cell down or up" >&2
    exit 1
fi
read -r listen_host listen_port target_host target_port _ < "$spec"
if [[ ! $listen_port =~ ^[0-9]+$ || ! $target_port =~ ^[0-9]+$ ]]; then
    echo "$0: $spec must read 'LISTEN_HOST LISTEN_PORT TARGET_HOST" \
         "TARGET_PORT'" >&2
    exit 1
fi

# The forwarder's pid, if it runs: the pid file must name a live process
# that is this cell's forwarder (a recycled pid is never signalled).
forwarder_pid() {
    local pid
    [[ -r $pidfile ]] || return 1
    pid=$(<"$pidfile")
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null |
        grep -qF -- "cell_db_forwarder.py --pidfile $pidfile " || return 1
    echo "$pid"
}

# Polling for a state change the command itself causes; 10 s is a bound
# on a local process starting or exiting, not an assertion about nova.
wait_until() {
    local i
    for i in $(seq 100); do
        if "$@"; then
            return 0
        fi
        sleep 0.1
    done
    return 1
}

gone() { ! kill -0 "$1" 2>/dev/null; }

case $action in
    down)
        if pid=$(forwarder_pid); then
            kill -TERM "$pid"
            if ! wait_until gone "$pid"; then
                kill -KILL "$pid" 2>/dev/null || true
                wait_until gone "$pid" || {
                    echo "$0: forwarder $pid of cell $cell does not exit" >&2
                    exit 1
                }
            fi
        fi
        rm -f "$pidfile"
        ;;
    up)
        if forwarder_pid >/dev/null; then
            exit 0
        fi
        rm -f "$pidfile"
        # Its own session, so it outlives the caller (a Tempest worker, an
        # Ansible task); the pid file appears once the port listens.
        setsid python3 "$forwarder" --pidfile "$pidfile" \
            "$listen_host" "$listen_port" "$target_host" "$target_port" \
            < /dev/null >> "$log" 2>&1 &
        if ! wait_until forwarder_pid > /dev/null; then
            echo "$0: the forwarder of cell $cell did not start:" \
                 "$(tail -n 1 "$log" 2>/dev/null)" >&2
            exit 1
        fi
        ;;
esac
