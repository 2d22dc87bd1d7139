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

"""inventory/listing.py: what a run must leave as it found it."""

import testtools

from conformance_tests.inventory import listing as inventory
from conformance_tests.report import build


class DifferencesTest(testtools.TestCase):

    def test_an_unchanged_cloud_has_no_difference(self):
        found = {'servers': {'s1'}, 'aggregate metadata': {'a k=v'}}
        self.assertEqual({}, inventory.differences(found, dict(found)))

    def test_a_leftover_and_a_change_in_place_are_named(self):
        before = {'servers': {'s1'}, 'aggregate metadata': {'a k=v'}}
        after = {'servers': {'s1', 's2'}, 'aggregate metadata': {'a k=w'}}
        self.assertEqual({
            'servers': {'added': ['s2'], 'removed': []},
            'aggregate metadata': {'added': ['a k=w'], 'removed': ['a k=v']},
        }, inventory.differences(before, after))

    def test_a_kind_listed_once_counts_as_changed(self):
        self.assertEqual({'leases': {'added': [], 'removed': []}},
                         inventory.differences({'leases': set()}, {}))

    def test_a_difference_makes_the_run_not_as_expected(self):
        diff = inventory.differences({'servers': set()}, {'servers': {'x'}})
        summary = build.summarise([], {}, 'cloud', False, inventory=diff)
        self.assertFalse(summary['as_expected'])
        self.assertIn('left behind: servers', build.markdown([], summary))
        clean = build.summarise([], {}, 'cloud', False, inventory={})
        self.assertTrue(clean['as_expected'])


class TakeTest(testtools.TestCase):
    """take() on a context offering placement and blazar only."""

    class Placement(object):
        def list_providers(self):
            return [{'uuid': 'p1'}]

        def get_headers(self):
            return {}

        def get(self, url, headers=None):
            bodies = {
                'resource_providers/p1/inventories':
                    '{"inventories": {"VCPU": {"total": 8}}}',
                'resource_providers/p1/aggregates':
                    '{"aggregates": ["agg1"]}',
                'resource_providers/p1/traits': '{"traits": ["T1"]}'}
            assert headers['OpenStack-API-Version'].startswith('placement')
            return None, bodies[url]

        def list_resource_classes(self):
            return [{'name': 'VCPU'}]

        def list_traits(self):
            return ['T1']

    class Hosts(object):
        def list_hosts(self):
            return {'hosts': [{'id': 'h1', 'reservable': True,
                               'updated_at': 'now'}]}

    def test_state_changed_in_place_is_listed_by_value(self):
        from conformance_tests.cleanup import context
        from conformance_tests.cleanup import names
        ctx = context.Context(names.RunNames('conformance', ()),
                              placement_client=self.Placement(),
                              hosts_client=self.Hosts())
        found = inventory.take(ctx)
        self.assertEqual({'p1 VCPU=8'}, found['provider inventories'])
        self.assertEqual({'p1 agg1'}, found['provider aggregates'])
        self.assertEqual({'p1 T1'}, found['provider traits'])
        self.assertEqual({'h1 id=h1', 'h1 reservable=True'},
                         found['blazar hosts'])
        self.assertNotIn('servers', found)
        self.assertLessEqual(set(found), set(inventory.KINDS))


class MutantLeavesTest(testtools.TestCase):

    def test_what_a_mutant_leaves_is_a_kind_the_inventory_lists(self):
        from conformance_tests.cloud import mutants
        for mutant in mutants.all_mutants():
            self.assertLessEqual(set(mutant.leaves), set(inventory.KINDS),
                                 mutant.name)

    def test_the_tests_answer_for_everything_else(self):
        from conformance_tests.cloud import mutants
        from conformance_tests.report import mutants as rules
        keeps = mutants.get('blazar-lease-end-keeps-host')
        diff = {'aggregate hosts': {'added': [], 'removed': ['fp host p']},
                'servers': {'added': ['s1'], 'removed': []}}
        self.assertEqual({'servers': diff['servers']},
                         rules.left_by_tests(keeps, diff))
        other = mutants.get('blazar-evicts-everywhere')
        self.assertEqual(diff, rules.left_by_tests(other, diff))
        self.assertIsNone(rules.left_by_tests(other, None))

    def test_what_was_left_is_named_in_one_line(self):
        from conformance_tests.report import mutants as rules
        left = {'servers': {'added': ['s1', 's2', 's3'], 'removed': []},
                'aggregate hosts': {'added': [], 'removed': ['fp host p']}}
        self.assertEqual(
            'aggregate hosts +0 -1: -fp host p; '
            'servers +3 -0: +s1, +s2 ...', rules.describe_left(left))
