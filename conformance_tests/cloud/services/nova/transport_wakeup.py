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

"""Wake oslo.messaging's fake transport listeners when a message arrives.

Nova's harness runs RPC over oslo.messaging's ``fake://`` driver, whose
listener (impl_fake.FakeListener.poll) checks its queues and, when they
are empty, sleeps 50 ms before checking again. A boot crosses the RPC
bus a dozen times or more (API to conductor, conductor to scheduler and
to the compute, every object save the compute makes through the
conductor), so on a real cloud's push-based broker what takes nothing
costs here up to 50 ms a hop: measured by `conformance bench`, a large
part of the floor of a boot on the embedded cloud. The pause is a
constant in the driver, not an option, so no config can tighten it.

This swaps the driver's sleep for a wait that ends as soon as a message
lands in a queue the sleeping listener looked at (or after the same
50 ms, so a listener never waits longer than before). Each queue has a
generation counter, read when the listener looks at the queue, so a
message delivered between its look and its wait ends the wait at once.
Only the listeners of that queue wake: every compute listens on a
server queue of its own, and waking them all for every message made a
boot cost O(hosts) wake-ups, most of the nova process's time at H=64
(`conformance bench`, py-spy). Like nova_harness_lock, this is a fix of
the test transport, never of the services' logic: which messages go
where, and in what order, is unchanged.

Since a delivery wakes its listeners, the driver's 50 ms pause is only a
safety net, and a costly one: every listener (two per compute) woke 20
times a second to find nothing, 2,760 wake-ups a second at H=64, where
the idle nova process burnt 17% of a core (7% with the pause at 1 s;
`conformance bench`). So a listener with no deadline now waits up to
IDLE_WAIT, and a listener's stop wakes the sleepers, as a delivery does,
so that stopping a service takes no longer than before.
"""

import threading
import time
import types

# How long a listener with no deadline sleeps when nothing wakes it.
IDLE_WAIT = 1.0
_lock = threading.Lock()
# (exchange, topic) -> {server: deliveries so far}, server None for the
# topic's queue; queue key (exchange, topic, server) -> events of the
# listeners sleeping on it.
_generation = {}
_sleeping = {}
_thread = threading.local()


def _looked_at(key):
    """A listener thread looked at a queue: remember its generation (the
    first look since its last sleep counts)."""
    seen = getattr(_thread, 'seen', None)
    if seen is None:
        seen = _thread.seen = {}
    if key not in seen:
        with _lock:
            seen[key] = _generation.setdefault(key[:2], {}).setdefault(
                key[2], 0)


def _sleep(pause):
    """Sleep up to ``pause`` s (IDLE_WAIT in a poll with no deadline), or
    until a message lands in a queue this thread looked at since it last
    slept, or its listener is stopped."""
    seen = getattr(_thread, 'seen', None) or {}
    _thread.seen = {}
    event = getattr(_thread, 'event', None)
    if event is None:
        event = _thread.event = threading.Event()
    event.clear()
    if getattr(_thread, 'no_deadline', False):
        pause = IDLE_WAIT
    with _lock:
        stopped = getattr(_thread, 'stopped', None)
        if (stopped is not None and stopped.is_set()) or any(
                _generation[k[:2]][k[2]] != g for k, g in seen.items()):
            return
        for key in seen:
            _sleeping.setdefault(key, set()).add(event)
    try:
        event.wait(pause)
    finally:
        with _lock:
            for key in seen:
                _sleeping.get(key, set()).discard(event)


def _wake_everyone():
    """A listener was stopped: wake every sleeper, so that the stopped
    one sees it now; the others look at their queues and sleep again.
    Under _lock, so a listener that found itself not stopped is already
    among the sleepers."""
    with _lock:
        for events in _sleeping.values():
            for event in events:
                event.set()


def _delivered(exchange, topic, server, fanout):
    """Bump the queues a delivery went to and wake their sleepers: a
    server's queue, every server queue of the topic (fanout), or the
    topic's queue."""
    with _lock:
        queues = _generation.get((exchange, topic))
        if not queues:
            return  # no listener has looked at this topic yet
        if fanout:
            hit = [s for s in queues if s is not None]
        else:
            hit = [server] if server in queues else []
        for each in hit:
            queues[each] += 1
            for event in _sleeping.get((exchange, topic, each), ()):
                event.set()


def install():
    """Patch impl_fake in this process; a second call does nothing."""
    from oslo_messaging._drivers import impl_fake
    exchange = impl_fake.FakeExchange
    if getattr(exchange, '_conformance_wakeup', False):
        return
    deliver, poll = exchange.deliver_message, exchange.poll

    def deliver_message(self, topic, ctxt, message, server=None,
                        fanout=False, reply_q=None):
        deliver(self, topic, ctxt, message, server=server, fanout=fanout,
                reply_q=reply_q)
        _delivered(self, topic, server, fanout)

    def poll_queue(self, target, pool):
        _looked_at((self, target.topic, target.server or None))
        return poll(self, target, pool)

    listener = impl_fake.FakeListener
    listen, stop = listener.poll, listener.stop

    def poll_listener(self, timeout=None, batch_size=1, batch_timeout=None):
        # An RPC server's listener polls with no deadline; one that has a
        # deadline keeps the driver's pause, so it never overruns it.
        _thread.no_deadline = timeout is None and batch_timeout is None
        _thread.stopped = self._stopped
        try:
            return listen(self, timeout=timeout, batch_size=batch_size,
                          batch_timeout=batch_timeout)
        finally:
            _thread.no_deadline = False

    def stop_listener(self):
        stop(self)
        _wake_everyone()

    exchange.deliver_message = deliver_message
    exchange.poll = poll_queue
    listener.poll = poll_listener
    listener.stop = stop_listener
    exchange._conformance_wakeup = True
    # Only the listener's sleep changes; the driver's clock stays time's.
    impl_fake.time = types.SimpleNamespace(time=time.time, sleep=_sleep)
