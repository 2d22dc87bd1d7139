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

"""The drs-hostname-contains-drs reference's pattern, without senlin: it
must change senlin's one DRS pattern to "contains drs" and nothing else."""

import re

import testtools

from conformance_tests.cloud.services.senlin import mutants


class DrsPatternTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.re = mutants._DrsPatternAsWritten(re)

    def matches(self, module, hostname):
        pattern = module.compile(mutants._DrsPatternAsWritten.UPSTREAM,
                                 re.I)
        return bool(pattern.match(hostname))

    def test_upstream_pattern_takes_a_dr_hostname(self):
        # Why the reference exists: ".*drs*" is "dr" then any "s".
        self.assertTrue(self.matches(re, 'compute-dr-1'))

    def test_contains_drs_only(self):
        for name in ('vsphere-drs-1', 'vsphere-drs-1.vendor.example',
                     'VSPHERE-DRS', 'drs'):
            self.assertTrue(self.matches(self.re, name), name)
        for name in ('compute-dr-1', 'hydra.vendor.example', 'host1'):
            self.assertFalse(self.matches(self.re, name), name)

    def test_other_patterns_and_names_untouched(self):
        self.assertEqual('a.*', self.re.compile('a.*').pattern)
        self.assertIs(re.I, self.re.I)
        self.assertIs(re.escape, self.re.escape)
