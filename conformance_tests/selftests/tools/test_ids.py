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

"""tools/: the pep8 check for gabbi ids (check_zuul: test_check_zuul)."""

import fixtures
import testtools

from conformance_tests.tools import check_gabbi_ids
from conformance_tests.tools import ids


class CheckGabbiIdsTest(testtools.TestCase):

    def test_real_tree_has_no_problems(self):
        self.assertEqual([], check_gabbi_ids.problems())

    def test_yaml_ids_are_found(self):
        self.assertGreater(len(ids.yaml_ids()), 0)

    def test_unclaimed_test_is_reported(self):
        real = ids.yaml_ids()
        extra = dict(real)
        extra['99999999-9999-4999-8999-999999999999'] = ['x.yaml']
        self.useFixture(fixtures.MockPatchObject(
            ids, 'yaml_ids', return_value=extra))
        found = check_gabbi_ids.problems()
        self.assertEqual(1, len(found), found)
        self.assertIn('belongs to no capability', found[0])

    def test_missing_test_is_reported(self):
        real = ids.yaml_ids()
        fewer = dict(real)
        gone = sorted(fewer)[0]
        del fewer[gone]
        self.useFixture(fixtures.MockPatchObject(
            ids, 'yaml_ids', return_value=fewer))
        found = check_gabbi_ids.problems()
        self.assertEqual(1, len(found), found)
        self.assertIn(gone, found[0])
        self.assertIn('does not exist', found[0])

    def test_duplicate_id_is_reported(self):
        real = ids.yaml_ids()
        doubled = {k: v * 2 for k, v in real.items()}
        self.useFixture(fixtures.MockPatchObject(
            ids, 'yaml_ids', return_value=doubled))
        found = check_gabbi_ids.problems()
        self.assertEqual(len(real), len(found))
        self.assertIn('used 2 times', found[0])
