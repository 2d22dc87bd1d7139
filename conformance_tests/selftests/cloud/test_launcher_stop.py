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

"""launcher.stop_processes on real processes that look like services."""

import os
import socket
import subprocess
import sys
import time

import fixtures
import testtools

from conformance_tests.cloud import launcher
from conformance_tests.cloud import runtime
from conformance_tests.cloud import zygote

# argv carries the marker launcher._is_our_service looks for.
SERVICE = [sys.executable, '-c', None, 'conformance_tests.cloud.serve']


class StopProcessesTest(testtools.TestCase):

    def _service(self, code):
        proc = subprocess.Popen(SERVICE[:2] + [code] + SERVICE[3:],
                                start_new_session=True,
                                stdout=subprocess.PIPE)
        self.addCleanup(proc.wait)
        self.addCleanup(proc.kill)
        proc.stdout.readline()  # its signal handlers are in place
        return proc

    def test_returns_only_once_every_process_has_exited(self):
        proc = self._service('import time; print(flush=True); '
                             'time.sleep(60)')
        self.assertEqual(['svc'], launcher.stop_processes({'svc': proc.pid}))
        self.assertFalse(zygote.alive(proc.pid))

    def test_a_process_that_ignores_sigterm_is_killed(self):
        proc = self._service('import signal, time; '
                             'signal.signal(signal.SIGTERM, signal.SIG_IGN); '
                             'print(flush=True); time.sleep(60)')
        self.assertEqual(['svc'], launcher.stop_processes({'svc': proc.pid},
                                                          grace=0.5))
        self.assertFalse(zygote.alive(proc.pid))
        self.assertEqual(-9, proc.wait(timeout=5))

    def test_a_process_that_is_not_ours_is_left_alone(self):
        proc = subprocess.Popen([sys.executable, '-c',
                                 'import time; time.sleep(60)'],
                                start_new_session=True)
        self.addCleanup(proc.wait)
        self.addCleanup(proc.kill)
        self.assertEqual([], launcher.stop_processes({'other': proc.pid}))
        self.assertTrue(zygote.alive(proc.pid))


# The first thread ends alone (pthread_exit, as when it is torn down
# first in an exit) while another thread keeps the process's listening
# socket open for a while.
LEADER_EXITS_FIRST = """
import ctypes, os, socket, threading, time
s = socket.socket()
s.bind(('127.0.0.1', 0))
s.listen()
def last_thread():
    time.sleep(3)
    os._exit(0)
threading.Thread(target=last_thread).start()
print(s.getsockname()[1], flush=True)
ctypes.CDLL(None).pthread_exit(None)
"""


class AliveTest(testtools.TestCase):

    def _state(self, pid):
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0]

    def test_a_process_whose_first_thread_is_a_zombie_runs_on(self):
        proc = subprocess.Popen([sys.executable, '-c', LEADER_EXITS_FIRST],
                                stdout=subprocess.PIPE)
        self.addCleanup(proc.wait)
        self.addCleanup(proc.kill)
        port = int(proc.stdout.readline())
        deadline = time.monotonic() + 2
        while self._state(proc.pid) != 'Z':
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.01)
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.assertRaises(OSError, s.bind, ('127.0.0.1', port))
        self.assertTrue(zygote.alive(proc.pid),
                        'its port is still taken, so it has not exited')
        proc.wait(timeout=10)
        self.assertFalse(zygote.alive(proc.pid))


class DownTest(testtools.TestCase):

    def test_down_removes_what_services_left_in_their_tmp(self):
        # A SIGKILLed service process removes nothing itself.
        workdir = self.useFixture(fixtures.TempDir()).path
        cloud = launcher.EmbeddedCloud(workdir, say=lambda *a: None)
        left = os.path.join(cloud.service_dir, runtime.TMP_DIR, 'nova',
                            'tmpabc')
        os.makedirs(left)
        kept = os.path.join(cloud.service_dir, 'nova.log')
        open(kept, 'w').close()
        cloud.down()
        self.assertFalse(os.path.exists(os.path.dirname(os.path.dirname(
            left))))
        self.assertTrue(os.path.exists(kept), 'the logs stay')
