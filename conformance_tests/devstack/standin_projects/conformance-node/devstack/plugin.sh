# conformance devstack: a DevStack plugin only a container node gets
# (conformance_tests/devstack/node_limits.py). A gate node's DevStack
# makes its initial networks, router1 among them; a container node has
# no dataplane for their external gateway, so it makes none
# (NEUTRON_CREATE_INITIAL_NETWORKS=False). heat's test-config attaches
# its subnet to router1 (the demo project's), so this makes that router,
# and nothing else, in the extra phase, which runs before any plugin's
# test-config.
if [[ "$1" == "stack" && "$2" == "extra" ]]; then
    if is_service_enabled q-svc neutron-api; then
        if ! openstack --os-cloud devstack --os-region "$REGION_NAME" \
                router show "$Q_ROUTER_NAME" >/dev/null 2>&1; then
            openstack --os-cloud devstack --os-region "$REGION_NAME" \
                router create "$Q_ROUTER_NAME"
        fi
    fi
fi
