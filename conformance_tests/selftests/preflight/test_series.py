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

"""Which series a cloud looks like, from nova's maximum microversion, and
the warnings when other expectations judge it: pure functions."""

import testtools

from conformance_tests.cloud import releases
from conformance_tests.preflight import series


class SeriesTest(testtools.TestCase):

    def test_every_matrix_series_has_a_nova_maximum(self):
        known = [s for s, _, _ in series.NOVA_MAXIMA]
        self.assertEqual([], [s for s in releases.SERIES if s not in known])

    def test_a_maximum_two_releases_share(self):
        found = series.of_maximum('2.100')
        self.assertEqual(['2025.1', '2025.2'], found['looks_like'])
        self.assertEqual([31, 32], found['nova_majors'])
        self.assertEqual('2025.2', found['nearest'])
        self.assertFalse(found['older_than_matrix'])

    def test_judged_by_its_own_series_no_warning(self):
        found = series.of_maximum('2.100')
        self.assertEqual([], series.judge(found, '2025.1'))
        self.assertEqual('2025.1', found['judged_by'])
        self.assertIn("judged by 2025.1's expectations",
                      series.describe(found))
        self.assertEqual([], series.judge(series.of_maximum('2.104'), None))

    def test_judged_by_today_a_2025_1_cloud_is_warned(self):
        found = series.of_maximum('2.100')
        warnings = series.judge(found, None)
        self.assertEqual(1, len(warnings))
        self.assertIn('that of 2025.1 or 2025.2', warnings[0])
        self.assertIn("%s's expectations" % releases.CURRENT, warnings[0])
        self.assertIn('pass --release 2025.1 or --release 2025.2 (the '
                      'series it runs)', warnings[0])

    def test_a_zed_cloud_is_older_than_the_matrix(self):
        # Issue 46 section 4: a Debian 12 cloud, nova 26, 2.93.
        found = series.of_maximum('2.93')
        self.assertEqual(['zed'], found['looks_like'])
        self.assertTrue(found['older_than_matrix'])
        self.assertIsNone(found['nearest'])
        warnings = series.judge(found, '2024.1')
        self.assertEqual(1, len(warnings))
        self.assertIn('older than %s' % releases.SERIES[0], warnings[0])
        self.assertIn("judged by 2024.1's", warnings[0])
        self.assertIn('zed (nova 26)', series.describe(found))

    def test_a_maximum_no_release_has(self):
        found = series.of_maximum('2.98')
        self.assertEqual([], found['looks_like'])
        self.assertEqual('2024.2', found['nearest'])
        warnings = series.judge(found, None)
        self.assertIn('of no nova release', warnings[0])
        self.assertIn('pass --release 2024.2', warnings[0])
        self.assertIn('no nova release has it', series.describe(found))

    def test_newer_than_known_is_judged_by_today_without_warning(self):
        found = series.of_maximum('2.110')
        self.assertTrue(found['newer_than_known'])
        self.assertEqual([], series.judge(found, None))
        self.assertIn('newer than 2026.2', series.describe(found))

    def test_no_compute_no_series(self):
        self.assertIsNone(series.of_findings({'services': [
            {'type': 'placement', 'microversions': ['1.0', '1.39']}]}))
        self.assertEqual([], series.judge(None, None))
        self.assertEqual('2.96', series.of_findings({'services': [
            {'type': 'compute', 'microversions': ['2.1', '2.96']}]})[
                'nova_max_microversion'])
