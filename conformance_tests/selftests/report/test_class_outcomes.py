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

"""report/class_outcomes.py: a plain `tempest run`'s class-level skip is
given to the tests of its class, found in Tempest's listing of the
plugin when the stream brings no list of its own; a test no class
outcome covers stays one that did not run."""

import os

import fixtures
import testtools

from conformance_tests.report import class_outcomes

T1 = 'aaaaaaaa-0000-4000-8000-000000000001'
T2 = 'aaaaaaaa-0000-4000-8000-000000000002'
T3 = 'aaaaaaaa-0000-4000-8000-000000000003'
UNCLAIMED = 'aaaaaaaa-0000-4000-8000-00000000ffff'
SKIPPED = 'conformance_tests.scenario.test_x.LeaseTest'
NO_BLAZAR = ('blazar is not available: set [service_available] blazar = '
             'true to run the seed-004 tests')
CAPS = [{'id': 'x.one', 'tests': [T1, T2]}, {'id': 'x.two', 'tests': [T3]}]
LISTED = [
    '%s.test_a[id-%s]' % (SKIPPED, T1),
    '%s.test_b[id-%s,slow]' % (SKIPPED, T2),
    '%s.test_unclaimed[id-%s]' % (SKIPPED, UNCLAIMED),
    'conformance_tests.scenario.test_x.OtherTest.test_c[id-%s]' % T3,
]


def class_skip(owner=SKIPPED, message=NO_BLAZAR):
    name = 'setUpClass (%s)' % owner
    return {name: {'name': name, 'status': 'skip', 'kind': None,
                   'message': message, 'requests': 0, 'reason': message}}


class AttributeTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.workdir = self.useFixture(fixtures.TempDir()).path
        self.listed_in = []
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cloud.client_files.ensure_workspace',
            lambda workdir, workspace: os.makedirs(workspace,
                                                   exist_ok=True)))
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.runner.tempest_runner.list_tests',
            self._list))

    def _list(self, workspace):
        self.listed_in.append(workspace)
        return list(LISTED)

    def test_a_class_skip_is_given_to_each_test_of_its_class(self):
        got = class_outcomes.attribute(class_skip(), CAPS, self.workdir)
        self.assertEqual({T1, T2}, set(got))
        self.assertEqual('skip', got[T2]['status'])
        self.assertEqual(NO_BLAZAR, got[T1]['message'])
        self.assertEqual('%s.test_b' % SKIPPED, got[T2]['name'])

    def test_listed_in_a_workspace_of_the_workdir(self):
        class_outcomes.attribute(class_skip(), CAPS, self.workdir)
        self.assertEqual([os.path.join(
            self.workdir, class_outcomes.LISTING_WORKSPACE)], self.listed_in)

    def test_a_test_of_another_class_stays_without_a_result(self):
        # absent from the stream, no class outcome: it did not run
        got = class_outcomes.attribute(class_skip(), CAPS, self.workdir)
        self.assertNotIn(T3, got)

    def test_a_test_no_capability_claims_gets_nothing(self):
        got = class_outcomes.attribute(class_skip(), CAPS, self.workdir)
        self.assertNotIn(UNCLAIMED, got)

    def test_a_stream_without_class_outcomes_lists_nothing(self):
        given = {T1: {'name': 'x', 'status': 'pass'}}
        self.assertIs(given, class_outcomes.attribute(
            given, CAPS, self.workdir))
        self.assertEqual([], self.listed_in)

    def test_a_runs_selection_is_used_instead_of_a_listing(self):
        got = class_outcomes.attribute(class_skip(), CAPS, self.workdir,
                                       selection=LISTED[:1])
        self.assertEqual({T1}, set(got))
        self.assertEqual([], self.listed_in)

    def test_a_class_outcome_no_listed_test_has_stays_reported(self):
        given = class_skip('conformance_tests.scenario.test_x.Gone')
        self.assertEqual(set(given), set(class_outcomes.attribute(
            given, CAPS, self.workdir)))

    def test_a_listing_that_fails_is_one_line(self):
        def refuse(workspace):
            from conformance_tests.runner import tempest_runner
            raise tempest_runner.RunError(
                '`tempest run --list-tests` failed in %s: ImportError: x\n'
                'more' % workspace)
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.runner.tempest_runner.list_tests', refuse))
        e = self.assertRaises(class_outcomes.ListingError,
                              class_outcomes.attribute, class_skip(), CAPS,
                              self.workdir)
        self.assertNotIn('\n', str(e))
        self.assertIn('class-level outcomes', str(e))
        self.assertIn('ImportError: x', str(e))


class OwnersTest(testtools.TestCase):

    def test_class_and_module_fixtures_are_found(self):
        given = dict(class_skip(), **class_skip('m.Other'))
        given['setUpModule (conformance_tests.m)'] = dict(
            given['setUpClass (m.Other)'], name='setUpModule '
            '(conformance_tests.m)')
        given[T1] = {'name': 'conformance_tests.m.K.test_a'}
        self.assertEqual(sorted([SKIPPED, 'm.Other', 'conformance_tests.m']),
                         sorted(class_outcomes.fixture_owners(given)))
