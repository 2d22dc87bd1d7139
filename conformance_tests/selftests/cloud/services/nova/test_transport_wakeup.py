"""cloud/transport_wakeup.py on oslo.messaging's real fake driver."""

import threading

import testtools

from conformance_tests.cloud.services.nova import transport_wakeup


class WakeupTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        transport_wakeup.install()
        from oslo_messaging._drivers import impl_fake
        from oslo_messaging import target
        self.impl_fake = impl_fake
        self.exchange = impl_fake.FakeExchange('bench-selftest')
        self.target = target.Target(topic='t', server='s')
        self.exchange.ensure_queue(self.target, None)

    def test_install_twice_patches_once(self):
        poll = self.impl_fake.FakeExchange.poll
        transport_wakeup.install()
        self.assertIs(poll, self.impl_fake.FakeExchange.poll)

    def test_messages_are_still_delivered_in_order(self):
        for n in range(3):
            self.exchange.deliver_message('t', {}, {'n': n}, server='s')
        got = [self.exchange.poll(self.target, None)[1]['n']
               for _ in range(3)]
        self.assertEqual([0, 1, 2], got)

    def test_a_delivery_ends_the_listeners_wait(self):
        self.assertIsNone(self.exchange.poll(self.target, None)[1])
        done = threading.Event()

        def listener_sleeps():
            # A pause far beyond the test's patience: only a delivery
            # can end it before join() gives up.
            self.impl_fake.time.sleep(600)
            done.set()

        thread = threading.Thread(target=listener_sleeps, daemon=True)
        thread.start()
        self.exchange.deliver_message('t', {}, {'n': 1}, server='s')
        thread.join(60)
        self.assertTrue(done.is_set(), 'the delivery did not wake the '
                        'sleeping listener')

    def test_a_delivery_before_the_wait_is_not_missed(self):
        # The thread looks at its queue (empty), a message lands, then it
        # sleeps: it must not wait for the next one.
        result = {}

        def listener():
            result['first'] = self.exchange.poll(self.target, None)[1]
            arrived.wait()
            self.impl_fake.time.sleep(600)
            result['woke'] = True

        arrived = threading.Event()
        thread = threading.Thread(target=listener, daemon=True)
        thread.start()
        while 'first' not in result:
            thread.join(0.01)
        self.exchange.deliver_message('t', {}, {'n': 1}, server='s')
        arrived.set()
        thread.join(60)
        self.assertIsNone(result['first'])
        self.assertTrue(result.get('woke'))
