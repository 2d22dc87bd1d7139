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

"""tools/reference_seconds.py: the reference run's seconds by id."""

import io
import json
import os

import fixtures
import testtools

from conformance_tests.tools import reference_seconds


class ReferenceSecondsTest(testtools.TestCase):

    def test_tests_that_ran_are_kept_by_id_skips_left_out(self):
        times = {
            'a': {'id': '1', 'status': 'success', 'seconds': 3.04},
            'b': {'id': '2', 'status': 'fail', 'seconds': 7.26},
            'c': {'id': '3', 'status': 'skip', 'seconds': 0.01},
            'd': {'id': None, 'status': 'success', 'seconds': 1.0}}
        self.assertEqual({'1': 3.0, '2': 7.3},
                         reference_seconds.seconds_by_id(times))

    def test_missing_stream_is_one_line(self):
        err = self.useFixture(fixtures.MonkeyPatch(
            'sys.stderr', io.StringIO())).new_value
        out = os.path.join(self.useFixture(fixtures.TempDir()).path, 'r')
        self.assertEqual(2, reference_seconds.main(
            ['/nonexistent/results.subunit', '--output', out]))
        self.assertEqual(1, len(err.getvalue().splitlines()))
        self.assertFalse(os.path.exists(out))

    def test_a_stream_is_written_as_seconds_by_id(self):
        out = os.path.join(self.useFixture(fixtures.TempDir()).path, 'r')
        self.useFixture(fixtures.MockPatch(
            'conformance_tests.bench.subunit_times.read_file',
            return_value={'a': {'id': '1', 'status': 'success',
                                'seconds': 2.0}}))
        self.useFixture(fixtures.MockPatch('os.path.isfile',
                                           return_value=True))
        self.useFixture(fixtures.MonkeyPatch('sys.stdout', io.StringIO()))
        self.assertEqual(0, reference_seconds.main(['x.subunit',
                                                    '--output', out]))
        with open(out) as f:
            self.assertEqual({'1': 2.0}, json.load(f)['seconds'])
