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

"""cloud/transport_wakeup.py on oslo.messaging's real fake driver."""

import threading
import time

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

    def _sleeping_listener(self, target):
        """A thread that, as the driver's listener does, looks at its
        queue (empty) and sleeps far beyond the test's patience: only a
        delivery can end its wait before join() gives up."""
        looked, done = threading.Event(), threading.Event()

        def listener():
            self.assertIsNone(self.exchange.poll(target, None)[1])
            looked.set()
            self.impl_fake.time.sleep(600)
            done.set()

        thread = threading.Thread(target=listener, daemon=True)
        thread.start()
        looked.wait(60)
        return thread, done

    def test_a_delivery_ends_the_listeners_wait(self):
        thread, done = self._sleeping_listener(self.target)
        self.exchange.deliver_message('t', {}, {'n': 1}, server='s')
        thread.join(60)
        self.assertTrue(done.is_set(), 'the delivery did not wake the '
                        'sleeping listener')

    def test_a_delivery_to_another_server_leaves_the_listener_asleep(self):
        # Every compute listens on a queue of its own: a message for one
        # wakes that one only.
        from oslo_messaging import target
        other = target.Target(topic='t', server='other')
        self.exchange.ensure_queue(other, None)
        thread, done = self._sleeping_listener(self.target)
        self.exchange.deliver_message('t', {}, {'n': 1}, server='other')
        thread.join(0.3)
        self.assertFalse(done.is_set(), 'a message for another server '
                         'woke the listener')
        self.exchange.deliver_message('t', {}, {'n': 2}, server='s')
        thread.join(60)
        self.assertTrue(done.is_set())

    def test_a_fanout_wakes_every_server_of_the_topic(self):
        thread, done = self._sleeping_listener(self.target)
        self.exchange.deliver_message('t', {}, {'n': 1}, fanout=True)
        thread.join(60)
        self.assertTrue(done.is_set(), 'the fanout did not wake the '
                        'listener')

    def test_a_listener_that_looked_at_nothing_sleeps_its_pause(self):
        # The driver's own behaviour: at most its pause.
        started = time.monotonic()
        self.impl_fake.time.sleep(0.05)
        self.assertGreaterEqual(time.monotonic() - started, 0.04)

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


class ListenerTest(testtools.TestCase):
    """The driver's own listener, as an RPC server polls it: with no
    deadline. IDLE_WAIT is made longer than any test waits, so that only
    a delivery or a stop can end a sleep the test sees ended."""

    def setUp(self):
        super().setUp()
        transport_wakeup.install()
        self.patch(transport_wakeup, 'IDLE_WAIT', 600)
        from oslo_messaging._drivers import impl_fake
        from oslo_messaging import target
        self.exchanges = impl_fake.FakeExchangeManager('listener-selftest')
        self.target = target.Target(topic='t', server='s')
        self.listener = impl_fake.FakeListener(self.exchanges, [self.target])
        self.exchange = self.exchanges.get_exchange(None)
        self.looks = 0
        poll = self.exchange.poll

        def counted(target, pool):
            self.looks += 1
            return poll(target, pool)

        self.exchange.poll = counted

    def _polling(self, **kwargs):
        """The listener's poll in a thread; {'got': ...} once it returns."""
        result = {}
        thread = threading.Thread(
            target=lambda: result.update(got=self.listener.poll(**kwargs)),
            daemon=True)
        thread.start()
        return thread, result

    def test_an_idle_listener_looks_once_until_a_message_comes(self):
        # The driver's pause would have it look every 50 ms.
        thread, result = self._polling()
        time.sleep(0.5)
        self.assertEqual(1, self.looks, 'the idle listener looked again '
                         'before anything was delivered')
        self.exchange.deliver_message('t', {}, {'n': 1}, server='s')
        thread.join(60)
        self.assertEqual({'n': 1}, result['got'][0].message)

    def test_a_stop_ends_the_listeners_sleep(self):
        thread, result = self._polling()
        deadline = time.monotonic() + 60
        while not self.looks and time.monotonic() < deadline:
            time.sleep(0.01)
        self.listener.stop()
        thread.join(60)
        self.assertFalse(thread.is_alive(), 'the stopped listener slept on')
        self.assertEqual([], result['got'])

    def test_a_poll_with_a_deadline_ends_at_it(self):
        started = time.monotonic()
        thread, result = self._polling(timeout=0.2)
        thread.join(60)
        self.assertFalse(thread.is_alive(), 'the poll overran its deadline')
        self.assertEqual([], result['got'])
        self.assertLess(time.monotonic() - started, 30)
