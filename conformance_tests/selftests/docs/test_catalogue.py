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

"""docs/catalogue.py: the catalogue page is made from guidelines/, so a
changed guideline changes the page."""

import copy

import testtools

from conformance_tests.docs import catalogue
from conformance_tests.report import guidelines


class CatalogueTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.capabilities = guidelines.load_all()

    def test_every_capability_and_its_tests_are_on_the_page(self):
        page = catalogue.render(self.capabilities)
        for cap in self.capabilities:
            self.assertIn('\n%s\n' % cap['id'], page)
            for test_id in cap['tests']:
                self.assertIn('``%s``' % test_id, page)
        self.assertIn('%d capabilities, %d of them expected to fail' % (
            len(self.capabilities),
            sum(1 for c in self.capabilities if c['expected_fail'])), page)

    def test_a_changed_guideline_changes_the_page(self):
        before = catalogue.render(self.capabilities)
        changed = copy.deepcopy(self.capabilities)
        failing = next(c for c in changed if c['expected_fail'])
        failing['rule'] = 'A rule this test wrote.'
        failing['expected_fail']['signature'] = 'a signature of this test'
        after = catalogue.render(changed)
        self.assertNotIn('A rule this test wrote.', before)
        self.assertIn('A rule this test wrote.', after)
        self.assertIn(':Signature: ``a signature of this test``', after)

    def test_an_expected_fail_names_its_cause_with_todays_versions(self):
        page = catalogue.render(self.capabilities)
        self.assertNotIn('{blazar}', page)
        self.assertIn(':On upstream (', page)

    def test_markup_in_a_rule_is_taken_literally(self):
        self.assertEqual(r'a \*b\* \`c\` rules\_ max_server \| d',
                         catalogue.escaped('a *b* `c` rules_ max_server | d'))
