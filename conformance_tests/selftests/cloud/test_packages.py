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
