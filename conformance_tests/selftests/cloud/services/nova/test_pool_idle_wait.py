"""nova's harness leaves futurist's idle workers sleeping as shipped."""

import fixtures
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
        shipped = _thread.ThreadWorker.MAX_IDLE_FOR
        ran = []

        def nova_setup(harness):
            # What nova.test.TestCase.setUp does (and only that: the
            # real one builds nova's databases).
            ran.append(harness)
            _thread.ThreadWorker.MAX_IDLE_FOR = 0.01

        self.useFixture(fixtures.MonkeyPatch(
            'nova.test.TestCase.setUp', nova_setup))
        harness = app.harness_class()()
        harness.setUp()
        self.assertEqual([harness], ran)
        self.assertEqual(shipped, _thread.ThreadWorker.MAX_IDLE_FOR)
