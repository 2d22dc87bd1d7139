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

"""report/series_versions.py: a guideline's reason names the upstream
versions of the series that judged the run."""

import testtools

from conformance_tests.cloud import releases
from conformance_tests.report import build
from conformance_tests.report import series_versions

CAP = {'id': 'x.cap', 'seed': '004', 'feature': 'f', 'rule': 'r',
       'disruptive': False, 'tests': ['t1'], 'by_release': {},
       'expected_fail': {
           'status': 'fail', 'signature': 'boom',
           'reason': 'blazar {blazar} and blazar-nova {blazar-nova} do '
                     'it; {unknown} stays'}}


class SeriesVersionsTest(testtools.TestCase):

    def test_each_series_its_own_majors(self):
        self.assertEqual('blazar 15, blazar-nova 7', series_versions.fill(
            'blazar {blazar}, blazar-nova {blazar-nova}', '2025.1'))
        self.assertEqual('blazar 13', series_versions.fill(
            'blazar {blazar}', '2024.1'))

    def test_todays_series_reads_upper_constraints(self):
        self.assertEqual('blazar 18', series_versions.fill(
            'blazar {blazar}', releases.CURRENT))
        self.assertEqual('blazar 18', series_versions.fill(
            'blazar {blazar}', None))

    def test_every_series_names_blazar(self):
        for series in releases.SERIES:
            self.assertIn('blazar', series_versions.majors(series), series)

    def test_the_report_says_the_judging_series(self):
        (entry,) = build.verdicts([CAP], {}, release='2025.1',
                                  scope=set())
        self.assertEqual('blazar 15 and blazar-nova 7 do it; {unknown} '
                         'stays', entry['expected_fail_reason'])
