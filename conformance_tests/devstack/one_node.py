#    Licensed under the Apache License, Version 2.0 (the "License"); you may
#    not use this file except in compliance with the License. You may obtain
#    a copy of the License at
#
#         http://www.apache.org/licenses/LICENSE-2.0
#
#    Unless required by applicable law or agreed to in writing, software
#    distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
#    WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
#    License for the specific language governing permissions and limitations
#    under the License.

"""A nodeset of several nodes, played by the one node `conformance
devstack` boots.

A gate gives a multi-node job its nodes (DevStack's .zuul.yaml defines
the nodesets): DevStack runs on the controller, then on each subnode,
whose services (its group-vars) are a nova-compute and what a compute
host needs beside it; orchestrate-devstack then runs DevStack's
tools/discover_hosts.sh on the controller to map the subnodes' computes
to their cells. conformance-quota-cells is such a job: its subnode's
compute is cell2's (``NOVA_CPU_CELL: 2``), the cell its fault takes
down.

This machine boots one container (no network between two). The node
is the nodeset's controller: it is in the controller's groups and runs
the controller's DevStack. Each subnode's nova-compute is played on the
node by a second nova-compute named as the subnode, in the subnode's
cell: the node's DevStack plugin (standin_projects/conformance-node)
starts it in DevStack's extra phase with DevStack's own functions,
configured as DevStack's start_nova_compute configures a subnode's (a
copy of nova-cpu.conf whose message queue is that cell's), and waits
until nova lists it; stack.sh's own discover_hosts.sh then maps it, as
orchestrate-devstack does for a subnode. The rest of a subnode (its
dataplane agents, cinder's volume and backup services, its TLS proxy)
is not played, and said: the suite's quota tests boot servers without
a network or a volume.
"""

from conformance_tests.devstack import container

#: The subnode service the node plays.
COMPUTE = 'n-cpu'
#: localrc naming the computes the node's plugin starts: "host:cell"
#: pairs, blank-separated.
COMPUTES_VARIABLE = 'CONFORMANCE_NODE_SUBNODE_COMPUTES'


class NodesetError(Exception):
    """A nodeset this node cannot play; its text says why."""


def _groups_of(nodeset, node):
    return [group['name'] for group in nodeset.get('groups') or []
            if node in (group.get('nodes') or [])]


def node_groups(nodeset):
    """The groups of the node this machine boots: the nodeset's only
    node's, or its controller's."""
    nodes = [node['name'] for node in nodeset.get('nodes') or []]
    if len(nodes) == 1:
        return _groups_of(nodeset, nodes[0])
    if container.HOSTNAME not in nodes:
        raise NodesetError(
            'nodeset %s has %d nodes and none is named %s: this node plays '
            'the controller of a nodeset of several nodes' % (
                nodeset.get('name'), len(nodes), container.HOSTNAME))
    return _groups_of(nodeset, container.HOSTNAME)


def _subnode_vars(job, nodeset, node):
    """A subnode's variables as Ansible gives them: the job's, each of
    its groups' over them key by key (a group's devstack_localrc
    replaces the job's), then its host-vars."""
    found = dict(job.vars)
    for group in _groups_of(nodeset, node):
        found.update(job.group_vars.get(group) or {})
    found.update(job.host_vars.get(node) or {})
    return found


def subnode_computes(job, nodeset, say):
    """[(host, cell)] of the subnodes' nova-computes the node plays, each
    said with what of its subnode is not played; NodesetError for a
    subnode that runs no nova-compute."""
    computes = []
    for node in [n['name'] for n in nodeset.get('nodes') or []]:
        if node == container.HOSTNAME:
            continue
        node_vars = _subnode_vars(job, nodeset, node)
        services = node_vars.get('devstack_services') or {}
        if not services.get(COMPUTE):
            raise NodesetError(
                'nodeset %s: its node %s runs no nova-compute, and a '
                'subnode\'s nova-compute is all this node can play' % (
                    nodeset.get('name'), node))
        localrc = node_vars.get('devstack_localrc') or {}
        cell = int(localrc.get('NOVA_CPU_CELL', 1))
        others = sorted(name for name, on in services.items()
                        if on and name != COMPUTE)
        say('devstack: nodeset %s has %d nodes: this node is its %s and '
            'plays %s\'s nova-compute (host %s, cell%d, its NOVA_CPU_CELL) '
            'with the node\'s DevStack plugin; not played: %s\'s %s' % (
                nodeset.get('name'), len(nodeset['nodes']),
                container.HOSTNAME, node, node, cell, node,
                ', '.join(others) or 'nothing else'))
        computes.append((node, cell))
    return computes


def localrc(computes):
    """The localrc the node's plugin reads ({} for none)."""
    if not computes:
        return {}
    return {COMPUTES_VARIABLE: ' '.join('%s:%d' % pair for pair in computes)}
