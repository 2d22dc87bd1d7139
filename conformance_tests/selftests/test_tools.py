"""tools/: the pep8 checks for gabbi ids and the Zuul config."""

import os

import fixtures
import testtools
import yaml

from conformance_tests.tools import check_gabbi_ids
from conformance_tests.tools import check_zuul
from conformance_tests.tools import ids


class CheckGabbiIdsTest(testtools.TestCase):

    def test_real_tree_has_no_problems(self):
        self.assertEqual([], check_gabbi_ids.problems())

    def test_yaml_ids_are_found(self):
        self.assertGreater(len(ids.yaml_ids()), 0)

    def test_unclaimed_test_is_reported(self):
        real = ids.yaml_ids()
        extra = dict(real)
        extra['99999999-9999-4999-8999-999999999999'] = ['x.yaml']
        self.useFixture(fixtures.MockPatchObject(
            ids, 'yaml_ids', return_value=extra))
        found = check_gabbi_ids.problems()
        self.assertEqual(1, len(found), found)
        self.assertIn('belongs to no capability', found[0])

    def test_missing_test_is_reported(self):
        real = ids.yaml_ids()
        fewer = dict(real)
        gone = sorted(fewer)[0]
        del fewer[gone]
        self.useFixture(fixtures.MockPatchObject(
            ids, 'yaml_ids', return_value=fewer))
        found = check_gabbi_ids.problems()
        self.assertEqual(1, len(found), found)
        self.assertIn(gone, found[0])
        self.assertIn('does not exist', found[0])

    def test_duplicate_id_is_reported(self):
        real = ids.yaml_ids()
        doubled = {k: v * 2 for k, v in real.items()}
        self.useFixture(fixtures.MockPatchObject(
            ids, 'yaml_ids', return_value=doubled))
        found = check_gabbi_ids.problems()
        self.assertEqual(len(real), len(found))
        self.assertIn('used 2 times', found[0])


class CheckZuulTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.root = self.useFixture(fixtures.TempDir()).path
        os.makedirs(os.path.join(self.root, 'zuul.d'))
        os.makedirs(os.path.join(self.root, 'playbooks'))
        with open(os.path.join(self.root, 'playbooks', 'ok.yaml'), 'w'):
            pass

    def write(self, items, name='x.yaml'):
        with open(os.path.join(self.root, 'zuul.d', name), 'w') as f:
            yaml.safe_dump(items, f)

    def test_real_tree_has_no_problems(self):
        self.assertEqual([], check_zuul.problems())

    def test_consistent_temp_tree_has_no_problems(self):
        self.write([
            {'job': {'name': 'base-job', 'parent': 'devstack',
                     'abstract': True}},
            {'job': {'name': 'good', 'parent': 'base-job',
                     'run': 'playbooks/ok.yaml'}},
            {'project': {'check': {'jobs': ['good']}}},
        ])
        self.assertEqual([], check_zuul.problems(self.root))

    def test_each_problem_is_reported(self):
        self.write([
            {'job': {'name': 'abstract-job', 'parent': 'devstack',
                     'abstract': True}},
            {'job': {'name': 'orphan', 'parent': 'no-such-parent'}},
            {'job': {'name': 'no-playbook', 'parent': 'tox',
                     'post-run': ['playbooks/missing.yaml']}},
            {'project': {
                'check': {'jobs': ['undefined-job', 'abstract-job',
                                   'orphan', 'no-playbook']},
            }},
        ])
        found = check_zuul.problems(self.root)
        self.assertIn('check runs job undefined-job, which is not defined',
                      found)
        self.assertIn('check runs abstract job abstract-job', found)
        self.assertIn('job orphan: parent no-such-parent is defined nowhere',
                      found)
        self.assertIn('job no-playbook: post-run playbook '
                      'playbooks/missing.yaml is not in the tree', found)
        self.assertEqual(4, len(found), found)

    def test_job_entry_as_mapping_is_understood(self):
        self.write([
            {'job': {'name': 'good', 'parent': 'tox'}},
            {'project': {'gate': {'jobs': [{'good': {'voting': False}},
                                           {'bad': {}}]}}},
        ])
        self.assertEqual(['gate runs job bad, which is not defined'],
                         check_zuul.problems(self.root))

    def test_unknown_key_pipeline_and_duplicate(self):
        self.write([
            {'job': {'name': 'j', 'parent': 'tox', 'colour': 'red'}},
            {'job': {'name': 'j', 'parent': 'tox'}},
            {'project': {'chek': {'jobs': ['j']}}},
        ])
        found = check_zuul.problems(self.root)
        self.assertIn('job j: unknown key colour', found)
        self.assertIn('job j is defined twice', found)
        self.assertIn('project: unknown pipeline chek', found)

    def test_no_project_stanza(self):
        self.write([{'job': {'name': 'j', 'parent': 'tox'}}])
        self.assertEqual(['no project stanza: no job would ever run'],
                         check_zuul.problems(self.root))
