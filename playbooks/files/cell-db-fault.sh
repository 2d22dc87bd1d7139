#!/bin/bash
# Take a nova cell's database away from nova and give it back, as an
# operator's database outage looks to nova. Used by the conformance suite
# through [conformance] fault_cell_down_command / fault_cell_up_command:
#
#   cell-db-fault.sh down cell2      cell-db-fault.sh up cell2
#
# conformance-cells-pre.yaml gave the cell its own MySQL account; "down"
# locks that account and kills its connections (new connections are then
# refused), "up" unlocks it. Nothing else on the database server changes.
set -euo pipefail
action=${1:?usage: $0 down|up CELL}
cell=${2:?usage: $0 down|up CELL}
account="conformance_${cell//[^A-Za-z0-9]/_}"
mysql_root=(mysql -uroot -p"${MYSQL_ROOT_PASSWORD:-secretmysql}" -h "${DATABASE_HOST:-127.0.0.1}")

case "$action" in
  down)
    "${mysql_root[@]}" -e "ALTER USER '${account}'@'%' ACCOUNT LOCK;"
    for id in $("${mysql_root[@]}" -N -e \
        "SELECT id FROM information_schema.processlist WHERE user='${account}'"); do
      "${mysql_root[@]}" -e "KILL ${id};" || true
    done
    ;;
  up)
    "${mysql_root[@]}" -e "ALTER USER '${account}'@'%' ACCOUNT UNLOCK;"
    ;;
  *)
    echo "usage: $0 down|up CELL" >&2
    exit 2
    ;;
esac
