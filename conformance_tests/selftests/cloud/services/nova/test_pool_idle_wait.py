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

"""nova's harness leaves futurist's idle workers sleeping as shipped."""

import subprocess
import sys

from futurist import _thread
import testtools

from conformance_tests.cloud.services.nova import app


class FuturistIdleWaitTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.addCleanup(setattr, _thread.ThreadWorker, 'MAX_IDLE_FOR',
                        _thread.ThreadWorker.MAX_IDLE_FOR)

    def test_the_harness_hack_is_undone(self):
        shipped = _thread.ThreadWorker.MAX_IDLE_FOR
        with app.futurist_idle_wait_kept():
            # What nova.test.TestCase.setUp does.
            _thread.ThreadWorker.MAX_IDLE_FOR = 0.01
        self.assertEqual(shipped, _thread.ThreadWorker.MAX_IDLE_FOR)

    def test_undone_when_the_setup_fails(self):
        shipped = _thread.ThreadWorker.MAX_IDLE_FOR

        def failing_setup():
            with app.futurist_idle_wait_kept():
                _thread.ThreadWorker.MAX_IDLE_FOR = 0.01
                raise RuntimeError('harness setUp failed')

        self.assertRaises(RuntimeError, failing_setup)
        self.assertEqual(shipped, _thread.ThreadWorker.MAX_IDLE_FOR)

    def test_the_cloud_harness_keeps_it(self):
        # In a child: importing nova.test patches the process with
        # eventlet unless nova's threading mode is chosen first, as the
        # cloud's nova process does, and a patched runner hangs the
        # other self-tests (their WSGI servers block).
        child = subprocess.run(
            [sys.executable, '-c', _HARNESS_CHILD],
            capture_output=True, text=True, timeout=120)
        self.assertEqual(0, child.returncode, child.stderr[-2000:])
        shipped, after = child.stdout.split()
        self.assertEqual(shipped, after)


# nova.test.TestCase.setUp stands in for the real one (which builds
# nova's databases) and does only what matters here; the child prints
# futurist's idle wait before and after the cloud harness's setUp.
_HARNESS_CHILD = """
from conformance_tests.cloud.services.nova import SERVICE
SERVICE.prepare_process()  # nova's mode, as in the cloud's nova process
import nova.test
from futurist import _thread
from conformance_tests.cloud.services.nova import app

def nova_setup(harness):
    _thread.ThreadWorker.MAX_IDLE_FOR = 0.01

shipped = _thread.ThreadWorker.MAX_IDLE_FOR
nova.test.TestCase.setUp = nova_setup
app.harness_class()().setUp()
print(shipped, _thread.ThreadWorker.MAX_IDLE_FOR)
"""
