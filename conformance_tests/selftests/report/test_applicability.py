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

"""not-applicable: a capability the cloud cannot show, and class skips.

A cloud without senlin, with a member account or an older microversion
cannot show some capabilities: they are `not-applicable` with the
reason, never a failure and never a silent pass; a gate that requires
what is missing makes them fail. A class that skips in its set-up is
reported once, for the class, and each of its tests gets that outcome.
"""

import os
import stat

import fixtures
import testtools

from conformance_tests.common import faults
from conformance_tests.common import skips
from conformance_tests.report import applicability
from conformance_tests.report import build
from conformance_tests.report import results
from conformance_tests.vendor import workspace as vendor_workspace

T1, T2 = 'a1b2c3d4-0000-4000-8000-000000000001', \
    'a1b2c3d4-0000-4000-8000-000000000002'
NO_SENLIN = skips.unavailable(
    type('C', (), {'service_available': type('S', (), {'senlin': False})}),
    'senlin', 'the clustering tests')
TEMPEST_MICROVERSION = ('The microversion range[2.64 - latest] of this test '
                        'is out of the configuration range[2.1 - 2.60].')
TEMPEST_ADMIN = 'Missing Identity Admin API credentials in configuration.'
OTHER_SKIP = 'set [conformance] anti_affinity_zone to run the scenarios'


def _cap(tests):
    return {'id': 'c', 'seed': '002_x.txt', 'feature': 'f', 'rule': 'r',
            'tests': list(tests), 'expected_fail': None, 'expect': {},
            'no_mutant': None, 'disruptive': False}


def _skip(message):
    return {'name': 'pkg.Class.test', 'status': 'skip', 'kind': None,
            'message': message, 'requests': 0, 'reason': message}


def _verdict(results, required=()):
    cap = build.verdicts([_cap([T1, T2])], results, required=required)[0]
    return cap['status'], cap['as_expected'], cap['explanation']


class ReasonTest(testtools.TestCase):

    def test_the_suites_and_tempests_skips_are_recognised(self):
        self.assertEqual(
            (applicability.SERVICE, 'service not available: senlin'),
            applicability.reason(NO_SENLIN))
        self.assertEqual(applicability.MICROVERSION,
                         applicability.reason(TEMPEST_MICROVERSION)[0])
        self.assertEqual((applicability.ADMIN, 'needs admin'),
                         applicability.reason(TEMPEST_ADMIN))
        self.assertEqual(
            (applicability.ADMIN, 'needs admin: GET /os-hypervisors'),
            applicability.reason('needs admin: GET /os-hypervisors.'))

    def test_hypervisors_the_cloud_lacks_are_a_reason(self):
        message = skips.hypervisors_cannot_show(
            'none of which has "drs" in its hostname', 'this cloud has d1')
        self.assertEqual(
            (applicability.HYPERVISORS, 'the cloud\'s hypervisors cannot '
             'show it: it needs hypervisors none of which has "drs" in its '
             'hostname'), applicability.reason(message))
        self.assertRaises(ValueError, skips.hypervisors_cannot_show,
                          'a; b', 'c')

    def test_data_the_suite_cannot_shape_is_a_reason(self):
        self.assertEqual(
            (applicability.DATA, 'the suite does not control this cloud\'s '
             'data: it needs an instance mapping left without user_id, as '
             'before nova-manage db online_data_migrations runs '
             'populate_user_id'),
            applicability.reason(faults.USER_ID_MIGRATION_CANNOT_SHOW))
        self.assertEqual(applicability.DATA, applicability.reason(
            faults.NOTIFICATIONS_CANNOT_SHOW)[0])

    def test_a_skip_a_vendor_can_fix_is_not_a_reason(self):
        self.assertIsNone(applicability.reason(OTHER_SKIP))
        self.assertIsNone(applicability.reason(''))

    def test_requirements_accept_api_types_and_refuse_the_unknown(self):
        self.assertEqual(['admin', 'blazar', 'senlin'],
                         applicability.normalise_requirements(
                             ['clustering', 'senlin', 'Reservation',
                              'admin']))
        e = self.assertRaises(ValueError,
                              applicability.normalise_requirements,
                              ['heat-ish'])
        self.assertIn('--require heat-ish', str(e))


class NotApplicableVerdictTest(testtools.TestCase):

    def test_every_test_unable_is_not_applicable_with_the_reason(self):
        status, ok, why = _verdict({T1: _skip(NO_SENLIN),
                                    T2: _skip(NO_SENLIN)})
        self.assertEqual(('not-applicable', True), (status, ok))
        self.assertEqual('service not available: senlin', why)

    def test_a_required_service_makes_it_fail_with_the_same_reason(self):
        status, ok, why = _verdict({T1: _skip(NO_SENLIN),
                                    T2: _skip(NO_SENLIN)},
                                   required=['senlin'])
        self.assertEqual(('fail', False), (status, ok))
        self.assertIn('service not available: senlin', why)

    def test_another_requirement_does_not(self):
        self.assertEqual('not-applicable', _verdict(
            {T1: _skip(TEMPEST_ADMIN), T2: _skip(TEMPEST_ADMIN)},
            required=['senlin'])[0])
        self.assertEqual('fail', _verdict(
            {T1: _skip(TEMPEST_ADMIN), T2: _skip(TEMPEST_ADMIN)},
            required=['admin'])[0])

    def test_one_other_skip_leaves_it_partial(self):
        self.assertEqual('partial', _verdict(
            {T1: _skip(NO_SENLIN), T2: _skip(OTHER_SKIP)})[0])

    def test_one_pass_beside_it_is_partial_not_a_pass(self):
        passed = dict(_skip(''), status='pass', message='')
        self.assertEqual('partial', _verdict(
            {T1: _skip(NO_SENLIN), T2: passed})[0])

    def test_a_failure_beside_it_is_a_failure(self):
        failed = dict(_skip('x'), status='fail', kind='assertion')
        self.assertEqual('fail', _verdict(
            {T1: _skip(NO_SENLIN), T2: failed})[0])

    def test_a_test_that_did_not_run_is_still_a_failure(self):
        self.assertEqual('fail', _verdict({T1: _skip(NO_SENLIN)})[0])

    def test_the_summary_counts_it_and_the_run_is_as_expected(self):
        caps = build.verdicts([_cap([T1, T2])], {
            T1: _skip(NO_SENLIN), T2: _skip(NO_SENLIN)})
        summary = build.summarise(caps, {}, 'cloud', allow_skips=False,
                                  required=['admin'])
        self.assertEqual({'not-applicable': 1}, summary['by_status'])
        self.assertTrue(summary['as_expected'])
        self.assertEqual(['admin'], summary['required'])
        self.assertIn('Not applicable: service not available: senlin',
                      build.markdown(caps, summary))


class ClassOutcomeTest(testtools.TestCase):
    SELECTED = [
        'conformance_tests.api.clustering.test_x.SpecTest.test_a'
        '[id-%s]' % T1,
        'conformance_tests.api.clustering.test_x.SpecTest.test_b'
        '[id-%s,slow]' % T2,
        'conformance_tests.api.clustering.test_x.SpecTestTwo.test_c'
        '[id-ffffffff-0000-4000-8000-000000000003]',
    ]

    def _fixture(self, status='skip', message=NO_SENLIN):
        name = 'setUpClass (conformance_tests.api.clustering.test_x.SpecTest)'
        return {name: dict(_skip(message), name=name, status=status)}

    def test_each_test_of_the_class_gets_its_outcome(self):
        got = results.attribute_class_outcomes(self._fixture(),
                                               self.SELECTED)
        self.assertEqual({T1, T2}, set(got))
        self.assertEqual('skip', got[T1]['status'])
        self.assertEqual(NO_SENLIN, got[T2]['message'])
        self.assertEqual(
            'conformance_tests.api.clustering.test_x.SpecTest.test_b',
            got[T2]['name'])

    def test_a_failed_set_up_fails_each_test(self):
        got = results.attribute_class_outcomes(
            self._fixture('fail', 'boom'), self.SELECTED)
        self.assertEqual('fail', got[T1]['status'])

    def test_a_test_with_its_own_result_keeps_it(self):
        given = self._fixture()
        given[T1] = dict(_skip(''), status='pass')
        got = results.attribute_class_outcomes(given, self.SELECTED)
        self.assertEqual('pass', got[T1]['status'])
        self.assertEqual('skip', got[T2]['status'])

    def test_a_fixture_of_no_selected_class_stays_reported(self):
        given = self._fixture()
        got = results.attribute_class_outcomes(given, self.SELECTED[2:])
        self.assertEqual(set(given), set(got))


class VendorCopyTest(testtools.TestCase):

    def test_the_copy_of_a_vendors_tempest_conf_is_private(self):
        workdir = self.useFixture(fixtures.TempDir()).path
        conf = os.path.join(workdir, 'given.conf')
        with open(conf, 'w') as f:
            f.write('[identity]\nuri_v3 = http://x/v3\n'
                    '[auth]\nadmin_password = s3cret\n')
        os.chmod(conf, 0o644)
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cloud.client_files.ensure_workspace',
            lambda workdir, workspace: os.makedirs(
                os.path.join(workspace, 'etc'))))
        workspace = vendor_workspace.make(workdir, conf)
        copy = os.path.join(workspace, 'etc', 'tempest.conf')
        self.assertEqual(0o600, stat.S_IMODE(os.stat(copy).st_mode))
        with open(copy) as f:
            self.assertIn('s3cret', f.read())
