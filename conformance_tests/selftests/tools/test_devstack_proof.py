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

"""tools/devstack_proof: what it counts as left of a node."""

import json
import os
import subprocess

import fixtures
import testtools

from conformance_tests.devstack import deploy
from conformance_tests.tools import devstack_proof


class LeftTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.workdir = self.useFixture(fixtures.TempDir()).path

    def test_nothing_left_of_a_node_that_is_down(self):
        gone = subprocess.Popen(['true'])
        gone.wait()
        self.assertEqual([], devstack_proof.left(
            self.workdir, None, {'nspawn': gone.pid, 'proxy': gone.pid}))

    def test_a_live_process_and_a_state_file_are_left(self):
        sleeper = subprocess.Popen(['sleep', '30'])
        self.addCleanup(sleeper.wait)
        self.addCleanup(sleeper.kill)
        with open(deploy.state_path(self.workdir), 'w') as f:
            json.dump({'job': 'j'}, f)
        problems = devstack_proof.left(self.workdir, None,
                                       {'proxy': sleeper.pid})
        self.assertEqual(2, len(problems), problems)
        self.assertIn('the proxy (pid %d) still runs' % sleeper.pid,
                      problems[0])
        self.assertIn('a state file is left', problems[1])

    def test_processes_of_a_namespace_are_found(self):
        # Our own pid namespace holds at least this process.
        namespace = devstack_proof._namespace(os.getpid())
        self.assertIn(os.getpid(), devstack_proof.in_namespace(namespace))
        self.assertIn('processes left in the node',
                      devstack_proof.left(self.workdir, namespace, {})[0])

    def test_the_node_namespace_is_held_by_its_number(self):
        # Held open, the number stays the node's: the kernel gives it to
        # no other container until the proof has looked.
        namespace, fd = devstack_proof._hold_namespace(os.getpid())
        self.addCleanup(os.close, fd)
        self.assertEqual(devstack_proof._namespace(os.getpid()), namespace)
        self.assertEqual((None, None),
                         devstack_proof._hold_namespace(2 ** 22 + 1))
