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

"""runner/warm_workers.py and worker_python.py: a worker forked from the
warm process is what stestr would have started, streams, directory,
environment, exit code and all."""

import json
import os
import subprocess
import sys

import fixtures
import testtools

from conformance_tests.runner import warm_workers
from conformance_tests.runner import worker_python
from conformance_tests.selftests import warm_process

ECHO = 'conformance_tests.selftests.runner.warm_worker_echo'


class WarmWorkersTest(testtools.TestCase):
    """The real warm process (it imports Tempest: about a second)."""

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.warm = warm_workers.WarmWorkers(self.dir)
        self.addCleanup(self.warm.close)

    def _worker(self, code, cwd, extra_env=None, stdin=''):
        """A worker as stestr starts one: the shell expands ${PYTHON}."""
        env = dict(os.environ, WARM_WORKER_MARKER='m-%s' % code,
                   **self.warm.env())
        env.update(extra_env or {})
        return subprocess.run(
            '${PYTHON} -m %s %d' % (ECHO, code), shell=True, cwd=cwd,
            env=env, input=stdin, capture_output=True, text=True,
            timeout=60)

    def test_the_worker_gets_the_launchers_streams_directory_and_env(self):
        tmp = os.path.join(self.dir, 'tmp')
        os.mkdir(tmp)
        done = self._worker(3, self.dir, {'TMPDIR': tmp}, stdin='in\n')
        self.assertEqual(3, done.returncode, done.stderr)
        said = json.loads(done.stdout)
        # as `python -m` sets it: the module's file, then its arguments
        self.assertTrue(said['argv'][0].endswith('warm_worker_echo.py'))
        self.assertEqual(['3'], said['argv'][1:])
        self.assertEqual(self.dir, said['cwd'])
        # `python -m` in that directory would have put it first
        self.assertEqual(self.dir, said['path0'])
        self.assertEqual('m-3', said['marker'])
        self.assertEqual(tmp, said['tmp'])
        self.assertEqual('in\n', said['stdin'])
        self.assertEqual('to stderr\n', done.stderr)

    def test_it_is_a_fork_of_the_warm_process(self):
        said = json.loads(self._worker(0, self.dir).stdout)
        self.assertEqual(self.warm._proc.pid, said['ppid'])

    def test_two_workers_draw_different_random_numbers(self):
        draws = {json.loads(self._worker(0, self.dir).stdout)['random']
                 for _ in range(2)}
        self.assertEqual(2, len(draws))

    def test_no_shell_splitting_where_a_path_has_a_blank(self):
        self.useFixture(fixtures.MonkeyPatch(
            'sys.executable', '/opt/my python/bin/python'))
        self.assertEqual({}, self.warm.env())


class WarmProcessRefusesTest(warm_process.RefusesToForkTests,
                             testtools.TestCase):
    SERVE = ('from conformance_tests.runner import warm_workers\n'
             'sys.exit(warm_workers.serve(sys.argv[1]))')


class WorkerPythonTest(testtools.TestCase):

    def test_without_the_warm_process_a_one_line_error(self):
        env = dict(os.environ, **{
            worker_python.SOCKET_VARIABLE: '/nonexistent/socket'})
        done = subprocess.run(
            [sys.executable, '-S', worker_python.__file__, '-m', ECHO, '0'],
            env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(1, done.returncode)
        self.assertEqual(1, len(done.stderr.splitlines()))
        self.assertIn('no warm worker process', done.stderr)
