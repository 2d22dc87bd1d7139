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

"""report/scope.py: a scope's tests as Tempest's load-list."""

import fixtures
import testtools

from conformance_tests.report import scope
from conformance_tests.runner import tempest_runner


class LoadListTest(testtools.TestCase):

    def test_every_test_of_the_seed_by_tempests_own_name(self):
        # Tempest's real listing (a Tempest start, a few seconds).
        chosen = scope.Scope(['003'])
        names = chosen.load_list()
        self.assertEqual(len(chosen.test_ids), len(names))
        for test_id in chosen.test_ids:
            self.assertEqual(1, sum('id-%s' % test_id in n for n in names),
                             test_id)
        for name in names:
            self.assertTrue(name.startswith('conformance_tests.'), name)
            self.assertTrue(name.endswith(']'), name)

    def test_a_test_tempest_does_not_list_is_an_error(self):
        chosen = scope.Scope(['003'])
        listed = ['conformance_tests.api.a.T.test_x[id-%s]' % t
                  for t in chosen.test_ids[1:]]
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.runner.tempest_runner.list_tests',
            lambda workspace, regex: listed))
        error = self.assertRaises(scope.ScopeError, chosen.load_list)
        self.assertIn('Tempest lists no test with id %s' %
                      chosen.test_ids[0], str(error))

    def test_a_listing_failure_is_one_line(self):
        def fails(workspace, regex):
            raise tempest_runner.RunError('`tempest run --list-tests` '
                                          'failed in w: ImportError: x')
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.runner.tempest_runner.list_tests', fails))
        error = self.assertRaises(scope.ScopeError,
                                  scope.Scope(['003']).load_list)
        self.assertEqual(1, len(str(error).splitlines()))
