"""blazar's per-release choice, by installed version: eventlet mode
before blazar 18 (2024.1's blazar 13 patches its process itself)."""

import testtools

from conformance_tests.cloud.services import blazar


class EventletModeTest(testtools.TestCase):

    def test_by_major_version(self):
        self.assertTrue(blazar.eventlet_mode((13, 0, 1)))
        self.assertFalse(blazar.eventlet_mode((18, 0, 0)))

    def test_installed_blazar_of_this_virtualenv(self):
        from conformance_tests.cloud import packages
        version = packages.installed_version('blazar')
        self.assertEqual(version[0] < blazar.THREADING_MAJOR,
                         blazar.eventlet_mode())
