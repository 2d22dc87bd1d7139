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

"""Seed 004: mutants of nova's work on an evicted server's host, in
nova's process.

The spec: an evicted preemptible is first shut down softly, then deleted
after [preemptible] graceful_shutdown_time, and it is terminated before
the lease is active. Whether the shutdown and the destroy *happened* is
nova's answer on the host: the stop action's compute_stop_instance event
and the delete action's compute_terminate_instance event, each with its
result. A cloud whose stops fail still shows "stop, then delete" in the
server's instance actions, and one whose destroys fail still writes the
terminate event's finish time, so the tests must read each event's
result. Declared by blazar's descriptor (the rules are seed 004's) and
applied in nova's process, like quota_mutants.py.
"""

from conformance_tests.cloud.mutants import register

GRACEFUL = 'reservation.lease.graceful-termination'
EVICTS = 'reservation.lease.evicts-preemptibles'
INSTANCE_EVICTS = 'reservation.lease.instance-reservation-evicts'


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


@register('nova-terminate-recorded-failed', 'nova', (EVICTS, INSTANCE_EVICTS),
          'a preemptible is terminated before the lease is active: its '
          'destroy succeeds on the host (here nova records every '
          'compute_terminate_instance as Error, finish time and all)',
          profile='spec-reference')
def terminate_recorded_failed():
    from nova.objects import instance_action

    event_class = instance_action.InstanceActionEvent
    original = event_class.pack_action_event_finish

    def pack_action_event_finish(context, instance_uuid, event_name,
                                 exc_val=None, exc_tb=None):
        values = original(context, instance_uuid, event_name,
                          exc_val=exc_val, exc_tb=exc_tb)
        if event_name == 'compute_terminate_instance':
            values.update(result='Error',
                          details='conformance mutant: the destroy failed')
        return values

    event_class.pack_action_event_finish = staticmethod(
        pack_action_event_finish)
