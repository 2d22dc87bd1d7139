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

"""cloud/releases.py: the series, their data files, their virtualenvs."""

import fcntl
import json
import os
import subprocess
import sys
import threading

import fixtures
import testtools

from conformance_tests.cloud import releases


class DataFilesTest(testtools.TestCase):

    def test_every_older_series_has_both_files(self):
        for series in releases.OLDER:
            for path in (releases.constraints_file(series),
                         releases.services_file(series)):
                with open(path) as f:
                    first = f.readline()
                self.assertTrue(first.startswith('# '), path)

    def test_constraints_name_their_source_verbatim(self):
        for series in releases.OLDER:
            with open(releases.constraints_file(series)) as f:
                text = f.read()
            self.assertIn('openstack/requirements', text.splitlines()[0])
            self.assertIn(series, text.splitlines()[0])
            names = [releases.norm(releases._name(p)) for p in
                     releases.read_pins(releases.constraints_file(series))]
            # upstream's file as DevStack installs under it: its gabbi
            # pin too, which the plugin's requirement must accept
            self.assertIn('gabbi', names)
            self.assertIn('oslo-db', names)

    def test_services_pin_what_the_cloud_runs(self):
        for series in releases.OLDER:
            pins = releases.read_pins(releases.services_file(series))
            names = {releases.norm(releases._name(p)) for p in pins}
            for name in ('nova', 'openstack-placement', 'keystone',
                         'glance', 'blazar', 'blazar-nova', 'tempest'):
                self.assertIn(name, names, series)
            for pin in pins:
                self.assertRegex(pin, r'^[A-Za-z0-9_.\-]+===\S+$')

    def test_series_are_oldest_first_current_last(self):
        self.assertEqual(releases.CURRENT, releases.SERIES[-1])
        self.assertEqual(sorted(releases.SERIES), list(releases.SERIES))

    def test_unknown_series(self):
        e = self.assertRaises(releases.ReleaseError,
                              releases.check_series, '2019.1')
        self.assertIn('2024.1', str(e))


class RequirementsTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.MockPatchObject(
            releases.metadata, 'requires', return_value=[
                'tempest>=47.0.0', 'gabbi>=4.2.0', 'pbr>=2.0.0',
                'matplotlib; extra == "bench"',
                'nova; extra == "cloud"', 'senlin; extra == "cloud"',
                'SQLAlchemy<2.1; extra == "cloud"',
                'flake8>=7.0.0; extra == "test"']))

    def test_series_pins_replace_ours(self):
        reqs = releases.requirements('2024.1')
        self.assertIn('tempest===46.0.0', reqs)
        self.assertIn('nova===29.4.0', reqs)
        self.assertNotIn('tempest>=47.0.0', reqs)
        self.assertNotIn('nova', reqs)

    def test_ours_and_the_cloud_extra_stay(self):
        reqs = releases.requirements('2024.1')
        for r in ('gabbi>=4.2.0', 'pbr>=2.0.0', 'senlin', 'SQLAlchemy<2.1'):
            self.assertIn(r, reqs)
        self.assertNotIn('matplotlib', reqs)
        self.assertNotIn('flake8>=7.0.0', reqs)

    def test_not_installed(self):
        self.useFixture(fixtures.MockPatchObject(
            releases.metadata, 'requires',
            side_effect=releases.metadata.PackageNotFoundError('x')))
        self.assertRaises(releases.ReleaseError, releases.requirements,
                          '2024.1')


def _ok(argv, stdout=None, **kwargs):
    if argv[1:3] == ['-m', 'venv']:
        os.makedirs(argv[3])
    stdout.write('fine\n')
    stdout.flush()
    return subprocess.CompletedProcess(argv, 0)


class EnsureVenvTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.cache = self.useFixture(fixtures.TempDir()).path
        self.useFixture(fixtures.EnvironmentVariable(
            'CONFORMANCE_CACHE', self.cache))
        self.useFixture(fixtures.EnvironmentVariable(
            'PIP_CONSTRAINT', '/somewhere/upper-constraints.txt'))
        self.run_mock = self.useFixture(fixtures.MockPatchObject(
            releases.subprocess, 'run', side_effect=_ok)).mock
        self.said = []
        self.venv = os.path.join(self.cache, 'venvs', '2024.1')

    def ensure(self, series='2024.1'):
        return releases.ensure_venv(series, self.said.append)

    def test_current_needs_no_venv(self):
        self.assertEqual(sys.prefix, self.ensure(releases.CURRENT))
        self.run_mock.assert_not_called()

    def test_builds_then_reuses(self):
        self.assertEqual(self.venv, self.ensure())
        argvs = [c[0][0] for c in self.run_mock.call_args_list]
        self.assertEqual([sys.executable, '-m', 'venv', self.venv],
                         argvs[0])
        python = os.path.join(self.venv, 'bin', 'python')
        self.assertEqual([python, '-m', 'pip', 'install'], argvs[1][:4])
        self.assertIn(releases.constraints_file('2024.1'), argvs[1])
        self.assertIn('tempest===46.0.0', argvs[1])
        self.assertIn('--no-deps', argvs[2])
        self.assertEqual(releases.own_install_args(),
                         argvs[2][-len(releases.own_install_args()):])
        for call in self.run_mock.call_args_list:
            self.assertNotIn('PIP_CONSTRAINT', call[1]['env'])
        self.assertEqual(releases.expected_marker('2024.1'),
                         releases.read_marker(self.venv))
        self.assertTrue(os.path.exists(self.venv + '.log'))
        self.run_mock.reset_mock()
        self.assertEqual(self.venv, self.ensure())
        self.run_mock.assert_not_called()

    def test_half_built_venv_is_rebuilt(self):
        os.makedirs(self.venv)
        leftover = os.path.join(self.venv, 'leftover')
        open(leftover, 'w').close()
        self.ensure()
        self.assertFalse(os.path.exists(leftover))
        self.assertEqual(3, self.run_mock.call_count)
        self.assertIn('removing the stale or unfinished 2024.1 virtualenv',
                      self.said)

    def test_changed_constraints_rebuild(self):
        self.ensure()
        changed = os.path.join(self.cache, 'changed.txt')
        with open(releases.constraints_file('2024.1')) as src:
            text = src.read()
        with open(changed, 'w') as f:
            f.write(text + 'newthing===1.0\n')
        self.useFixture(fixtures.MockPatchObject(
            releases, 'constraints_file', return_value=changed))
        self.run_mock.reset_mock()
        self.ensure()
        self.assertEqual(3, self.run_mock.call_count)
        self.assertEqual(
            releases._digest(changed),
            releases.read_marker(self.venv)['constraints'])

    def test_another_checkout_reinstalls_only_this_package(self):
        self.ensure()
        keep = os.path.join(self.venv, 'lib', 'installed-before')
        os.makedirs(os.path.dirname(keep))
        open(keep, 'w').close()
        other = ['-e', '/elsewhere/clone']
        self.useFixture(fixtures.MockPatchObject(
            releases, 'own_install_args', return_value=other))
        self.run_mock.reset_mock()
        self.assertEqual(self.venv, self.ensure())
        argvs = [c[0][0] for c in self.run_mock.call_args_list]
        self.assertEqual(1, len(argvs), argvs)
        self.assertEqual(['--no-deps'] + other, argvs[0][-3:])
        self.assertTrue(os.path.exists(keep), 'the virtualenv was rebuilt')
        self.assertEqual(other, releases.read_marker(self.venv)['own'])
        self.assertEqual(releases.expected_marker('2024.1'),
                         releases.read_marker(self.venv))

    def test_failed_reinstall_leaves_a_venv_to_rebuild(self):
        self.ensure()
        self.useFixture(fixtures.MockPatchObject(
            releases, 'own_install_args',
            return_value=['-e', '/elsewhere/clone']))
        self.run_mock.side_effect = lambda argv, stdout=None, **kw: (
            subprocess.CompletedProcess(argv, 1))
        self.assertRaises(releases.ReleaseError, self.ensure)
        self.assertIsNone(releases.read_marker(self.venv))
        self.run_mock.side_effect = _ok
        self.run_mock.reset_mock()
        self.ensure()
        self.assertEqual(3, self.run_mock.call_count)

    def test_pip_failure_is_one_line_naming_the_package(self):
        def fail(argv, stdout=None, **kwargs):
            if 'pip' in argv:
                stdout.write(
                    'Collecting netifaces===0.11.0\n'
                    '  Building wheel for netifaces (setup.py): started\n'
                    '  error: subprocess-exited-with-error\n'
                    'ERROR: Failed building wheel for netifaces\n'
                    'Failed to build netifaces\n')
                stdout.flush()
                return subprocess.CompletedProcess(argv, 1)
            return _ok(argv, stdout=stdout)
        self.run_mock.side_effect = fail
        e = self.assertRaises(releases.ReleaseError, self.ensure)
        self.assertNotIn('\n', str(e))
        self.assertIn('2024.1', str(e))
        self.assertIn('could not install netifaces', str(e))
        self.assertIn(self.venv + '.log', str(e))
        self.assertIsNone(releases.read_marker(self.venv))
        # The next attempt starts again from scratch.
        self.run_mock.side_effect = _ok
        self.run_mock.reset_mock()
        self.ensure()
        self.assertEqual(3, self.run_mock.call_count)

    def test_second_build_waits_for_the_first(self):
        os.makedirs(os.path.dirname(self.venv))
        waiting = threading.Event()
        result = []

        def say(line):
            self.said.append(line)
            if line.startswith('waiting for another build'):
                waiting.set()

        with open(self.venv + '.lock', 'a') as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            second = threading.Thread(target=lambda: result.append(
                releases.ensure_venv('2024.1', say)))
            second.start()
            self.assertTrue(waiting.wait(10))
            # The first build finishes while the second waits.
            os.makedirs(self.venv)
            releases._write_marker(self.venv,
                                   releases.expected_marker('2024.1'))
            fcntl.flock(held, fcntl.LOCK_UN)
        second.join(10)
        self.assertEqual([self.venv], result)
        self.run_mock.assert_not_called()


class FailedPackageTest(testtools.TestCase):

    def check(self, output, package):
        self.assertEqual(package, releases.failed_package(output))

    def test_no_matching_distribution(self):
        self.check('ERROR: Could not find a version that satisfies the '
                   'requirement nova===99.0.0 (from versions: 1.0)\n'
                   'ERROR: No matching distribution found for '
                   'nova===99.0.0\n', 'nova')

    def test_wheel_build_new_pip(self):
        self.check('ERROR: Failed to build installable wheels for some '
                   'pyproject.toml based projects (scrypt)\n', 'scrypt')

    def test_wheel_build_old_pip(self):
        self.check('ERROR: Could not build wheels for netifaces, which is '
                   'required to install pyproject.toml-based projects\n',
                   'netifaces')

    def test_conflict(self):
        self.check('ERROR: Cannot install gabbi>=4.2.0 and tempest===46.0.0 '
                   'because these package versions have conflicting '
                   'dependencies.\n', 'gabbi>=4.2.0 and tempest===46.0.0')

    def test_last_package_tried(self):
        self.check('Collecting keystone===25.0.0\n'
                   'Collecting scrypt\n'
                   'ERROR: something unheard of\n', 'scrypt')

    def test_nothing_named(self):
        self.check('ERROR: out of disk\n', None)
        self.assertEqual(
            'pip install failed (ERROR: out of disk)',
            releases.explain_failure('pip install', 'ERROR: out of disk\n',
                                     1))

    def test_explain_without_error_lines(self):
        self.assertEqual('python -m venv failed (python -m venv exited '
                         'with 1)',
                         releases.explain_failure('python -m venv', '', 1))


class CommandTest(testtools.TestCase):

    def test_release_option_is_removed(self):
        self.assertEqual(
            ['/v/bin/conformance', 'cloud', 'up', '--port-base', '27000'],
            releases.command('/v', ['cloud', 'up', '--release', '2024.1',
                                    '--port-base', '27000']))
        self.assertEqual(
            ['/v/bin/conformance', 'run', '--seed', '003'],
            releases.command('/v', ['run', '--release=2024.1',
                                    '--seed', '003']))


class MarkerTest(testtools.TestCase):

    def test_unreadable_marker_is_none(self):
        venv = self.useFixture(fixtures.TempDir()).path
        self.assertIsNone(releases.read_marker(venv))
        with open(os.path.join(venv, releases.MARKER), 'w') as f:
            f.write('{not json')
        self.assertIsNone(releases.read_marker(venv))
        releases._write_marker(venv, {'a': 1})
        with open(os.path.join(venv, releases.MARKER)) as f:
            self.assertEqual({'a': 1}, json.load(f))
