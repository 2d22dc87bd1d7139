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

"""cloud/mutants.py: the registry, without patching the real services."""

import importlib
from unittest import mock

import testtools

from conformance_tests.cloud import mutants

# What each placement mutant patches; the patch is silently useless if
# the target moved upstream.
PLACEMENT_TARGETS = [
    ('placement.util', 'normalize_member_of_qs_params'),
    ('placement.util', 'normalize_member_of_qs_param'),
    ('placement.objects.rp_candidates', 'RPCandidateList'),
    ('placement.objects.research_context', 'get_provider_ids_matching'),
    ('placement.objects.research_context',
     'provider_ids_matching_aggregates'),
    ('placement.objects.research_context', 'get_sharing_providers'),
    ('placement.objects.resource_provider', '_get_all_by_filters_from_db'),
    ('placement.objects.resource_provider', '_RP_TBL'),
    ('placement.microversion', 'MICROVERSION_ENVIRON'),
]


class RegistryTest(testtools.TestCase):

    def test_at_least_six_placement_mutants(self):
        placement = [m for m in mutants.all_mutants()
                     if m.service == 'placement']
        self.assertGreaterEqual(len(placement), 6)

    def test_names_are_unique_and_sorted(self):
        names = [m.name for m in mutants.all_mutants()]
        self.assertEqual(len(names), len(set(names)))
        self.assertEqual(sorted(names), names)

    def test_every_mutant_has_a_rule_and_a_callable(self):
        for m in mutants.all_mutants():
            self.assertTrue(m.rule.strip(), m.name)
            self.assertTrue(callable(m.apply), m.name)

    def test_get_returns_the_mutant(self):
        first = mutants.all_mutants()[0]
        self.assertIs(first, mutants.get(first.name))

    def test_get_unknown_raises_lookup_error_listing_names(self):
        e = self.assertRaises(LookupError, mutants.get, 'nope')
        self.assertIn("'nope'", str(e))
        for m in mutants.all_mutants():
            self.assertIn(m.name, str(e))

    def test_register_twice_is_refused(self):
        name = mutants.all_mutants()[0].name
        decorate = mutants.register(name, 'x', 'scope', 'y')
        self.assertRaises(ValueError, decorate, lambda: None)

    def test_patch_targets_exist_in_installed_placement(self):
        for module, attr in PLACEMENT_TARGETS:
            self.assertTrue(hasattr(importlib.import_module(module), attr),
                            '%s.%s' % (module, attr))
        from placement.objects import rp_candidates
        self.assertTrue(hasattr(rp_candidates.RPCandidateList,
                                'filter_by_rp_nor_tree'))


class ApplyTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.mutant = [m for m in mutants.all_mutants()
                       if m.service == 'placement'][0]
        self.patch = mock.Mock()
        # The registry entry's patch is replaced: nothing real is patched.
        patcher = mock.patch.dict(mutants._REGISTRY, {
            self.mutant.name: self.mutant._replace(apply=self.patch)})
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_no_mutant_does_nothing(self):
        self.assertIsNone(mutants.apply(None, 'placement'))
        self.assertIsNone(mutants.apply('', 'placement'))
        self.patch.assert_not_called()

    def test_mutant_of_another_service_does_nothing(self):
        mutants.apply(self.mutant.name, 'keystone')
        self.patch.assert_not_called()

    def test_mutant_of_this_service_is_applied(self):
        mutants.apply(self.mutant.name, 'placement')
        self.patch.assert_called_once_with()

    def test_unknown_mutant_raises(self):
        self.assertRaises(LookupError, mutants.apply, 'nope', 'placement')
