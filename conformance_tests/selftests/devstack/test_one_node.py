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

"""devstack/one_node.py and the node's plugin: a two-node nodeset played
by one node, its subnode's nova-compute started in the subnode's cell."""

import os
import subprocess
import types

import fixtures
import testtools

from conformance_tests.devstack import deploy
from conformance_tests.devstack import node_limits
from conformance_tests.devstack import one_node
from conformance_tests.devstack import sources

# DevStack's openstack-two-node-jammy.
TWO_NODES = {
    'name': 'openstack-two-node-jammy',
    'nodes': [{'name': 'controller'}, {'name': 'compute1'}],
    'groups': [{'name': 'tempest', 'nodes': ['controller']},
               {'name': 'compute', 'nodes': ['controller', 'compute1']},
               {'name': 'subnode', 'nodes': ['compute1']},
               {'name': 'switch', 'nodes': ['controller']},
               {'name': 'peers', 'nodes': ['compute1']}]}
SUBNODE_SERVICES = {'n-cpu': True, 'placement-client': True, 'c-vol': True,
                    'tempest': False}


def _job(subnode_services=None, cell=2):
    localrc = {'NOVA_CPU_CELL': cell} if cell else {}
    return types.SimpleNamespace(
        vars={'devstack_localrc': {'NOVA_NUM_CELLS': 2},
              'devstack_services': {'n-cpu': True, 'n-api': True}},
        group_vars={'subnode': {
            'devstack_localrc': localrc,
            'devstack_services': (SUBNODE_SERVICES if subnode_services is None
                                  else subnode_services)}},
        host_vars={})


class NodeGroupsTest(testtools.TestCase):

    def test_one_node_gives_its_groups(self):
        self.assertEqual(['tempest'], one_node.node_groups(
            {'name': 'n', 'nodes': [{'name': 'controller'}],
             'groups': [{'name': 'tempest', 'nodes': ['controller']}]}))

    def test_the_node_of_two_is_the_controller(self):
        self.assertEqual(['tempest', 'compute', 'switch'],
                         one_node.node_groups(TWO_NODES))

    def test_several_nodes_without_a_controller_are_refused(self):
        e = self.assertRaises(one_node.NodesetError, one_node.node_groups,
                              {'name': 'two', 'nodes': [{'name': 'a'},
                                                        {'name': 'b'}]})
        self.assertIn('nodeset two has 2 nodes and none is named '
                      'controller', str(e))

    def test_a_nodeset_is_read_from_devstacks_zuul_yaml(self):
        root = self.useFixture(fixtures.TempDir()).path
        with open(os.path.join(root, '.zuul.yaml'), 'w') as f:
            f.write('- nodeset:\n    name: two\n    nodes:\n'
                    '      - name: controller\n')
        self.assertEqual('two', deploy.find_nodeset('two', root)['name'])
        e = self.assertRaises(deploy.DevStackError, deploy.find_nodeset,
                              'three', root)
        self.assertIn('nodeset three is not in DevStack\'s .zuul.yaml',
                      str(e))


class SubnodeComputesTest(testtools.TestCase):

    def test_the_subnodes_compute_in_its_cell_said_with_what_is_not_played(
            self):
        said = []
        self.assertEqual([('compute1', 2)], one_node.subnode_computes(
            _job(), TWO_NODES, said.append))
        self.assertEqual(1, len(said))
        self.assertIn('this node is its controller and plays compute1\'s '
                      'nova-compute (host compute1, cell2', said[0])
        self.assertIn('not played: compute1\'s c-vol, placement-client',
                      said[0])
        self.assertEqual(
            {one_node.COMPUTES_VARIABLE: 'compute1:2'},
            one_node.localrc([('compute1', 2)]))

    def test_cell1_without_nova_cpu_cell(self):
        self.assertEqual([('compute1', 1)], one_node.subnode_computes(
            _job(cell=None), TWO_NODES, lambda line: None))

    def test_a_subnode_without_a_compute_is_refused(self):
        e = self.assertRaises(
            one_node.NodesetError, one_node.subnode_computes,
            _job(subnode_services={'c-vol': True}), TWO_NODES,
            lambda line: None)
        self.assertIn('its node compute1 runs no nova-compute', str(e))

    def test_one_node_plays_nothing_more(self):
        said = []
        self.assertEqual([], one_node.subnode_computes(
            _job(), {'name': 'one', 'nodes': [{'name': 'controller'}]},
            said.append))
        self.assertEqual(({}, []), (one_node.localrc([]), said))


#: DevStack's functions the plugin calls, as stubs that log their calls.
STUBS = r'''
log() { echo "$*" >> "$CALLS"; }
iniset() { log iniset "$@"; }
iniset_rpc_backend() { log iniset_rpc_backend "$@"; }
run_process() { log run_process "$@"; }
stop_process() { log stop_process "$@"; }
is_service_enabled() { return 1; }
sudo() { "$@"; }
uuidgen() { echo 0000-uuid; }
cp() { log cp "$@"; }
die() { shift; echo "die: $*" >&2; exit 1; }
openstack() { printf 'controller1\n%s\n' "$LISTED"; }
'''


class PluginTest(testtools.TestCase):
    """The plugin's subnode part, run by bash with DevStack's functions
    stubbed: what it asks DevStack to do."""

    def run_plugin(self, phase, virt_driver='fake', listed='compute1',
                   computes='compute1:2', cellsv2='superconductor'):
        tmp = self.useFixture(fixtures.TempDir()).path
        calls = os.path.join(tmp, 'calls')
        open(calls, 'w').close()
        plugin = os.path.join(
            sources.STANDIN_PROJECTS[node_limits.NODE_PLUGIN], 'devstack',
            'plugin.sh')
        script = STUBS + 'source %s %s\n' % (plugin, phase)
        bin_dir = os.path.join(tmp, 'bin')
        os.mkdir(bin_dir)
        with open(os.path.join(bin_dir, 'nova-manage'), 'w') as f:
            f.write('#!/bin/sh\necho nova-manage "$@" >> "$CALLS"\n')
        os.chmod(os.path.join(bin_dir, 'nova-manage'), 0o700)
        env = dict(os.environ, CALLS=calls, LISTED=listed,
                   VIRT_DRIVER=virt_driver, NOVA_CONF_DIR='/etc/nova',
                   NOVA_CONF='/etc/nova/nova.conf',
                   NOVA_CPU_CONF='/etc/nova/nova-cpu.conf',
                   NOVA_STATE_PATH=os.path.join(tmp, 'state'),
                   NOVA_BIN_DIR=bin_dir, CELLSV2_SETUP=cellsv2,
                   NOVA_READY_TIMEOUT='2', REGION_NAME='RegionOne',
                   CONFORMANCE_NODE_SUBNODE_COMPUTES=computes)
        done = subprocess.run(['bash', '-c', script], env=env,
                              capture_output=True, text=True, timeout=60)
        with open(calls) as f:
            return done, f.read().splitlines(), tmp

    def test_the_compute_starts_in_its_cell_with_its_own_state(self):
        done, calls, tmp = self.run_plugin('stack extra')
        self.assertEqual(0, done.returncode, done.stderr)
        conf = '/etc/nova/nova-cpu-compute1.conf'
        state = os.path.join(tmp, 'state', 'compute1')
        self.assertEqual([
            'cp /etc/nova/nova-cpu.conf %s' % conf,
            'iniset %s DEFAULT host compute1' % conf,
            'iniset %s DEFAULT state_path %s' % (conf, state),
            'iniset_rpc_backend nova %s DEFAULT nova_cell2' % conf,
            'run_process n-cpu-compute1 %s/bin/nova-compute '
            '--config-file %s' % (tmp, conf),
            # mapped to its cell, then listed by nova
            'nova-manage --config-file /etc/nova/nova.conf cell_v2 '
            'discover_hosts --verbose'], calls)
        with open(os.path.join(state, 'compute_id')) as f:
            self.assertEqual('0000-uuid\n', f.read())

    def test_one_conductor_keeps_the_message_queue(self):
        done, calls, _ = self.run_plugin('stack extra',
                                         cellsv2='singleconductor')
        self.assertEqual(0, done.returncode, done.stderr)
        self.assertFalse([c for c in calls if 'iniset_rpc_backend' in c])

    def test_a_compute_nova_never_lists_stops_stack_sh(self):
        done, calls, _ = self.run_plugin('stack extra', listed='compute11')
        self.assertEqual(1, done.returncode)
        self.assertLess(1, len([c for c in calls if 'discover_hosts' in c]),
                        'discovered again until the deadline')
        self.assertIn('nova lists no hypervisor compute1 after 2 s '
                      '(NOVA_READY_TIMEOUT)', done.stderr)

    def test_another_driver_is_refused(self):
        done, calls, _ = self.run_plugin('stack extra',
                                         virt_driver='libvirt')
        self.assertEqual(1, done.returncode)
        self.assertIn('only with VIRT_DRIVER=fake', done.stderr)
        self.assertEqual([], calls)

    def test_nothing_without_subnodes_and_unstack_stops_each(self):
        done, calls, _ = self.run_plugin('stack extra', computes='')
        self.assertEqual((0, []), (done.returncode, calls))
        done, calls, _ = self.run_plugin('unstack')
        self.assertEqual((0, ['stop_process n-cpu-compute1']),
                         (done.returncode, calls))
