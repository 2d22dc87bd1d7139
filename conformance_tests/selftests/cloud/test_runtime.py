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

"""runtime.private_tmp: a service process's temporary files stay under
its cloud's service dir, where the launcher removes them."""

import os
import subprocess
import sys

import fixtures
import testtools

from conformance_tests.cloud import runtime

# In a child, as serve.run does: what a library that asks tempfile for a
# directory (nova's NestedTempfile fixture does) gets, and TMPDIR.
CHILD = """
import os, sys, tempfile
from conformance_tests.cloud import runtime
runtime.private_tmp(sys.argv[1], 'nova')
print(tempfile.mkdtemp())
print(os.environ['TMPDIR'])
"""


class PrivateTmpTest(testtools.TestCase):

    def test_temporary_files_land_under_the_service_dir(self):
        service_dir = self.useFixture(fixtures.TempDir()).path
        out = subprocess.run([sys.executable, '-c', CHILD, service_dir],
                             capture_output=True, text=True, check=True)
        made, tmpdir = out.stdout.split()
        expected = os.path.join(service_dir, runtime.TMP_DIR, 'nova')
        self.assertEqual(expected, tmpdir)
        self.assertEqual(expected, os.path.dirname(made))
        self.assertTrue(os.path.isdir(made))
        self.assertEqual(0o700, os.stat(expected).st_mode & 0o777)
