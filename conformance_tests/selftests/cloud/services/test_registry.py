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

"""cloud/services/: the registry of descriptors, no service started."""

import importlib
import subprocess
import sys

import testtools

from conformance_tests.cloud import packages
from conformance_tests.cloud import services
from conformance_tests.cloud.services import base


def _service(name, **attrs):
    service = base.Service()
    service.name = name
    service.process = attrs.pop('process', name)
    for key, value in attrs.items():
        setattr(service, key, value)
    return service


class RegistryTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.services = services.all()

    def test_every_descriptor_is_complete(self):
        for s in self.services:
            self.assertTrue(s.name, s)
            self.assertTrue(s.process, s.name)
            self.assertTrue(s.listeners, s.name)
            self.assertIsInstance(s.mutants_modules, tuple, s.name)

    def test_names_are_unique(self):
        names = [s.name for s in self.services]
        self.assertEqual(len(names), len(set(names)))

    def test_no_two_listeners_share_a_port(self):
        ports = services.assign_ports(self.services, 18200)
        flat = [p for listeners in ports.values()
                for p in listeners.values()]
        self.assertEqual(len(flat), len(set(flat)))
        self.assertEqual(list(range(18200, 18200 + len(flat))),
                         sorted(flat))

    def test_every_listener_has_a_port(self):
        ports = services.assign_ports(self.services, 18200)
        for s in self.services:
            self.assertEqual({li.name for li in s.listeners},
                             set(ports[s.name]), s.name)

    def test_every_distribution_is_pinned(self):
        pins = packages.pins()
        for s in self.services:
            if s.distribution:
                self.assertIn(packages._norm(s.distribution), pins, s.name)

    def test_catalog_entries_point_at_own_listeners(self):
        for s in self.services:
            own = {li.name for li in s.listeners}
            for entry in s.catalog:
                self.assertIn(entry.listener, own, s.name)

    def test_exactly_one_identity_service_and_it_starts_first(self):
        identity = [s for s in self.services if s.provides_identity]
        self.assertEqual(1, len(identity))
        self.assertIs(identity[0], self.services[0])
        self.assertIn('identity', [e.type for e in identity[0].catalog])

    def test_dependencies_start_first(self):
        seen = set()
        for s in self.services:
            self.assertFalse(set(s.depends_on) - seen, s.name)
            seen.add(s.name)

    def test_mutants_modules_import(self):
        for s in self.services:
            for module in s.mutants_modules:
                importlib.import_module(module)

    def test_every_mutant_lives_in_the_folder_of_the_service_naming_it(self):
        # A mutant may patch another service's process (blazar's filter
        # runs in nova's scheduler), but the service that needs it declares
        # it, from its own folder.
        from conformance_tests.cloud import mutants
        by_name = {s.name: s for s in self.services}
        declared_by = {m: s for s in self.services
                       for m in s.mutants_modules}
        for mutant in mutants.all_mutants():
            self.assertIn(mutant.service, by_name, mutant.name)
            owner = declared_by.get(mutant.apply.__module__)
            self.assertIsNotNone(owner, mutant.name)
            self.assertTrue(mutant.apply.__module__.startswith(
                type(owner).__module__ + '.'), mutant.name)

    def test_contributions_go_to_offered_hooks(self):
        offered = {h for s in self.services for h in s.hooks_offered}
        for s in self.services:
            for hook in s.contributions():
                self.assertIn(hook, offered, s.name)

    def test_settings_have_one_default(self):
        defaults = {}
        for s in self.services:
            for key, value in s.settings.items():
                self.assertEqual(defaults.setdefault(key, value), value, key)

    def test_descriptor_modules_import_no_upstream_service(self):
        # The launcher imports every descriptor; upstream code belongs in
        # the service process only (and would make `cloud up` slow).
        tops = sorted({s.distribution.replace('openstack-', '')
                       for s in self.services if s.distribution})
        code = ('import sys; from conformance_tests.cloud import launcher; '
                'print(" ".join(m for m in %r if m in sys.modules))' % tops)
        done = subprocess.run([sys.executable, '-c', code],
                              capture_output=True, text=True, check=True)
        self.assertEqual('', done.stdout.strip())


class StartOrderTest(testtools.TestCase):

    def test_dependencies_move_ahead_of_registration_order(self):
        a = _service('a', depends_on=('b',))
        b = _service('b')
        self.assertEqual(['b', 'a'],
                         [s.name for s in services.start_order([a, b])])

    def test_registration_order_is_kept_otherwise(self):
        names = ['x', 'y', 'z']
        ordered = services.start_order([_service(n) for n in names])
        self.assertEqual(names, [s.name for s in ordered])

    def test_unknown_dependency(self):
        e = self.assertRaises(services.RegistryError, services.start_order,
                              [_service('a', depends_on=('nope',))])
        self.assertIn('nope', str(e))

    def test_cycle(self):
        e = self.assertRaises(services.RegistryError, services.start_order, [
            _service('a', depends_on=('b',)),
            _service('b', depends_on=('a',))])
        self.assertIn('cycle', str(e))

    def test_duplicate_name(self):
        self.assertRaises(services.RegistryError, services.start_order,
                          [_service('a'), _service('a')])


class SettingsTest(testtools.TestCase):

    def test_defaults(self):
        settings = services.resolve_settings(services.all(), {})
        self.assertIs(True, settings['count_usage_from_placement'])

    def test_given_value_wins(self):
        settings = services.resolve_settings(
            services.all(), {'count_usage_from_placement': False})
        self.assertIs(False, settings['count_usage_from_placement'])

    def test_cloud_wide_settings(self):
        settings = services.resolve_settings(services.all(),
                                             {'spec_reference': True})
        self.assertIs(True, settings['spec_reference'])
        self.assertIs(False, services.resolve_settings(
            services.all(), {})['spec_reference'])

    def test_unknown_setting(self):
        e = self.assertRaises(TypeError, services.resolve_settings,
                              services.all(), {'bogus': 1})
        self.assertIn('bogus', str(e))

    def test_profiles_only_use_known_settings(self):
        from conformance_tests.cloud import profiles
        for name in profiles.names():
            services.resolve_settings(services.all(),
                                      profiles.settings(name))


class ServingTest(testtools.TestCase):
    """A mutant's cloud runs only what serves its tests (cmd/mutants.py)."""

    def names(self, *types, processes=()):
        return [s.name for s in services.serving(types, processes)]

    def test_a_type_brings_its_service_and_what_it_depends_on(self):
        self.assertEqual(['keystone', 'placement'], self.names('placement'))

    def test_a_service_brings_what_shares_its_process(self):
        # nova's network stub runs in nova's process: nova cannot start
        # without it.
        self.assertEqual(
            ['keystone', 'placement', 'network-stub', 'nova', 'glance'],
            self.names('compute', 'image'))

    def test_what_no_test_calls_is_left_out(self):
        names = self.names('reservation', 'compute', 'image')
        self.assertIn('blazar', names)
        self.assertNotIn('senlin', names)
        self.assertNotIn('orchestration-stub', names)

    def test_a_process_brings_all_of_its_services(self):
        names = self.names('placement', processes=['senlin'])
        self.assertIn('orchestration-stub', names)
        self.assertIn('nova', names)  # senlin depends on it

    def test_the_order_is_the_whole_cloud_order(self):
        whole = [s.name for s in services.all()]
        names = self.names('clustering', 'reservation')
        self.assertEqual([n for n in whole if n in names], names)
        self.assertEqual(whole, names)  # both need everything

    def test_an_unknown_type_is_named(self):
        e = self.assertRaises(ValueError, services.serving, ['nope'])
        self.assertIn('no embedded service serves nope', str(e))

    def test_every_guideline_is_served(self):
        from conformance_tests.report import guidelines
        for cap in guidelines.load_all():
            self.assertTrue(cap['services'], cap['id'])
            served = self.names(*cap['services'])
            self.assertIn('keystone', served, cap['id'])
