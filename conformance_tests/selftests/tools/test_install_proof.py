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

"""tools/install_proof.py: what a listing or an install must show."""

import os
import subprocess

import fixtures
import testtools

from conformance_tests.cloud import releases
from conformance_tests.devstack import sources
from conformance_tests.tools import install_proof

OURS = ('conformance_tests.api.placement.test_x.XTest.test_a'
        '[id-11111111-1111-4111-8111-111111111111]')
BLAZAR = 'blazar_tempest_plugin.tests.api.test_leases.T.test_l[id-b]'
SENLIN = 'senlin_tempest_plugin.tests.api.test_c.T.test_c[id-s]'
WANTED = {'11111111-1111-4111-8111-111111111111'}


class ListingProblemsTest(testtools.TestCase):

    def test_every_id_listed_and_the_others_unchanged_holds(self):
        before = {BLAZAR, SENLIN}
        self.assertEqual([], install_proof.listing_problems(
            before, before | {OURS}, WANTED))

    def test_a_guideline_id_not_listed_is_named(self):
        problems = install_proof.listing_problems(
            {BLAZAR, SENLIN}, {BLAZAR, SENLIN}, WANTED)
        self.assertEqual(1, len(problems))
        self.assertIn('lacks 1 test(s) of guidelines/: 11111111', problems[0])

    def test_another_plugin_losing_a_test_is_named(self):
        problems = install_proof.listing_problems(
            {BLAZAR, SENLIN}, {OURS, SENLIN}, WANTED)
        self.assertEqual(["blazar-tempest-plugin's tests changed beside "
                          "ours: 1 lost, 0 gained"], problems)

    def test_a_plugin_listing_nothing_proves_nothing(self):
        problems = install_proof.listing_problems(
            {SENLIN}, {OURS, SENLIN}, WANTED)
        self.assertEqual(['blazar-tempest-plugin lists no test: nothing to '
                          'compare'], problems)


class SeriesFilesTest(testtools.TestCase):

    def test_each_default_series_names_its_tempest(self):
        for series in install_proof.DEFAULT_SERIES:
            version = install_proof.tempest_version(series)
            self.assertRegex(version, r'^\d+\.\d+\.\d+$', series)
            self.assertTrue(os.path.exists(
                install_proof.constraints_file(series)))

    def test_older_series_are_upstreams_files_with_their_gabbi_pin(self):
        # DevStack installs under upstream's file as it is: the proof must
        # too, or a requirement the branch cannot hold would pass here.
        with open(install_proof.constraints_file('2024.1')) as f:
            self.assertIn('gabbi===2.4.0\n', f.read())

    def test_today_is_the_clouds_own_pins(self):
        self.assertEqual('upper-constraints.txt', os.path.basename(
            install_proof.constraints_file(releases.CURRENT)))


class OptionsTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.err = self.useFixture(fixtures.StringStream('stderr'))
        self.useFixture(fixtures.MonkeyPatch('sys.stderr', self.err.stream))
        self.useFixture(fixtures.MonkeyPatch('sys.stdout', self.err.stream))

    def test_a_python_for_without_a_series_is_one_line(self):
        self.assertEqual(2, install_proof.main(['--python-for', 'python3']))
        text = self.err.getDetails()['stderr'].as_text()
        self.assertIn('give SERIES=PYTHON', text)
        self.assertEqual(1, len(text.strip().splitlines()))

    def test_an_interpreter_that_does_not_exist_is_one_line(self):
        self.assertEqual(2, install_proof.main(
            ['--python-for', '2024.1=/nonexistent/python3.10']))
        self.assertIn('no interpreter', self.err.getDetails()[
            'stderr'].as_text())

    def test_a_series_without_a_gate_python_uses_this_one(self):
        import sys
        self.assertEqual(sys.executable, install_proof.gate_python('2025.1'))


class EnvironmentTest(testtools.TestCase):

    def test_todays_pins_never_reach_another_series_install(self):
        self.useFixture(fixtures.EnvironmentVariable(
            'PIP_CONSTRAINT', '/somewhere/upper-constraints.txt'))
        self.assertNotIn('PIP_CONSTRAINT', install_proof.clean_env())
        self.assertEqual('x', install_proof.clean_env(HOME='x')['HOME'])


class SourceTreeTest(testtools.TestCase):
    """The wheel is built from what a user builds from, never from the
    checkout's workdirs (CI: setuptools walked into a root another
    proof was booting under .conformance, and the build failed)."""

    def setUp(self):
        super().setUp()
        self.repo = self.useFixture(fixtures.TempDir()).path
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.tools.install_proof.ROOT', self.repo))
        env = dict(os.environ, **sources.GIT_ENV)
        self._write('.gitignore', '/.conformance/\n')
        self._write('setup.cfg', '[metadata]\n')
        for argv in (['init', '-q', '-b', 'main'], ['add', '-A'],
                     ['commit', '-q', '-m', 'one']):
            subprocess.run(['git', '-C', self.repo] + argv, check=True,
                           env=env, stdout=subprocess.DEVNULL)

    def _write(self, name, text):
        path = os.path.join(self.repo, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(text)

    def test_ignored_workdirs_stay_out_and_edits_come_in(self):
        self._write('.conformance/packaged/root/etc/hostname', 'node\n')
        self._write('setup.cfg', '[metadata]\nname = edited\n')
        scratch = os.path.join(self.useFixture(fixtures.TempDir()).path,
                               'src')
        tree = install_proof._source_tree(scratch)
        self.assertEqual(scratch, tree)
        self.assertFalse(os.path.exists(os.path.join(tree, '.conformance')))
        with open(os.path.join(tree, 'setup.cfg')) as f:
            self.assertEqual('[metadata]\nname = edited\n', f.read())

    def test_an_unpacked_sdist_is_built_where_it_is(self):
        os.rename(os.path.join(self.repo, '.git'),
                  os.path.join(self.repo, 'was-git'))
        self.assertEqual(self.repo, install_proof._source_tree('unused'))
