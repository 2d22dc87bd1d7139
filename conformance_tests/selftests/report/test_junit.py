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

"""report/junit.py: the JUnit XML fails exactly where the report is not
as expected, shows expected-fail and not-applicable as skipped with
their cause, leaves out what is not in scope, and stays valid XML
whatever the cloud said."""

import xml.etree.ElementTree as ElementTree

import testtools

from conformance_tests.report import build
from conformance_tests.report import junit
from conformance_tests.selftests.report import test_html

T6 = 'id-6'


def _cases(text):
    root = ElementTree.fromstring(text.encode('utf-8'))
    found = {}
    for suite in root.iter('testsuite'):
        for case in suite.iter('testcase'):
            outcome = next((child for child in case
                            if child.tag in ('failure', 'skipped')), None)
            found[case.get('name')] = (
                suite.get('name'),
                outcome.tag if outcome is not None else 'pass',
                outcome.get('type') if outcome is not None else None,
                outcome.get('message') if outcome is not None else None)
    return root, found


class RenderTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.caps, self.summary = test_html.fixture()
        self.root, self.cases = _cases(junit.render(self.caps,
                                                    self.summary))

    def test_each_capability_in_scope_with_its_outcome(self):
        self.assertEqual(
            {'a.pass': ('seed 003', 'pass', None),
             'b.fail': ('seed 003', 'failure', 'fail'),
             'c.xfail': ('seed 003', 'skipped', 'expected-fail'),
             'd.na': ('seed 002', 'skipped', 'not-applicable'),
             'every-test-has-a-capability': ('run', 'pass', None),
             'leaves-the-cloud-as-found': ('run', 'skipped', 'not-taken')},
            {name: case[:3] for name, case in self.cases.items()})

    def test_messages_name_the_verdict_and_its_cause(self):
        self.assertTrue(self.cases['b.fail'][3].startswith(
            'fail, expected pass: '), self.cases['b.fail'][3])
        self.assertIn('quota <script>alert("x")</script> & more',
                      self.cases['b.fail'][3])
        self.assertEqual(
            'expected-fail /usage still counts its \\d servers/: upstream '
            'counts from the cells', self.cases['c.xfail'][3])
        self.assertIn('senlin', self.cases['d.na'][3])

    def test_counts_agree_with_the_cases(self):
        self.assertEqual(('6', '1', '3', '0'), (
            self.root.get('tests'), self.root.get('failures'),
            self.root.get('skipped'), self.root.get('errors')))
        seed_003 = next(s for s in self.root.iter('testsuite')
                        if s.get('name') == 'seed 003')
        self.assertEqual(('3', '1', '1'), (
            seed_003.get('tests'), seed_003.get('failures'),
            seed_003.get('skipped')))
        self.assertEqual('12.3', self.root.get('time'))

    def test_no_failure_exactly_when_the_report_is_as_expected(self):
        results = {test_html.T1: test_html._res('pass'),
                   test_html.T4: test_html._res('skip', test_html.NO_SENLIN)}
        caps = build.verdicts(
            [test_html._cap('a.pass', [test_html.T1]),
             test_html._cap('d.na', [test_html.T4])], results)
        summary = build.summarise(caps, results, 't', False)
        self.assertTrue(summary['as_expected'])
        root, _ = _cases(junit.render(caps, summary))
        self.assertEqual('0', root.get('failures'))
        self.assertFalse(self.summary['as_expected'])
        self.assertNotEqual('0', self.root.get('failures'))

    def test_an_unexpected_pass_is_a_failure(self):
        results = {test_html.T3: test_html._res('pass')}
        caps = build.verdicts([test_html._cap(
            'c.xfail', [test_html.T3], expected_fail={
                'status': 'fail', 'signature': test_html.SIG,
                'reason': 'upstream'})], results)
        _, cases = _cases(junit.render(caps, build.summarise(
            caps, results, 't', False)))
        self.assertEqual(('seed 003', 'failure', 'unexpected-pass'),
                         cases['c.xfail'][:3])

    def test_a_skip_is_a_failure_unless_skips_are_allowed(self):
        results = {test_html.T1: test_html._res('skip', 'set [x] y')}
        caps = build.verdicts([test_html._cap('a.part', [test_html.T1])],
                              results)
        for allowed, outcome in ((False, 'failure'), (True, 'skipped')):
            _, cases = _cases(junit.render(caps, build.summarise(
                caps, results, 't', allowed)))
            self.assertEqual(outcome, cases['a.part'][1])

    def test_the_runs_own_conditions_fail_as_the_report_does(self):
        summary = dict(self.summary, tests_without_capability=[T6],
                       inventory_differences={'servers': {
                           'added': ['s1'], 'removed': []}})
        _, cases = _cases(junit.render(self.caps, summary))
        self.assertEqual(
            ('failure', 'unmapped', 'tests no capability claims: id-6'),
            cases['every-test-has-a-capability'][1:])
        self.assertEqual(('failure', 'left-behind', 'left behind: servers'),
                         cases['leaves-the-cloud-as-found'][1:])
        _, cases = _cases(junit.render(self.caps, dict(
            self.summary, inventory_differences={})))
        self.assertEqual('pass', cases['leaves-the-cloud-as-found'][1])

    def test_control_characters_from_the_cloud_stay_valid_xml(self):
        results = {test_html.T2: test_html._res('fail', 'bad \x1b[31m\x00')}
        caps = build.verdicts([test_html._cap('b.fail', [test_html.T2])],
                              results)
        _, cases = _cases(junit.render(caps, build.summarise(
            caps, results, 't', False)))
        self.assertIn('bad ?[31m?', cases['b.fail'][3])
