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

"""api/clustering: what seed 002 asks of admin. Only the DRS extension
needs it by the seed ("retrieving hypervisor list is an admin-only
API"); every other test runs as a project member, reading a server's
host as its hostId. No cloud."""

import inspect

import testtools

from conformance_tests.api.clustering import base
from conformance_tests.api.clustering import test_affinity_cli
from conformance_tests.api.clustering import test_affinity_groups
from conformance_tests.api.clustering import test_affinity_placement
from conformance_tests.api.clustering import test_affinity_spec
from conformance_tests.common import skips

MODULES = (test_affinity_cli, test_affinity_groups, test_affinity_placement,
           test_affinity_spec)
DRS_TESTS = {'test_drs_zone', 'test_drs_zone_with_availability_zone',
             'test_drs_without_a_drs_hypervisor'}


def _tests():
    for module in MODULES:
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, base.AffinityPolicyTest):
                for name, method in inspect.getmembers(cls):
                    if name.startswith('test_'):
                        yield cls, name


class _Case(object):
    def __init__(self, cls, name):
        self._testMethodName = name
        self._cls = cls

    def __getattr__(self, name):
        return getattr(self._cls, name)


class MemberModeTest(testtools.TestCase):

    def test_only_drs_needs_admin(self):
        seen = set()
        for cls, name in _tests():
            seen.add(name)
            reason = skips.admin_only_reason(_Case(cls, name), False)
            if name in DRS_TESTS:
                self.assertIn('GET /os-hypervisors', reason or '', name)
            else:
                self.assertIsNone(reason, name)
            self.assertIsNone(skips.admin_only_reason(_Case(cls, name),
                                                      True), name)
        self.assertTrue(DRS_TESTS <= seen, seen)

    def test_host_of(self):
        server = {'OS-EXT-SRV-ATTR:host': 'host1', 'hostId': 'h4sh'}
        test = base.AffinityPolicyTest.__new__(base.AffinityPolicyTest)
        test.has_admin = True
        self.assertEqual('host1', test.host_of(server))
        test.has_admin = False
        self.assertEqual('h4sh', test.host_of({'hostId': 'h4sh'}))
