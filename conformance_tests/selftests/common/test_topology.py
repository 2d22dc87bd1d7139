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

"""common/topology.py: building a topology against a recording client."""

import re
import uuid

from tempest.lib.common.utils import test_utils
import testtools

from conformance_tests.common import gabbi_files
from conformance_tests.common import topology

CUSTOM = re.compile(r'^CUSTOM_[A-Z0-9_]+$')


class FakeClient(object):
    """Records every call; answers with provider generations."""

    def __init__(self):
        self.calls = []
        self.generations = {}
        self.deleted = []

    def _record(self, *call):
        self.calls.append(call)

    def create_resource_class(self, name):
        self._record('create_resource_class', name)

    def create_trait(self, name):
        self._record('create_trait', name)

    def create_provider(self, name, rp_uuid, parent_uuid=None):
        self._record('create_provider', name, rp_uuid, parent_uuid)
        self.generations[rp_uuid] = 0
        return {'generation': 0, 'uuid': rp_uuid, 'name': name}

    def _bump(self, rp_uuid, generation):
        if generation != self.generations[rp_uuid]:
            raise AssertionError('stale generation %s for %s' % (
                generation, rp_uuid))
        self.generations[rp_uuid] = generation + 1
        return {'resource_provider_generation': generation + 1}

    def set_inventories(self, rp_uuid, generation, inventories):
        self._record('set_inventories', rp_uuid, generation,
                     dict(inventories))
        return self._bump(rp_uuid, generation)

    def set_aggregates(self, rp_uuid, generation, aggregates):
        self._record('set_aggregates', rp_uuid, generation, list(aggregates))
        return self._bump(rp_uuid, generation)

    def set_traits(self, rp_uuid, generation, traits):
        self._record('set_traits', rp_uuid, generation, list(traits))
        return self._bump(rp_uuid, generation)

    def delete_provider(self, rp_uuid):
        self.deleted.append(('provider', rp_uuid))

    def delete_resource_class(self, name):
        self.deleted.append(('resource_class', name))

    def delete_trait(self, name):
        self.deleted.append(('trait', name))

    def named(self, method):
        return [c for c in self.calls if c[0] == method]


SPEC = {
    'resource_classes': ['HOST', 'disk-gb'],
    'traits': ['FAST'],
    'aggregates': ['AGG_A', 'AGG_B'],
    'absent_aggregates': ['AGG_GHOST'],
    'providers': {
        'root': {'aggregates': ['AGG_A'], 'inventory': {'HOST': 4},
                 'traits': ['FAST']},
        'child': {'parent': 'root', 'inventory': {'HOST': 2}},
        'grandchild': {'parent': 'child'},
        'share': {'aggregates': ['AGG_A', 'AGG_B'],
                  'inventory': {'disk-gb': 100}, 'shared': True},
    },
}


class BuildTest(testtools.TestCase):

    def build(self, spec=SPEC, prefix='conformance-zuul'):
        self.client = FakeClient()
        self.cleanups = []

        def add_cleanup(func, *args):
            self.cleanups.append((func, args))

        self.topo = topology.build(self.client, spec, prefix, add_cleanup)
        return self.topo

    def uuid_of(self, name):
        return self.topo.values[name.upper()]

    def test_resource_class_names_are_custom_upper_case(self):
        topo = self.build()
        created = [c[1] for c in self.client.named('create_resource_class')]
        self.assertEqual(2, len(created))
        for name in created:
            self.assertRegex(name, CUSTOM)
        run_id = created[0].split('_')[3]
        self.assertEqual(8, len(run_id))
        self.assertEqual('CUSTOM_CONFORMANCE_ZUUL_%s_HOST' % run_id,
                         topo.values['RC_HOST'])
        self.assertEqual('CUSTOM_CONFORMANCE_ZUUL_%s_DISK_GB' % run_id,
                         topo.values['RC_DISK-GB'])
        self.assertEqual(run_id, run_id.upper())

    def test_traits_are_custom_upper_case(self):
        topo = self.build()
        traits = [c[1] for c in self.client.named('create_trait')]
        self.assertEqual([topo.values['TRAIT_FAST']], traits)
        self.assertRegex(traits[0], CUSTOM)
        self.assertTrue(traits[0].endswith('_FAST'))

    def test_each_build_has_its_own_run_id(self):
        first = self.build().values['RC_HOST']
        second = self.build().values['RC_HOST']
        self.assertNotEqual(first, second)

    def test_providers_get_prefixed_names_and_fresh_uuids(self):
        self.build()
        created = self.client.named('create_provider')
        self.assertEqual(4, len(created))
        run_id = self.topo.values['RC_HOST'].split('_')[3].lower()
        for _, name, rp_uuid, _ in created:
            self.assertTrue(name.startswith('conformance-zuul-%s-' % run_id),
                            name)
            self.assertEqual(rp_uuid, str(uuid.UUID(rp_uuid)))

    def test_parent_uuid_is_passed_for_children(self):
        self.build()
        parents = {c[1].rsplit('-', 1)[1]: c[3]
                   for c in self.client.named('create_provider')}
        self.assertIsNone(parents['root'])
        self.assertIsNone(parents['share'])
        self.assertEqual(self.uuid_of('root'), parents['child'])
        self.assertEqual(self.uuid_of('child'), parents['grandchild'])

    def test_inventory_uses_the_custom_resource_class(self):
        self.build()
        inv = {c[1]: c[3] for c in self.client.named('set_inventories')}
        self.assertEqual({self.topo.values['RC_HOST']: 4},
                         inv[self.uuid_of('root')])
        self.assertEqual({self.topo.values['RC_DISK-GB']: 100},
                         inv[self.uuid_of('share')])
        self.assertNotIn(self.uuid_of('grandchild'), inv)

    def test_generations_follow_the_answers(self):
        # The fake client raises on a stale generation.
        self.build()
        self.assertEqual(3, self.client.generations[self.uuid_of('root')])
        self.assertEqual(0, self.client.generations[
            self.uuid_of('grandchild')])

    def test_aggregates_are_set_by_uuid(self):
        self.build()
        aggs = {c[1]: c[3] for c in self.client.named('set_aggregates')}
        self.assertEqual([self.topo.values['AGG_A']],
                         aggs[self.uuid_of('root')])
        self.assertEqual([self.topo.values['AGG_A'],
                          self.topo.values['AGG_B']],
                         aggs[self.uuid_of('share')])
        for value in aggs[self.uuid_of('share')]:
            self.assertEqual(value, str(uuid.UUID(value)))

    def test_shared_provider_gets_the_sharing_trait(self):
        self.build()
        traits = {c[1]: c[3] for c in self.client.named('set_traits')}
        self.assertEqual(['MISC_SHARES_VIA_AGGREGATE'],
                         traits[self.uuid_of('share')])
        self.assertEqual([self.topo.values['TRAIT_FAST']],
                         traits[self.uuid_of('root')])
        self.assertNotIn(self.uuid_of('child'), traits)

    def test_absent_aggregate_gets_a_uuid_but_no_provider(self):
        self.build()
        ghost = self.topo.values['AGG_GHOST']
        self.assertEqual(ghost, str(uuid.UUID(ghost)))
        for call in self.client.named('set_aggregates'):
            self.assertNotIn(ghost, call[3])
        self.assertNotIn(ghost, (self.topo.values['AGG_A'],
                                 self.topo.values['AGG_B']))

    def test_provider_names_maps_uuid_to_name(self):
        self.build()
        self.assertEqual(
            {self.uuid_of(n): n
             for n in ('root', 'child', 'grandchild', 'share')},
            self.topo.provider_names)

    def test_cleanups_ignore_not_found(self):
        self.build()
        for func, _args in self.cleanups:
            self.assertIs(test_utils.call_and_ignore_notfound_exc, func)

    def test_cleanups_remove_children_first_and_classes_last(self):
        self.build()
        for func, args in reversed(self.cleanups):  # LIFO, like testtools
            func(*args)
        deleted = self.client.deleted
        position = {d: i for i, d in enumerate(deleted)}

        def deleted_at(name):
            return position[('provider', self.uuid_of(name))]

        self.assertLess(deleted_at('grandchild'), deleted_at('child'))
        self.assertLess(deleted_at('child'), deleted_at('root'))
        kinds = [kind for kind, _ in deleted]
        self.assertEqual(['provider'] * 4 + ['trait', 'resource_class',
                                             'resource_class'], kinds)
        created_rcs = {c[1] for c in self.client.named(
            'create_resource_class')}
        self.assertEqual(created_rcs, {name for kind, name in deleted
                                       if kind == 'resource_class'})

    def test_every_real_topology_builds(self):
        topologies = gabbi_files.topologies('placement')
        for name, spec in topologies.items():
            topo = self.build(spec, prefix='conformance')
            self.assertEqual(len(spec.get('providers', {})),
                             len(topo.provider_names), name)
            for call in self.client.named('create_resource_class'):
                self.assertRegex(call[1], CUSTOM)
            for call in self.client.named('set_inventories'):
                for rc in call[3]:
                    self.assertRegex(rc, CUSTOM)

    def test_spec_figure_shares_through_ss1_and_ss2(self):
        spec = gabbi_files.topologies('placement')['spec_figure']
        self.build(spec, prefix='conformance')
        shared = {c[1] for c in self.client.named('set_traits')
                  if topology.SHARING_TRAIT in c[3]}
        self.assertEqual({self.uuid_of('ss1'), self.uuid_of('ss2')}, shared)

    def test_value_names_are_exactly_what_build_defines(self):
        # The loader checks $RUN names against value_names() without a
        # cloud; they must be the names a build really gives values to.
        for spec in [SPEC] + list(
                gabbi_files.topologies('placement').values()):
            self.assertEqual(set(self.build(spec).values),
                             topology.value_names(spec))

    def test_real_absent_aggregates_are_never_set(self):
        for spec in gabbi_files.topologies('placement').values():
            self.build(spec, prefix='conformance')
            absent = {self.topo.values[a.upper()]
                      for a in spec.get('absent_aggregates', [])}
            for call in self.client.named('set_aggregates'):
                self.assertFalse(absent & set(call[3]))


class IgnoreNotFoundTest(testtools.TestCase):

    def test_not_found_is_swallowed(self):
        from tempest.lib import exceptions as lib_exc

        def gone(name):
            raise lib_exc.NotFound(name)

        self.assertIsNone(test_utils.call_and_ignore_notfound_exc(gone, 'x'))

    def test_other_errors_propagate(self):
        def broken(name):
            raise RuntimeError(name)

        self.assertRaises(RuntimeError,
                          test_utils.call_and_ignore_notfound_exc,
                          broken, 'x')

    def test_arguments_are_passed(self):
        seen = []
        test_utils.call_and_ignore_notfound_exc(seen.append, 'x')
        self.assertEqual(['x'], seen)
