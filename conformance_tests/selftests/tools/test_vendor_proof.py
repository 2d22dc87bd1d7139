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

"""What the vendor proof demands of the member run and of the run with a
service disabled (tools/vendor_proof.py)."""

import testtools

from conformance_tests.tools import vendor_proof

NA_SERVICE = 'service not available: blazar'
NA_ADMIN = 'needs admin: GET /os-hypervisors'


def _report(*caps):
    return {'capabilities': [{'id': c, 'seed': s, 'tests': []}
                             for c, s in caps],
            'summary': {'tests_without_capability': []}}


REPORT = _report(('nova.a', '000-nova'), ('senlin.a', '002-senlin'),
                 ('senlin.drs', '002-senlin'), ('blazar.a', '004-blazar'))
ADMIN = {'nova.a': ('pass', ''), 'senlin.a': ('expected-fail', ''),
         'senlin.drs': ('expected-fail', ''), 'blazar.a': ('pass', '')}


class MemberRunTest(testtools.TestCase):

    def judge(self, member):
        return vendor_proof.judge_member_run(member, ADMIN, REPORT)

    def test_senlin_as_a_member_keeps_the_admin_verdicts(self):
        self.assertEqual([], self.judge({
            'nova.a': ('pass', ''), 'senlin.a': ('expected-fail', ''),
            'senlin.drs': ('not-applicable', NA_ADMIN),
            'blazar.a': ('not-applicable', NA_SERVICE)}))

    def test_a_member_verdict_unlike_the_admin_one_is_a_problem(self):
        problems = self.judge({
            'nova.a': ('pass', ''), 'senlin.a': ('pass', ''),
            'senlin.drs': ('not-applicable', NA_ADMIN),
            'blazar.a': ('not-applicable', NA_SERVICE)})
        self.assertEqual(['member run: senlin.a is pass, the admin run '
                          'expected-fail'], problems)

    def test_the_disabled_service_must_be_not_applicable_for_it(self):
        problems = self.judge({
            'nova.a': ('pass', ''), 'senlin.a': ('expected-fail', ''),
            'senlin.drs': ('not-applicable', NA_ADMIN),
            'blazar.a': ('not-applicable', NA_ADMIN)})
        self.assertEqual(1, len(problems))
        self.assertIn('blazar.a (blazar disabled)', problems[0])

    def test_a_seed_neither_run_selected_is_not_judged(self):
        # `conformance packaged run --seed 004`: seed 002 is in neither
        # run, so its service being off says nothing.
        admin = dict(ADMIN, **{'senlin.a': ('not-in-scope', ''),
                               'senlin.drs': ('not-in-scope', '')})
        self.assertEqual([], vendor_proof.judge_member_run({
            'nova.a': ('pass', ''), 'senlin.a': ('not-in-scope', ''),
            'senlin.drs': ('not-in-scope', ''),
            'blazar.a': ('not-applicable', NA_SERVICE)}, admin, REPORT,
            disabled=('senlin', 'blazar')))

    def test_a_capability_only_the_admin_run_selected_is_a_problem(self):
        problems = self.judge({
            'nova.a': ('not-in-scope', ''),
            'senlin.a': ('expected-fail', ''),
            'senlin.drs': ('not-applicable', NA_ADMIN),
            'blazar.a': ('not-applicable', NA_SERVICE)})
        self.assertEqual(['member run: nova.a is not-in-scope, the admin '
                          'run pass'], problems)


class RunWithoutServiceTest(testtools.TestCase):

    def judge(self, verdicts):
        return vendor_proof.judge_run_without(verdicts, REPORT, ('senlin',))

    def test_every_capability_of_the_seed_not_applicable(self):
        na = ('not-applicable', 'service not available: senlin')
        self.assertEqual([], self.judge({
            'nova.a': ('not-in-scope', ''), 'senlin.a': na,
            'senlin.drs': na}))

    def test_one_judged_otherwise_is_a_problem(self):
        problems = self.judge({
            'senlin.a': ('not-applicable', 'service not available: senlin'),
            'senlin.drs': ('not-applicable', NA_ADMIN)})
        self.assertEqual(['run without senlin: senlin.drs is '
                          'not-applicable, not not-applicable for want of '
                          'the service'], problems)

    def test_a_run_that_judged_nothing_proves_nothing(self):
        self.assertEqual(['run without senlin: no capability of seed 002 '
                          'was judged'], self.judge({'nova.a': ('pass', '')}))
