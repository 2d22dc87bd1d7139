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

"""cleanup/names.py: a run's names match, what the run did not make
does not. Names are produced by the real naming code where it exists
(Tempest's rand_name, the topology builder), so a change there that the
cleanup would miss fails here."""

import uuid

import testtools

from tempest.lib.common.utils import data_utils

from conformance_tests.cleanup import names
from conformance_tests.common import topology

CLASSES = ('QuotaUsageTest', 'ServerGroupSpreadTest')


class _RecordingPlacement(object):
    """Just enough of the topology client to see the names it is given."""

    def __init__(self):
        self.providers, self.classes, self.traits = [], [], []

    def create_resource_class(self, name):
        self.classes.append(name)

    def create_trait(self, name):
        self.traits.append(name)

    def create_provider(self, name, uuid, parent_uuid=None):
        self.providers.append(name)
        return {'generation': 0}

    def set_inventories(self, uuid, generation, inventories):
        return {'resource_provider_generation': generation + 1}

    def set_aggregates(self, uuid, generation, aggregates):
        return {'resource_provider_generation': generation + 1}

    def set_traits(self, uuid, generation, traits):
        return {'resource_provider_generation': generation + 1}

    # Named by the builder's cleanups, never called here.
    delete_resource_class = delete_trait = delete_provider = None


class RunNamesTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.names = names.RunNames('conformance', CLASSES,
                                    kept=('cloud-admin',))

    def test_names_the_suite_gives_are_the_runs(self):
        for name in (
                data_utils.rand_name(prefix='conformance', name='server'),
                data_utils.rand_name(prefix='conformance', name='user-b'),
                data_utils.rand_name(prefix='conformance', name='huge'),
                # nova's multi-create appends -<n> to the name given
                data_utils.rand_name(prefix='conformance',
                                     name='multi') + '-2',
                # the gabbi runner's per-file prefix
                'conformance-%s-sg-264-rules' % uuid.uuid4().hex[:8]):
            self.assertTrue(self.names.made(name), name)
            self.assertTrue(self.names.project(name), name)
            self.assertTrue(self.names.user(name), name)

    def test_topology_names_are_the_runs(self):
        client = _RecordingPlacement()
        spec = {'resource_classes': ['CORE'], 'traits': ['FAST'],
                'providers': {
                    'root': {'inventory': {'CORE': 1}},
                    'leaf': {'parent': 'root', 'traits': ['FAST']}}}
        topology.build(client, spec, 'conformance', lambda *args: None)
        for name in client.providers:
            self.assertTrue(self.names.made(name), name)
        for name in client.classes + client.traits:
            self.assertTrue(self.names.made_custom(name), name)

    def test_the_launchers_zones_are_not_the_runs(self):
        # compute_layout's zones start with the prefix but an operator
        # (the launcher) made them.
        for name in ('conformance-zone', 'conformance-cell2',
                     'conformance', 'conformance-keep', 'conformance-',
                     'conformancex-server-12', 'tempest-server-12',
                     'my-conformance-server-12', '', None):
            self.assertFalse(self.names.made(name), name)

    def test_foreign_custom_names_are_not_the_runs(self):
        for name in ('CUSTOM_CONFORMANCE_KEEP', 'CUSTOM_OTHER_1A2B3C4D_X',
                     'CUSTOM_CONFORMANCEX_1A2B3C4D_X', 'VCPU',
                     'MISC_SHARES_VIA_AGGREGATE', 'CUSTOM_CONFORMANCE_'):
            self.assertFalse(self.names.made_custom(name), name)

    def test_dynamic_credentials_of_the_plugins_classes(self):
        project = 'tempest-QuotaUsageTest-1476097597'
        self.assertTrue(self.names.project(project))
        for suffix in ('-project', '-project-admin', '-project-member',
                       '-domain', '-system-reader'):
            self.assertTrue(self.names.user(project + suffix), suffix)
        # a user name is not a project name, and the reverse
        self.assertFalse(self.names.project(project + '-project'))
        self.assertFalse(self.names.user(project))

    def test_dynamic_credentials_of_other_classes_are_not_the_runs(self):
        for name in ('tempest-SomeoneElsesTest-123',
                     'tempest-SomeoneElsesTest-123-project',
                     'tempest-QuotaUsageTestX-123',
                     'tempest-QuotaUsageTest-12a',
                     'acme-QuotaUsageTest-123',
                     'tempest-QuotaUsageTest-123-other'):
            self.assertFalse(self.names.project(name), name)
            self.assertFalse(self.names.user(name), name)

    def test_resource_name_prefix_is_accepted_too(self):
        acme = names.RunNames('conformance', CLASSES,
                              dynamic_prefixes=['acme'])
        self.assertTrue(acme.project('acme-QuotaUsageTest-123'))
        self.assertTrue(acme.project('tempest-QuotaUsageTest-123'))

    def test_kept_names_are_never_the_runs(self):
        kept = names.RunNames('tempest', ['Test'], kept=('tempest-Test-1',))
        for name in ('admin', 'service', 'tempest-Test-1'):
            self.assertFalse(kept.project(name), name)
            self.assertFalse(kept.user(name), name)
        self.assertTrue(kept.project('tempest-Test-2'))

    def test_a_prefix_with_regex_characters_is_literal(self):
        odd = names.RunNames('a.b', CLASSES)
        self.assertTrue(odd.made('a.b-server-1'))
        self.assertFalse(odd.made('axb-server-1'))

    def test_an_empty_prefix_is_refused(self):
        self.assertRaises(ValueError, names.RunNames, '', CLASSES)


class TestClassNamesTest(testtools.TestCase):

    def test_the_plugins_test_classes_are_found(self):
        found = names.test_class_names()
        for cls in ('QuotaUsageTest', 'QuotaCellOutageTest',
                    'ServerGroupSpreadTest', 'DownCellViewsTest',
                    'PlacementGabbiTest', 'ComputeGabbiTest',
                    'ServerGroupCLITest'):
            self.assertIn(cls, found)
        # only the test packages: not the cleanup's own classes
        self.assertNotIn('RunNames', found)
        self.assertNotIn('EmbeddedCloud', found)
