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

"""tools/docs_build.py: its refusals are one line; the suite's pins never
reach the documentation tools."""

import io

import fixtures
import testtools

from conformance_tests.tools import docs_build


class DocsBuildTest(testtools.TestCase):

    def test_not_a_git_checkout_is_one_line(self):
        root = self.useFixture(fixtures.TempDir()).path
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.tools.docs_build.ROOT', root))
        err = io.StringIO()
        self.useFixture(fixtures.MonkeyPatch('sys.stderr', err))
        self.assertEqual(2, docs_build.main(['--workdir', root]))
        self.assertEqual(1, len(err.getvalue().splitlines()))
        self.assertIn('not a git checkout', err.getvalue())

    def test_the_suites_constraints_are_dropped(self):
        self.useFixture(fixtures.EnvironmentVariable(
            'PIP_CONSTRAINT', '/x/upper-constraints.txt'))
        self.useFixture(fixtures.EnvironmentVariable('HOME', '/root'))
        env = docs_build.clean_env()
        self.assertNotIn('PIP_CONSTRAINT', env)
        self.assertEqual('/root', env['HOME'])

    def test_a_failed_step_names_its_log(self):
        log = self.useFixture(fixtures.TempDir()).join('build.log')
        error = self.assertRaises(docs_build.BuildError, docs_build._run,
                                  ['false'], 'reno lint', log)
        self.assertEqual('reno lint failed (exit 1): see %s' % log,
                         str(error))
