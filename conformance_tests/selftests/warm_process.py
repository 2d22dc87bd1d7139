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

"""What every warm process a command forks from must refuse (the
inventory's, inventory/forker.py, and the test workers', runner/
warm_workers.py): a fork after a tempest.conf was read would use that
cloud's, and a fork beside a thread would lose it."""

import os
import subprocess
import sys
import textwrap

import fixtures


class RefusesToForkTests(object):
    """Mixed into a testtools.TestCase whose SERVE is the statement that
    serves (sys.argv[1] is a free socket path, if it needs one)."""

    SERVE = None

    def _serve(self, before):
        script = textwrap.dedent('''
            import sys
            %s
            %s
        ''') % (before, self.SERVE)
        path = os.path.join(self.useFixture(fixtures.TempDir()).path, 's')
        return subprocess.run([sys.executable, '-c', script, path],
                              capture_output=True, text=True, input='',
                              timeout=60)

    def test_refuses_once_a_tempest_conf_is_read(self):
        done = self._serve('from tempest import config\n'
                           'config.CONF._config = object()')
        self.assertEqual(1, done.returncode)
        self.assertIn('error importing read a tempest.conf', done.stdout)

    def test_refuses_beside_a_thread(self):
        done = self._serve('import threading\n'
                           'threading.Thread(target=threading.Event().wait,'
                           ' daemon=True).start()')
        self.assertEqual(1, done.returncode)
        self.assertIn('error importing started 1 threads', done.stdout)

    def test_ends_when_its_stdin_closes(self):
        done = self._serve('')
        self.assertEqual(0, done.returncode)
        self.assertEqual('ready\n', done.stdout)
