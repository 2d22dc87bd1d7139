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

"""cloud/packages.py: refusing to start on missing or unpinned packages."""

from importlib import metadata

import fixtures
import testtools

from conformance_tests.cloud import packages
from conformance_tests.cloud import services


def _services(*names):
    return [services.get(n) for n in names]


class PinsTest(testtools.TestCase):

    def test_pins_cover_the_cloud_services(self):
        pins = packages.pins()
        for service in services.all():
            if service.distribution:
                self.assertIn(packages._norm(service.distribution), pins,
                              service.name)

    def test_names_are_normalised(self):
        self.assertEqual('openstack-placement',
                         packages._norm('OpenStack_Placement'))
        self.assertEqual('a-b', packages._norm('a.-_b'))


class CheckPinnedTest(testtools.TestCase):

    def patch_version(self, **kwargs):
        return self.useFixture(fixtures.MockPatchObject(
            packages.metadata, 'version', **kwargs)).mock

    def test_installed_pinned_services_are_fine(self):
        self.assertIsNone(packages.check_pinned(
            _services('keystone', 'placement')))

    def test_no_services_is_fine(self):
        self.assertIsNone(packages.check_pinned([]))

    def test_accepts_a_generator(self):
        self.assertIsNone(packages.check_pinned(
            s for s in _services('keystone', 'placement')))

    def test_not_installed(self):
        self.patch_version(side_effect=metadata.PackageNotFoundError(
            'openstack-placement'))
        problem = packages.check_pinned(_services('placement'))
        self.assertIn('not installed', problem)
        self.assertIn('openstack-placement==', problem)
        self.assertNotIn('\n', problem)
        self.assertIn('upper-constraints.txt', problem)

    def test_version_mismatch(self):
        self.patch_version(return_value='0.0.1')
        problem = packages.check_pinned(_services('keystone'))
        self.assertIn('pins', problem)
        self.assertIn('keystone 0.0.1 is installed', problem)
        self.assertIn(packages.pins()['keystone'], problem)
        self.assertNotIn('\n', problem)

    def test_first_problem_is_reported(self):
        mocked = self.patch_version(return_value='0.0.1')
        problem = packages.check_pinned(_services('keystone', 'placement'))
        self.assertIn('keystone', problem)
        mocked.assert_called_once_with('keystone')

    def test_our_own_services_need_no_package(self):
        mocked = self.patch_version(return_value='0.0.1')
        self.assertIsNone(packages.check_pinned(_services('network-stub')))
        mocked.assert_not_called()

    def test_unpinned_distribution_is_accepted(self):
        self.useFixture(fixtures.MockPatchObject(
            packages, 'pins', return_value={}))
        self.patch_version(return_value='0.0.1')
        self.assertIsNone(packages.check_pinned(_services('keystone')))


class ReleasePinsTest(testtools.TestCase):
    """$CONFORMANCE_RELEASE (set by `--release`) picks the pins."""

    def release(self, value):
        self.useFixture(fixtures.EnvironmentVariable(
            packages.RELEASE_VARIABLE, value))

    def test_unset_is_the_current_series(self):
        from conformance_tests.cloud import releases
        self.release(None)
        self.assertEqual(releases.CURRENT, packages.release())
        self.assertEqual(packages._pins_source()[1], packages.CONSTRAINTS)

    def test_older_series_reads_its_services_file(self):
        self.release('2024.1')
        pins = packages.pins()
        self.assertEqual('29.4.0', pins['nova'])
        self.assertEqual('46.0.0', pins['tempest'])

    def test_older_series_mismatch_names_its_file(self):
        self.release('2024.1')
        self.useFixture(fixtures.MockPatchObject(
            packages.metadata, 'version', return_value='30.0.0'))
        problem = packages.check_pinned(_services('keystone'))
        self.assertIn('keystone 30.0.0 is installed but '
                      'constraints/2024.1.services.txt pins 25.0.0', problem)
        self.assertIn('--release 2024.1', problem)
        self.assertNotIn('\n', problem)

    def test_unknown_series_is_one_line(self):
        self.release('1999.1')
        problem = packages.check_pinned(_services('keystone'))
        self.assertIn('unknown release', problem)
        self.assertNotIn('\n', problem)


class InstalledVersionTest(testtools.TestCase):

    def patch_version(self, **kwargs):
        return self.useFixture(fixtures.MockPatchObject(
            packages.metadata, 'version', **kwargs)).mock

    def test_numbers(self):
        self.patch_version(return_value='29.4.0')
        self.assertEqual((29, 4, 0), packages.installed_version('nova'))
        self.patch_version(return_value='34.0.0.0rc1')
        self.assertEqual((34, 0, 0), packages.installed_version('nova'))

    def test_not_installed(self):
        self.patch_version(side_effect=metadata.PackageNotFoundError('x'))
        self.assertIsNone(packages.installed_version('x'))
