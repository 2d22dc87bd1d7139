"""Seed 004: a mutant of nova's soft shutdown, in nova's process.

The spec: an evicted preemptible is first shut down softly, then deleted
after [preemptible] graceful_shutdown_time. Blazar (the spec reference)
asks nova to stop the server; whether the shutdown *happened* is nova's
answer on the host, the stop action's compute_stop_instance event. A
cloud whose stops fail still shows "stop, then delete" in the server's
instance actions, so reservation.lease.graceful-termination must read the
event's result and catch it. Declared by blazar's descriptor (the rule
is seed 004's) and applied in nova's process, like quota_mutants.py.
"""

from conformance_tests.cloud.mutants import register

GRACEFUL = 'reservation.lease.graceful-termination'


@register('nova-soft-shutdown-fails', 'nova', (GRACEFUL,),
          'an evicted preemptible is first shut down softly: blazar asks '
          'the stop, but every stop fails on the host (the server stays '
          'ACTIVE until the delete)',
          profile='spec-reference')
def soft_shutdown_fails():
    from nova import exception
    from nova.virt import fake

    def power_off(self, instance, timeout=0, retry_interval=0):
        raise exception.InstancePowerOffFailure(
            reason='conformance mutant: the stop fails')

    fake.FakeDriver.power_off = power_off
