# conformance devstack: a DevStack plugin only a container node gets
# (conformance_tests/devstack/node_limits.py and one_node.py).
#
# router1: a gate node's DevStack makes its initial networks, router1
# among them; a container node has no dataplane for their external
# gateway, so it makes none (NEUTRON_CREATE_INITIAL_NETWORKS=False).
# heat's test-config attaches its subnet to router1 (the demo
# project's), so where heat runs this makes that router, and nothing
# else, in the extra phase, which runs before any plugin's test-config.
#
# A subnode's nova-compute (one_node.py): where the job's nodeset has
# subnodes, CONFORMANCE_NODE_SUBNODE_COMPUTES names each one's compute
# as "host:cell". Each is started here, in the extra phase, after
# DevStack started this node's own computes, configured as
# start_nova_compute configures a subnode's: nova-cpu.conf with the subnode's host name and message
# queue (its cell's, under the superconductor layout), and a state
# path and compute_id of its own, as DevStack gives each fake compute;
# then mapped to its cell.

# nova's hypervisor list shows a compute node only once it is mapped to
# its cell, so this maps it (nova-manage cell_v2 discover_hosts, as
# orchestrate-devstack does for a subnode once its DevStack is done)
# until nova lists it: its compute node appears in its cell's database
# a few seconds after the service starts.
function conformance_node_wait_for_hypervisor {
    local host=$1
    local deadline=$((SECONDS + NOVA_READY_TIMEOUT))
    while true; do
        "$NOVA_BIN_DIR/nova-manage" --config-file "$NOVA_CONF" \
            cell_v2 discover_hosts --verbose
        if openstack --os-cloud devstack-admin --os-region "$REGION_NAME" \
                hypervisor list -f value -c "Hypervisor Hostname" |
                grep -qx -- "$host"; then
            return 0
        fi
        if (( SECONDS >= deadline )); then
            die $LINENO "nova lists no hypervisor $host after" \
                "$NOVA_READY_TIMEOUT s (NOVA_READY_TIMEOUT)"
        fi
        sleep 2
    done
}

function conformance_node_subnode_computes {
    local pair host cell conf state_path
    if [[ "$VIRT_DRIVER" != "fake" ]]; then
        die $LINENO "a subnode's nova-compute is played only with" \
            "VIRT_DRIVER=fake (one host cannot run two of another driver)"
    fi
    for pair in $CONFORMANCE_NODE_SUBNODE_COMPUTES; do
        host=${pair%%:*}
        cell=${pair##*:}
        conf=$NOVA_CONF_DIR/nova-cpu-$host.conf
        cp "$NOVA_CPU_CONF" "$conf"
        iniset "$conf" DEFAULT host "$host"
        state_path=$NOVA_STATE_PATH/$host
        sudo mkdir -p "$state_path"
        iniset "$conf" DEFAULT state_path "$state_path"
        uuidgen | sudo tee "$state_path/compute_id" >/dev/null
        if [[ "$CELLSV2_SETUP" != "singleconductor" ]]; then
            iniset_rpc_backend nova "$conf" DEFAULT "nova_cell$cell"
        fi
        run_process "n-cpu-$host" "$NOVA_BIN_DIR/nova-compute --config-file $conf"
    done
    for pair in $CONFORMANCE_NODE_SUBNODE_COMPUTES; do
        conformance_node_wait_for_hypervisor "${pair%%:*}"
    done
}

if [[ "$1" == "stack" && "$2" == "extra" ]]; then
    if [[ -n "${CONFORMANCE_NODE_SUBNODE_COMPUTES:-}" ]]; then
        conformance_node_subnode_computes
    fi
    if is_service_enabled h-api && is_service_enabled q-svc neutron-api; then
        if ! openstack --os-cloud devstack --os-region "$REGION_NAME" \
                router show "$Q_ROUTER_NAME" >/dev/null 2>&1; then
            openstack --os-cloud devstack --os-region "$REGION_NAME" \
                router create "$Q_ROUTER_NAME"
        fi
    fi
fi

if [[ "$1" == "unstack" ]]; then
    for pair in ${CONFORMANCE_NODE_SUBNODE_COMPUTES:-}; do
        stop_process "n-cpu-${pair%%:*}"
    done
fi
