"""launcher.stop_processes on real processes that look like services."""

import subprocess
import sys

import testtools

from conformance_tests.cloud import launcher
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
