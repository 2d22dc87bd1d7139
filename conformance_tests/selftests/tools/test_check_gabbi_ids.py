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

"""tools/check_gabbi_ids.py: every refused gabbi file is reported."""

import os

import fixtures
import testtools
import yaml

from conformance_tests.tools import check_gabbi_ids

META = {'id': '2f6d8a1b-4c5e-4f7a-8b9c-3d0e1f2a6b66', 'rule': 'r',
        'min_microversion': '1.32'}


class FileProblemsTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.root = self.useFixture(fixtures.TempDir()).path
        os.mkdir(os.path.join(self.root, 'placement'))
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.common.paths.data_path',
            lambda name: self.root))

    def _write(self, name, tests):
        with open(os.path.join(self.root, 'placement', name), 'w') as f:
            yaml.safe_dump({'meta': META, 'tests': tests}, f)

    def test_each_refused_file_is_one_line(self):
        self._write('a.yaml', [{'name': 'x', 'GET': '/', 'xfail': True}])
        self._write('b.yaml', [{'name': 'y', 'GET': '/', 'status': 400}])
        self._write('c.yaml', [{'name': 'z', 'GET': '/',
                                'response_json_paths': {'$.a': 1}}])
        found = check_gabbi_ids.problems()
        self.assertEqual(2, len(found), found)
        self.assertIn('a.yaml', found[0])
        self.assertIn('xfail', found[0])
        self.assertIn('b.yaml', found[1])
        self.assertIn('asserts only its status', found[1])
        for line in found:
            self.assertEqual(1, len(line.splitlines()))

    def test_good_files_give_no_file_problem(self):
        self._write('c.yaml', [{'name': 'z', 'GET': '/',
                                'response_json_paths': {'$.a': 1}}])
        self.assertEqual([], check_gabbi_ids.file_problems())
