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

    def test_the_given_environment_is_kept(self):
        parent = self.useFixture(fixtures.TempDir()).path
        env = paths.tmp_env(parent, {'A': '1'})
        self.assertEqual({'A': '1', 'TMPDIR': os.path.join(parent, 'tmp')},
                         env)
