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

"""cmd/main.py `--release`: re-running a command in a series'
virtualenv (no virtualenv built, nothing executed)."""

import contextlib
import io
import os

import fixtures
import testtools

from conformance_tests.cloud import releases
from conformance_tests.cmd import main
from conformance_tests.cmd import run as run_cmd


class ReleaseOptionTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.venv = self.useFixture(fixtures.TempDir()).path
        os.makedirs(os.path.join(self.venv, 'bin'))
        self.program = os.path.join(self.venv, 'bin', 'conformance')
        with open(self.program, 'w') as f:
            f.write('#!/bin/sh\n')
        os.chmod(self.program, 0o755)
        self.built = []

        def ensure_venv(series, say):
            self.built.append(series)
            return self.venv
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cloud.releases.ensure_venv', ensure_venv))
        self.execs = []

        def execve(path, argv, env):
            self.execs.append((path, argv, env))
            raise SystemExit(0)
        self.useFixture(fixtures.MonkeyPatch('os.execve', execve))

        def no_spawn(*args, **kwargs):
            raise AssertionError('a self-test tried to start the cloud')
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cloud.launcher.EmbeddedCloud.up', no_spawn))
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cmd.run.cmd_run', no_spawn))

    def run_main(self, argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main.main(argv)
            except SystemExit as e:
                code = e.code
        return code, out.getvalue(), err.getvalue()

    def test_older_series_reexecutes_in_its_virtualenv(self):
        code, out, err = self.run_main([
            'run', '--release', '2024.1', '--seed', '003', '--workdir',
            '/tmp/x'])
        self.assertEqual(0, code)
        self.assertEqual(['2024.1'], self.built)
        [(path, argv, env)] = self.execs
        self.assertEqual(self.program, path)
        self.assertEqual([self.program, 'run', '--seed', '003',
                          '--workdir', '/tmp/x'], argv)
        self.assertEqual('2024.1', env['CONFORMANCE_RELEASE'])
        self.assertEqual(self.venv, env['VIRTUAL_ENV'])
        self.assertTrue(env['PATH'].startswith(
            os.path.join(self.venv, 'bin')))

    def test_cloud_up_takes_it_too(self):
        self.run_main(['cloud', 'up', '--release=2025.1', '--detach'])
        [(_, argv, env)] = self.execs
        self.assertEqual([self.program, 'cloud', 'up', '--detach'], argv)
        self.assertEqual('2025.1', env['CONFORMANCE_RELEASE'])

    def test_current_series_changes_nothing(self):
        ran = []
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cmd.run.cmd_run',
            lambda args: ran.append(args.seed) or 0))
        for argv in (['run', '--seed', '003'],
                     ['run', '--release', releases.CURRENT, '--seed', '003']):
            self.assertEqual(0, main.main(argv))
        # Both ran here, in this interpreter.
        self.assertEqual([['003'], ['003']], ran)
        self.assertEqual([], self.built)
        self.assertEqual([], self.execs)

    def test_a_vendor_cloud_series_is_judged_here_not_rebuilt(self):
        seen = []
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cmd.run.cmd_run',
            lambda args: seen.append(run_cmd.judged_release(args)) or 0))
        for series, judged in (('2024.1', '2024.1'),
                               (releases.CURRENT, None)):
            code, out, err = self.run_main([
                'run', '--tempest-conf', '/etc/tempest/tempest.conf',
                '--release', series])
            self.assertEqual(0, code, err)
            self.assertEqual(judged, seen.pop())
        self.assertEqual([], self.built)
        self.assertEqual([], self.execs)

    def test_default_is_current(self):
        args = main.build_parser().parse_args(['run'])
        self.assertEqual(releases.CURRENT, args.release)
        args = main.build_parser().parse_args(['cloud', 'up'])
        self.assertEqual(releases.CURRENT, args.release)

    def test_build_failure_is_one_line_exit_2(self):
        def ensure_venv(series, say):
            raise releases.ReleaseError('cannot build the 2024.1 virtualenv: '
                                        'pip install could not install x')
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.cloud.releases.ensure_venv', ensure_venv))
        code, out, err = self.run_main(['run', '--release', '2024.1'])
        self.assertEqual(2, code)
        self.assertEqual(1, len(err.strip().splitlines()))
        self.assertIn('could not install x', err)
        self.assertNotIn('Traceback', err)
        self.assertEqual([], self.execs)

    def test_virtualenv_without_the_command_is_one_line(self):
        os.remove(self.program)
        code, out, err = self.run_main(['cloud', 'up', '--release', '2024.1'])
        self.assertEqual(2, code)
        self.assertIn('builds it again', err)
        self.assertEqual(1, len(err.strip().splitlines()))

    def test_unknown_series_is_a_usage_error(self):
        code, out, err = self.run_main(['run', '--release', '1999.1'])
        self.assertEqual(2, code)
        self.assertIn('invalid choice', err)
        self.assertEqual([], self.built)
