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

"""devstack/container: the processes `down` must find on the machine."""

import os
import subprocess
import time

import testtools

from conformance_tests.devstack import container


class LeftoversTest(testtools.TestCase):

    def test_an_nsenter_into_the_node_is_found(self):
        # What a killed `devstack run` leaves: nsenter --target <node's
        # systemd> --pid ... waiting on its child (here the pid namespace
        # entered is this one's). Another target is not this node's.
        target = os.getpid()
        mine, other = (subprocess.Popen(
            ['nsenter', '--target', str(pid), '--pid', '--', 'sleep', '30'])
            for pid in (target, 1))
        for process in (mine, other):
            self.addCleanup(process.wait)
            self.addCleanup(process.kill)
        deadline = time.monotonic() + 10
        while (mine.pid not in container.entering(target)
               and time.monotonic() < deadline):
            time.sleep(0.1)
        found = container.entering(target)
        self.assertIn(mine.pid, found)
        self.assertNotIn(other.pid, found)

    def test_only_a_namespace_init_is_the_nodes_systemd(self):
        # This process is no pid namespace's first process.
        self.assertFalse(container.is_namespace_init(os.getpid()))
        self.assertFalse(container.is_namespace_init(2 ** 22 + 1))
