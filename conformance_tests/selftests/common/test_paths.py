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

"""common/paths.py: the temporary directory of the Tempest processes."""

import os
import stat
import subprocess
import sys

import fixtures
import testtools

from conformance_tests.common import paths


class TmpEnvTest(testtools.TestCase):

    def test_a_child_s_temporary_files_land_in_the_private_tmp(self):
        parent = self.useFixture(fixtures.TempDir()).path
        env = paths.tmp_env(parent)
        made = subprocess.run(
            [sys.executable, '-c',
             'import tempfile; print(tempfile.mkstemp()[1])'],
            env=env, capture_output=True, text=True, check=True)
        tmp = os.path.join(parent, 'tmp')
        self.assertEqual(tmp, os.path.dirname(made.stdout.strip()))
        self.assertEqual(0o700, stat.S_IMODE(os.stat(tmp).st_mode))

    def test_a_relative_parent_holds_in_another_directory(self):
        # The default workdir is relative and Tempest runs in the
        # workspace: a relative TMPDIR named nothing there, and Python's
        # tempfile fell back to /tmp (the cleanup proof's killed run left
        # its workers' test lists there).
        top = self.useFixture(fixtures.TempDir()).path
        os.makedirs(os.path.join(top, 'workdir', 'workspace'))
        self.useFixture(fixtures.MonkeyPatch('os.getcwd', lambda: top))
        env = paths.tmp_env('workdir')
        made = subprocess.run(
            [sys.executable, '-c',
             'import tempfile; print(tempfile.mkstemp()[1])'],
            env=env, capture_output=True, text=True, check=True,
            cwd=os.path.join(top, 'workdir', 'workspace'))
        self.assertEqual(os.path.join(top, 'workdir', 'tmp'),
                         os.path.dirname(made.stdout.strip()))

    def test_the_given_environment_is_kept(self):
        parent = self.useFixture(fixtures.TempDir()).path
        env = paths.tmp_env(parent, {'A': '1'})
        self.assertEqual({'A': '1', 'TMPDIR': os.path.join(parent, 'tmp')},
                         env)
        self.assertTrue(os.path.isabs(env['TMPDIR']))
