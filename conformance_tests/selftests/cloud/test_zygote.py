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

"""cloud/zygote.py: forks from a prepared template process, with a fake
service in place of the upstream ones (no cloud is started)."""

import os
import sys
import textwrap
import time

import fixtures
import testtools

from conformance_tests.cloud import zygote

# A zygote whose "service" records what a forked service process sees.
ZYGOTE = textwrap.dedent('''
    import json, os, sys, threading, time
    from conformance_tests.cloud import zygote

    def prepare():
        mode = sys.argv[1]
        if mode == 'thread':
            threading.Thread(target=time.sleep, args=(30,),
                             daemon=True).start()
        if mode == 'fail':
            raise RuntimeError('cannot import the service\\nsecond line')

    def serve(spec):
        print('serving', spec)
        with open(spec, 'w') as f:
            json.dump({'pid': os.getpid(), 'sid': os.getsid(0),
                       'zygote': os.getppid()}, f)
        if spec.endswith('exit3'):
            sys.exit(3)
        time.sleep(30)

    zygote.serve_requests(prepare, serve)
''')


class ZygoteTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path

    def _zygote(self, mode='ok'):
        z = zygote.Zygote('fake', os.path.join(self.dir, 'zygote.log'),
                          argv=[sys.executable, '-c', ZYGOTE, mode])
        self.addCleanup(z.close)
        return z

    def _spawn(self, z, name):
        spec = os.path.join(self.dir, name)
        child = z.spawn(spec, spec + '.out')
        self.addCleanup(_kill, child.pid)
        return spec, child

    def _seen(self, spec):
        import json
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with open(spec) as f:
                    return json.load(f)
            except (OSError, ValueError):
                time.sleep(0.02)
        self.fail('the forked service never ran for %s' % spec)

    def test_each_spawn_is_a_new_process_in_its_own_session(self):
        z = self._zygote()
        spec1, child1 = self._spawn(z, 'cloud1')
        spec2, child2 = self._spawn(z, 'cloud2')
        seen1, seen2 = self._seen(spec1), self._seen(spec2)
        self.assertEqual(child1.pid, seen1['pid'])
        self.assertEqual(child2.pid, seen2['pid'])
        self.assertNotEqual(seen1['pid'], seen2['pid'])
        self.assertEqual(seen1['zygote'], seen2['zygote'])
        # Its own session: the launcher's SIGTERM to the group reaches
        # the service and nothing else, as with start_new_session.
        self.assertEqual(seen1['pid'], seen1['sid'])
        self.assertIsNone(child1.poll())
        with open(spec1 + '.out') as f:
            self.assertEqual('serving %s\n' % spec1, f.read())

    def test_poll_sees_a_service_that_exited(self):
        z = self._zygote()
        spec, child = self._spawn(z, 'cloud-exit3')
        self._seen(spec)
        deadline = time.monotonic() + 10
        while child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        self.assertIsNotNone(child.poll())

    def test_a_failed_prepare_is_one_line_naming_the_log(self):
        z = self._zygote('fail')
        e = self.assertRaises(zygote.ZygoteError, z.spawn, 'spec', 'out')
        self.assertEqual('the fake zygote: cannot import the service; see '
                         '%s' % os.path.join(self.dir, 'zygote.log'), str(e))

    def test_refuses_to_fork_when_importing_started_a_thread(self):
        z = self._zygote('thread')
        e = self.assertRaises(zygote.ZygoteError, z.spawn, 'spec', 'out')
        self.assertIn('importing started 1 threads; a fork would lose them',
                      str(e))

    def test_close_stops_the_zygote_and_leaves_its_forks_running(self):
        z = self._zygote()
        spec, child = self._spawn(z, 'cloud1')
        self._seen(spec)
        z.close()
        self.assertIsNotNone(z._proc.poll())
        self.assertIsNone(child.poll())


def _kill(pid):
    import signal
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
