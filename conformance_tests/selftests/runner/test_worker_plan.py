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

"""runner/worker_plan.py: the classes dealt to Tempest's workers."""

import json
import os
import re

import fixtures
import testtools
import yaml

from conformance_tests.runner import worker_plan

ID = 'id-5b1f0c3e-6f1e-4a8e-9c51-0d2b7e3f9a11'


def tests(cls, count, slow=False):
    return ['pkg.mod.%s.test_%d[%s%s]' % (cls, i, ID, ',slow' if slow else '')
            for i in range(count)]


class PlanTest(testtools.TestCase):

    def test_a_slow_test_weighs_more_than_an_untagged_one(self):
        self.assertEqual(worker_plan.SLOW_SECONDS,
                         worker_plan.estimate(tests('A', 1, slow=True)[0]))
        self.assertEqual(1, worker_plan.estimate(tests('A', 1)[0]))
        self.assertEqual(worker_plan.SLOW_SECONDS, worker_plan.estimate(
            'p.m.C.test_x[disruptive,%s,slow]' % ID))

    def test_the_heaviest_class_gets_a_worker_to_itself(self):
        # Dealt in turn (stestr without recorded times), the heavy class
        # would share a worker with B; weighed, it runs alone.
        names = (tests('A', 6, slow=True) + tests('B', 3, slow=True)
                 + tests('C', 9) + tests('D', 4) + tests('E', 1, slow=True))
        workers = worker_plan.shared_workers(names, 2)
        self.assertEqual([['pkg.mod.A'],
                          ['pkg.mod.B', 'pkg.mod.C', 'pkg.mod.E',
                           'pkg.mod.D']], workers)

    def test_recorded_seconds_outweigh_the_estimate(self):
        names = tests('A', 2, slow=True) + tests('B', 3) + tests('C', 1)
        # Estimated, A (14) outweighs B (3) and C (1): A alone.
        self.assertEqual([['pkg.mod.A'], ['pkg.mod.B', 'pkg.mod.C']],
                         worker_plan.shared_workers(names, 2))
        # Recorded, B took 30 s: B alone; C, never run, is estimated.
        recorded = dict.fromkeys(tests('A', 2, slow=True), 2.0)
        recorded.update(dict.fromkeys(tests('B', 3), 10.0))
        self.assertEqual([['pkg.mod.B'], ['pkg.mod.A', 'pkg.mod.C']],
                         worker_plan.shared_workers(names, 2, recorded))

    def test_a_workspace_never_run_has_no_recorded_times(self):
        workspace = self.useFixture(fixtures.TempDir()).path
        self.assertEqual({}, worker_plan.recorded_times(
            workspace, tests('A', 1)))

    def test_reference_seconds_weigh_tests_by_idempotent_id(self):
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'reference.json')
        with open(path, 'w') as f:
            json.dump({'seconds': {ID[3:]: 12.5}}, f)
        names = ['pkg.mod.A.test_1[%s,slow]' % ID,
                 'pkg.mod.A.test_2[id-00000000-0000-4000-8000-000000000000]']
        self.assertEqual({names[0]: 12.5},
                         worker_plan.reference_times(names, path))
        self.assertEqual({}, worker_plan.reference_times(
            names, path + '.missing'))

    def test_recorded_seconds_outweigh_the_reference(self):
        workspace = self.useFixture(fixtures.TempDir()).path
        name = 'conformance_tests.x.A.test_1[%s]' % ID
        self.useFixture(fixtures.MockPatchObject(
            worker_plan, 'recorded_times', return_value={name: 1.0}))
        self.useFixture(fixtures.MockPatchObject(
            worker_plan, 'reference_times', return_value={name: 9.0}))
        self.assertEqual({name: 1.0},
                         worker_plan.known_times(workspace, [name]))

    def test_the_shipped_reference_names_only_tests_of_the_suite(self):
        # A stale id would weigh nothing; one the suite lacks is a typo.
        with open(worker_plan.REFERENCE_SECONDS) as f:
            ids = set(json.load(f)['seconds'])
        # Test ids are declared in the test modules (idempotent_id) and,
        # for gabbi tests, in the YAML files.
        here = os.path.dirname(worker_plan.__file__)
        source = []
        for tree in ('api', 'scenario', os.path.join('..', 'gabbits')):
            for root, _, files in os.walk(os.path.join(here, '..', tree)):
                for name in files:
                    if name.endswith(('.py', '.yaml')):
                        with open(os.path.join(root, name)) as f:
                            source.append(f.read())
        declared = set(re.findall(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-'
                                  r'[0-9a-f]{4}-[0-9a-f]{12}',
                                  '\n'.join(source)))
        self.assertGreater(len(ids), 50)
        self.assertEqual(set(), ids - declared)

    def test_the_plan_does_not_depend_on_the_listing_order(self):
        names = tests('A', 2) + tests('B', 2) + tests('C', 1, slow=True)
        self.assertEqual(worker_plan.shared_workers(names, 2),
                         worker_plan.shared_workers(names[::-1], 2))

    def test_no_more_workers_than_classes(self):
        self.assertEqual([['pkg.mod.A']],
                         worker_plan.shared_workers(tests('A', 5), 4))

    def test_classes_taking_one_lock_are_dealt_to_one_worker(self):
        # Weighed apart, L and M would go to different workers (as
        # test_the_heaviest_class_gets_a_worker_to_itself deals A and B),
        # and one would wait on the other's lock with nothing to do.
        names = (tests('L', 6, slow=True) + tests('M', 3, slow=True)
                 + tests('C', 9) + tests('D', 4) + tests('E', 1, slow=True))
        workers = worker_plan.shared_workers(
            names, 2, together={'pkg.mod.L', 'pkg.mod.M', 'pkg.mod.Unused'})
        self.assertEqual(
            [['pkg.mod.L', 'pkg.mod.M'],
             ['pkg.mod.C', 'pkg.mod.E', 'pkg.mod.D']], workers)
        self.assertEqual(workers[:1], worker_plan.plan(
            tests('L', 1) + tests('M', 1), set(), 2,
            together={'pkg.mod.L', 'pkg.mod.M'}))

    def test_serial_classes_share_one_worker_after_the_others(self):
        names = tests('A', 2) + tests('S', 1) + tests('T', 1)
        self.assertEqual([['pkg.mod.A'], ['pkg.mod.S', 'pkg.mod.T']],
                         worker_plan.plan(names, {'pkg.mod.S', 'pkg.mod.T',
                                                  'pkg.mod.Unused'}, 2))

    def test_class_regex_selects_its_class_only(self):
        regex = re.compile(worker_plan.class_regex('pkg.mod.A'))
        self.assertTrue(regex.search(tests('A', 1, slow=True)[0]))
        self.assertTrue(regex.search('pkg.mod.A.test_x'))
        self.assertFalse(regex.search(tests('AB', 1)[0]))
        self.assertFalse(regex.search('pkg.mod.A.Inner.test_x[%s]' % ID))
        self.assertFalse(regex.search('other.pkg.mod.A.test_x[%s]' % ID))

    def test_worker_file_is_stestrs_format(self):
        workspace = self.useFixture(fixtures.TempDir()).path
        path = worker_plan.write(workspace, [['pkg.mod.A'],
                                             ['pkg.mod.B', 'pkg.mod.C']])
        self.assertEqual(os.path.join(workspace, worker_plan.WORKER_FILE),
                         path)
        with open(path) as f:
            loaded = yaml.safe_load(f)
        self.assertEqual([1, 2], [len(w['worker']) for w in loaded])
        from stestr import selection
        ids = tests('A', 1) + tests('B', 2) + tests('C', 1)
        self.assertEqual(tests('B', 2) + tests('C', 1),
                         selection.filter_tests(loaded[1]['worker'], ids))
