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

"""tools/doc_mutants.py: doc/mutants.md's tables come from the registry,
and pep8 notices when they no longer do."""

import contextlib
import io
import os

import fixtures
import testtools

from conformance_tests.cloud import mutants
from conformance_tests.tools import doc_mutants

PAGE = ('prose\n<!-- generated: mutants -->\nstale row\n'
        '<!-- end generated -->\nmore prose\n'
        '<!-- generated: references -->\n<!-- end generated -->\n')


class DocMutantsTest(testtools.TestCase):

    def test_every_mutant_and_reference_gets_a_row(self):
        text = doc_mutants.render(PAGE)
        self.assertNotIn('stale row', text)
        self.assertTrue(text.startswith('prose\n'))
        self.assertIn('more prose\n', text)
        for entry in mutants.all_mutants() + mutants.all_references():
            self.assertIn('| %s |' % entry.name, text)

    def test_kind_says_wrong_reason_and_profile(self):
        text = doc_mutants.render(PAGE)
        wrong = [m for m in mutants.all_mutants() if m.wrong_reason]
        on_ref = [m for m in mutants.all_mutants()
                  if m.profile and not m.wrong_reason]
        self.assertNotEqual([], wrong)
        self.assertNotEqual([], on_ref)
        self.assertIn('| %s | %s | wrong reason |' % (
            wrong[0].name, wrong[0].service), text)
        self.assertIn('| %s | %s | on spec-reference |' % (
            on_ref[0].name, on_ref[0].service), text)

    def test_unknown_block_is_refused(self):
        self.assertRaises(ValueError, doc_mutants.render,
                          '<!-- generated: nope -->\n<!-- end generated -->')

    def test_check_fails_on_a_stale_page_and_passes_on_a_fresh_one(self):
        root = self.useFixture(fixtures.TempDir()).path
        os.mkdir(os.path.join(root, 'doc'))
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.tools.doc_mutants.DOC',
            os.path.join(root, 'doc', 'mutants.md')))
        with open(doc_mutants.DOC, 'w') as f:
            f.write(PAGE)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(1, doc_mutants.main(['--check']))
        self.assertIn('run python -m conformance_tests.tools.doc_mutants',
                      out.getvalue())
        self.assertEqual(0, doc_mutants.main([]))
        self.assertEqual(0, doc_mutants.main(['--check']))
