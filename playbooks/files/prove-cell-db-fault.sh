#!/bin/bash
# Prove cell-db-fault.sh on a real MariaDB, without DevStack:
#
#   playbooks/files/prove-cell-db-fault.sh
#
# Needs mariadbd, mariadb-install-db and the mysql client (Debian:
# apt-get install mariadb-server) and python3. Starts a throwaway MariaDB
# on a free loopback port (its own datadir and socket in a temporary
# directory), makes a database and an account with a random password,
# puts the forwarder in front of it the way conformance-cells-setup.yaml
# does for nova's cell, and checks through the forwarder's port:
#   1. a query works while the cell is up;
#   2. "down" cuts a connection that is in the middle of a query;
#   3. after "down" a new connection fails with client error 2002/2003
#      because the TCP connect is refused, while the database itself
#      still answers on its own port;
#   4. "down" and "up" are idempotent;
#   5. after "up" a query works again.
# Stops MariaDB and removes everything it made on exit. Exit 0 only when
# every check passed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fault=$here/cell-db-fault.sh
cell=proofcell

for tool in mariadbd mariadb-install-db mysql mariadb-admin python3; do
    if ! command -v "$tool" > /dev/null; then
        echo "prove-cell-db-fault: $tool not found: install MariaDB" \
             "(Debian: apt-get install -y mariadb-server)" >&2
        exit 2
    fi
done

work=$(mktemp -d -t cell-db-fault-proof.XXXXXX)
db_pid=
cleanup() {
    CELL_DB_FAULT_DIR=$work "$fault" down "$cell" > /dev/null 2>&1 || true
    if [[ -n $db_pid ]]; then
        mariadb-admin --socket="$work/mysqld.sock" -uroot shutdown \
            > /dev/null 2>&1 || kill "$db_pid" 2>/dev/null || true
        wait "$db_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
db_port=$(free_port)
fwd_port=$(free_port)
while [[ $fwd_port == "$db_port" ]]; do fwd_port=$(free_port); done

passed=0
pass() {
    passed=$((passed + 1))
    echo "PASS $passed: $*"
}
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# --- a MariaDB of our own -------------------------------------------------
run_as=()
if [[ $(id -u) == 0 ]]; then
    run_as=(--user=root)
fi
mariadb-install-db --no-defaults "${run_as[@]}" --datadir="$work/data" \
    --auth-root-authentication-method=socket > "$work/install.log" 2>&1 ||
    fail "mariadb-install-db: $(tail -n 1 "$work/install.log")"
mariadbd --no-defaults "${run_as[@]}" --datadir="$work/data" \
    --socket="$work/mysqld.sock" --port="$db_port" \
    --bind-address=127.0.0.1 --pid-file="$work/mysqld.pid" \
    --skip-log-bin > "$work/mysqld.log" 2>&1 &
db_pid=$!
for _ in $(seq 300); do
    mariadb-admin --socket="$work/mysqld.sock" -uroot ping \
        > /dev/null 2>&1 && break
    kill -0 "$db_pid" 2>/dev/null ||
        fail "mariadbd exited: $(tail -n 1 "$work/mysqld.log")"
    sleep 0.1
done
mariadb-admin --socket="$work/mysqld.sock" -uroot ping > /dev/null 2>&1 ||
    fail "mariadbd did not answer on $work/mysqld.sock"
echo "MariaDB $(mysql --socket="$work/mysqld.sock" -uroot -N -e \
    'SELECT VERSION()') on 127.0.0.1:$db_port (pid $db_pid)"

# The account's password is made here and passed in MYSQL_PWD, never on
# a command line or in the output.
MYSQL_PWD=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
export MYSQL_PWD
mysql --socket="$work/mysqld.sock" -uroot -e "
    CREATE DATABASE nova_$cell;
    CREATE USER 'nova'@'127.0.0.1' IDENTIFIED BY '$MYSQL_PWD';
    GRANT ALL ON nova_$cell.* TO 'nova'@'127.0.0.1';
    CREATE TABLE nova_$cell.instances (id INT PRIMARY KEY);
    INSERT INTO nova_$cell.instances VALUES (1), (2), (3);"

# --- the forwarder in front of it, as on DevStack ---------------------------
echo "127.0.0.1 $fwd_port 127.0.0.1 $db_port" > "$work/$cell.forward"
export CELL_DB_FAULT_DIR=$work
# Run the fault script the way the suite does (faults.ShellCommands:
# subprocess.run, shell=True, output captured): it must return even though
# "up" leaves a forwarder running behind it.
fault() {  # fault down|up
    python3 - "$fault" "$1" "$cell" <<'PY'
import subprocess
import sys
script, action, cell = sys.argv[1:]
try:
    done = subprocess.run('%s %s %s' % (script, action, cell), shell=True,
                          capture_output=True, text=True, timeout=60)
except subprocess.TimeoutExpired:
    sys.exit('%s %s did not return (does a child hold its output?)'
             % (script, action))
sys.stderr.write(done.stderr)
sys.exit(done.returncode)
PY
}
query() {  # query PORT SQL: through the given port, as nova's account
    mysql -h127.0.0.1 -P"$1" -unova --connect-timeout=10 -N -e "$2" \
        "nova_$cell" 2>&1
}

fault up
out=$(query "$fwd_port" 'SELECT COUNT(*) FROM instances') ||
    fail "query through the forwarder while up: $out"
[[ $out == 3 ]] || fail "query through the forwarder answered '$out'"
pass "cell up: a query through the forwarder (port $fwd_port) answers $out"

# A connection in the middle of a long query when the cell goes down.
# If "down" did not cut it, the client would finish the query and exit 0.
query "$fwd_port" 'SELECT SLEEP(120)' > "$work/long.out" 2>&1 &
long_pid=$!
for _ in $(seq 100); do
    busy=$(mysql --socket="$work/mysqld.sock" -uroot -N -e \
        "SELECT COUNT(*) FROM information_schema.processlist
         WHERE user = 'nova' AND info LIKE 'SELECT SLEEP%'")
    [[ $busy -ge 1 ]] && break
    sleep 0.1
done
[[ $busy -ge 1 ]] || fail "the long query never reached the database"
fault down
long_rc=0
wait "$long_pid" || long_rc=$?
long_out=$(cat "$work/long.out")
[[ $long_rc != 0 ]] ||
    fail "the open connection survived 'down': $long_out"
[[ $long_out == *2013* || $long_out == *2006* ]] ||
    fail "the open connection ended otherwise than lost: $long_out"
grep -q "resetting 1 open connection" "$work/$cell.log" ||
    fail "the forwarder did not report resetting the open connection"
pass "cell down: the open connection was cut (client exit $long_rc:" \
     "$(grep ERROR <<< "$long_out"))"

out=$(query "$fwd_port" 'SELECT 1') &&
    fail "a new connection through the forwarder worked while down"
[[ $out == *"ERROR 2002"* || $out == *"ERROR 2003"* ]] ||
    fail "expected client error 2002/2003 while down, got: $out"
# MariaDB's client prints the errno of its non-blocking connect (115)
# whatever the outcome: ask the kernel directly what a connect gets.
tcp=$(python3 -c 'import socket, sys
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), 10).close()
    print("connected")
except OSError as e:
    print(e.strerror)' "$fwd_port")
[[ $tcp == "Connection refused" ]] ||
    fail "expected a TCP connect to $fwd_port to be refused, got: $tcp"
direct=$(query "$db_port" 'SELECT COUNT(*) FROM instances') ||
    fail "the database itself stopped answering: $direct"
pass "cell down: a new connection fails ($out; TCP connect: $tcp);" \
     "the database itself still answers on $db_port ($direct rows)"

fault down
out=$(query "$fwd_port" 'SELECT 1') && fail "second 'down' brought it back"
fault up
fault up
pids=$(pgrep -f "cell_db_forwarder.py --pidfile $work/$cell.pid" | wc -l)
[[ $pids == 1 ]] || fail "two 'up' left $pids forwarders"
pass "down twice stays down; up twice runs one forwarder"

out=$(query "$fwd_port" 'SELECT COUNT(*) FROM instances') ||
    fail "query through the forwarder after up: $out"
[[ $out == 3 ]] || fail "query after up answered '$out'"
pass "cell up again: a query through the forwarder answers $out"

echo "cell-db-fault proof: $passed checks passed"
