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

"""report/deployment.py and guidelines' by_deployment: a packaged
deployment's verdict that differs from its series' embedded cloud is
as expected only where a guideline says why."""

import os

import fixtures
import testtools

from conformance_tests.report import deployment
from conformance_tests.report import guidelines
from conformance_tests.report import matrix

NAME = deployment.DEBIAN13
NO_SERVICE = {NAME: {'status': 'not-applicable',
                     'reason': 'the distribution packages no such service'}}


def _report(statuses):
    return {'capabilities': [
        {'id': cap_id, 'status': status, 'as_expected': True,
         'signature': 'sig', 'explanation': 'why %s\nmore' % cap_id}
        for cap_id, status in statuses.items()],
        'summary': {'as_expected': True, 'by_status': {}, 'versions': {}}}


class ByDeploymentGuidelineTest(testtools.TestCase):

    def load(self, top, cap_text=''):
        d = self.useFixture(fixtures.TempDir()).path
        with open(os.path.join(d, '002-x.yaml'), 'w') as f:
            f.write('seed: 002_x.txt\nfeature: f\n' + top + 'capabilities:\n'
                    '  - id: a.b\n    rule: r\n    tests: [t1]\n' + cap_text +
                    '  - id: a.c\n    rule: r\n    tests: [t2]\n')
        return {c['id']: c for c in guidelines.load_all(d)}

    def test_a_file_entry_applies_to_each_capability(self):
        caps = self.load('by_deployment:\n  %s:\n    status: not-applicable'
                         '\n    reason: no senlin\n' % NAME)
        for cap in caps.values():
            self.assertEqual({NAME: {'status': 'not-applicable',
                                     'reason': 'no senlin'}},
                             cap['by_deployment'])

    def test_a_capability_entry_wins(self):
        caps = self.load(
            'by_deployment:\n  %s: {status: not-applicable, reason: x}\n'
            % NAME, '    by_deployment:\n      %s: {status: pass, reason: '
            'y}\n' % NAME)
        self.assertEqual('pass', caps['a.b']['by_deployment'][NAME]['status'])
        self.assertEqual('x', caps['a.c']['by_deployment'][NAME]['reason'])

    def test_an_entry_needs_a_known_status_and_a_reason(self):
        for entry in ('{status: not-applicable}', '{reason: x}',
                      '{status: broken, reason: x}', 'not-applicable'):
            self.assertRaises(guidelines.GuidelineError, self.load,
                              'by_deployment:\n  %s: %s\n' % (NAME, entry))

    def test_the_real_guidelines_explain_seed_002_on_debian13(self):
        # Debian 13 packages no senlin: every seed-002 capability says so.
        # Its nova counts quota with the legacy driver: no disk quota.
        # The suite does not edit its API database: no unmigrated mapping.
        # Nor does it read its message bus: no notifications.
        explained = ('reservation.preemptible.disk-quota',
                     'compute.quota-from-placement.unmigrated-fallback',
                     'compute.server-group-rules.notifications')
        caps = guidelines.load_all()
        for cap in caps:
            said = deployment.explanation(cap, NAME, 'not-applicable')
            self.assertEqual(
                cap['seed'].startswith('002_') or cap['id'] in explained,
                bool(said), cap['id'])


class JudgeTest(testtools.TestCase):

    def test_not_applicable_as_admin_must_be_explained(self):
        report = _report({'a.b': 'not-applicable', 'a.c': 'pass',
                          'a.d': 'not-applicable'})
        caps = [{'id': 'a.b', 'by_deployment': NO_SERVICE},
                {'id': 'a.c', 'by_deployment': {}},
                {'id': 'a.d', 'by_deployment': {}}]
        [line] = deployment.unexplained_not_applicable(report, caps, NAME)
        self.assertIn('a.d is not-applicable on %s' % NAME, line)
        self.assertIn('why a.d', line)

    def test_a_differing_cell_is_as_expected_only_when_explained(self):
        cap = {'id': 'a.b', 'by_deployment': NO_SERVICE}
        cell = {'status': 'not-applicable', 'as_expected': True,
                'note': 'service not available: x'}
        same = deployment.judge_cell(cap, NAME, dict(cell, status='pass'),
                                     {'status': 'pass'})
        self.assertEqual((False, True), (same['differs'],
                                         same['as_expected']))
        explained = deployment.judge_cell(cap, NAME, cell,
                                          {'status': 'pass'})
        self.assertEqual((True, True), (explained['differs'],
                                        explained['as_expected']))
        self.assertIn('packages no such service', explained['note'])
        unexplained = deployment.judge_cell(
            {'id': 'a.b', 'by_deployment': {}}, NAME, cell,
            {'status': 'pass'})
        self.assertEqual((True, False), (unexplained['differs'],
                                         unexplained['as_expected']))
        self.assertIn('no guideline by_deployment entry', unexplained['note'])


class MatrixColumnTest(testtools.TestCase):

    def test_compared_with_its_own_series_not_the_newest(self):
        caps = [{'id': 'a.b', 'rule': 'r', 'by_deployment': NO_SERVICE},
                {'id': 'a.c', 'rule': 'r', 'by_deployment': {}}]
        table = matrix.build(caps, [
            matrix.column('2025.1', _report({'a.b': 'pass',
                                             'a.c': 'expected-fail'})),
            matrix.column('2026.2', _report({'a.b': 'pass', 'a.c': 'pass'})),
            matrix.deployment_column(NAME, _report(
                {'a.b': 'not-applicable', 'a.c': 'expected-fail'}),
                '2025.1')])
        self.assertEqual('2026.2', table['newest'])
        packaged = table['columns'][-1]
        self.assertEqual('Debian 13 packaged (2025.1)', packaged['series'])
        self.assertTrue(packaged['as_expected'])
        # a.c: expected-fail like the embedded 2025.1, though 2026.2 passes
        self.assertEqual([True, False],
                         [row['cells'][-1]['differs']
                          for row in table['rows']])
        self.assertIn('Debian 13 packaged (2025.1)', matrix.markdown(table))

    def test_an_unexplained_difference_fails_the_column(self):
        caps = [{'id': 'a.c', 'rule': 'r', 'by_deployment': {}}]
        table = matrix.build(caps, [
            matrix.column('2025.1', _report({'a.c': 'pass'})),
            matrix.deployment_column(NAME, _report({'a.c': 'partial'}),
                                     '2025.1')])
        self.assertFalse(table['columns'][-1]['as_expected'])

    def test_a_devstack_job_claims_nothing_of_seeds_it_did_not_run(self):
        caps = [{'id': 'a.b', 'rule': 'r', 'by_deployment': {}},
                {'id': 'a.c', 'rule': 'r', 'by_deployment': {}}]
        table = matrix.build(caps, [
            matrix.column('2026.1', _report({'a.b': 'pass', 'a.c': 'pass'})),
            matrix.deployment_column(
                deployment.DEVSTACK, _report({'a.b': 'pass',
                                              'a.c': 'not-in-scope'}),
                '2026.1', label=deployment.devstack_label(
                    'conformance-placement', 'stable/2026.1'))])
        col = table['columns'][-1]
        self.assertEqual('DevStack stable/2026.1 (conformance-placement)',
                         col['series'])
        self.assertTrue(col['as_expected'])
        out_of_job = table['rows'][1]['cells'][-1]
        self.assertEqual(('not-in-scope', False),
                         (out_of_job['status'], out_of_job['differs']))
        self.assertIn('not run by this deployment', out_of_job['note'])

    def test_a_report_older_than_a_capability_of_a_seed_it_ran_fails(self):
        # a.new came after the job's report: of a seed the job ran it is
        # missing (the job must run again); of another seed it claims
        # nothing.
        caps = [{'id': 'a.b', 'seed': '002_x', 'rule': 'r',
                 'by_deployment': {}},
                {'id': 'a.new', 'seed': '002_x', 'rule': 'r',
                 'by_deployment': {}},
                {'id': 'c.d', 'seed': '000_y', 'rule': 'r',
                 'by_deployment': {}},
                {'id': 'c.new', 'seed': '000_y', 'rule': 'r',
                 'by_deployment': {}}]
        embedded = matrix.column('2026.1', _report({
            'a.b': 'pass', 'a.new': 'pass', 'c.d': 'pass', 'c.new': 'pass'}))
        table = matrix.build(caps, [embedded, matrix.deployment_column(
            deployment.DEVSTACK, _report({'a.b': 'not-in-scope',
                                          'c.d': 'pass'}),
            '2026.1', label='DevStack x')])
        cells = {row['id']: row['cells'][-1] for row in table['rows']}
        self.assertEqual(('not-in-scope', True),
                         (cells['a.new']['status'],
                          cells['a.new']['as_expected']))
        self.assertIn('not run by this deployment', cells['a.new']['note'])
        self.assertEqual(('missing', False),
                         (cells['c.new']['status'],
                          cells['c.new']['as_expected']))
        self.assertFalse(table['columns'][-1]['as_expected'])

    def test_a_devstack_difference_needs_its_own_explanation(self):
        # Debian 13's reason is not DevStack's.
        caps = [{'id': 'a.b', 'rule': 'r', 'by_deployment': NO_SERVICE}]
        table = matrix.build(caps, [
            matrix.column('2026.1', _report({'a.b': 'pass'})),
            matrix.deployment_column(deployment.DEVSTACK, _report(
                {'a.b': 'not-applicable'}), '2026.1', label='DevStack x')])
        self.assertFalse(table['columns'][-1]['as_expected'])
