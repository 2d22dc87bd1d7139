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

This swaps the driver's sleep for a wait that ends as soon as any
message is delivered (or after the same 50 ms, so a listener never
waits longer than before). A generation counter, read before the
listener looks at its queues, makes a message delivered between its
look and its wait end the wait at once. Like nova_harness_lock, this is
a fix of the test transport, never of the services' logic: which
messages go where, and in what order, is unchanged.
"""

import threading
import time
import types

_arrived = threading.Condition()
_generation = [0]
_looked = threading.local()


def _note_generation():
    if getattr(_looked, 'generation', None) is None:
        _looked.generation = _generation[0]


def _sleep(pause):
    """Sleep up to ``pause`` s, or until a message arrives after this
    thread last looked at its queues."""
    seen = getattr(_looked, 'generation', None)
    _looked.generation = None
    if seen is None:
        seen = _generation[0]
    with _arrived:
        _arrived.wait_for(lambda: _generation[0] != seen, timeout=pause)


def install():
    """Patch impl_fake in this process; a second call does nothing."""
    from oslo_messaging._drivers import impl_fake
    exchange = impl_fake.FakeExchange
    if getattr(exchange, '_conformance_wakeup', False):
        return
    deliver, poll = exchange.deliver_message, exchange.poll

    def deliver_message(self, *args, **kwargs):
        deliver(self, *args, **kwargs)
        with _arrived:
            _generation[0] += 1
            _arrived.notify_all()

    def poll_queue(self, target, pool):
        _note_generation()
        return poll(self, target, pool)

    exchange.deliver_message = deliver_message
    exchange.poll = poll_queue
    exchange._conformance_wakeup = True
    # Only the listener's sleep changes; the driver's clock stays time's.
    impl_fake.time = types.SimpleNamespace(time=time.time, sleep=_sleep)
