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

"""Seed 004's failure evidence (services/reservation/leases.py) against
the guideline's signatures: what blazar 18 shows through the APIs matches
them, each other cause the wrong-reason mutants bring does not. No
cloud."""

import re

import testtools

from conformance_tests.report import guidelines
from conformance_tests.services.reservation import leases

LEASE = 'lease-1'
RESERVATION = 'res-1'
SERVER = 'server-1'
EVICTS = 'reservation.lease.evicts-preemptibles'
RACE = 'reservation.lease.no-preemptible-after-termination'
INSTANCE = 'reservation.lease.instance-reservation-evicts'
GRACEFUL = 'reservation.lease.graceful-termination'
REFUSES = 'reservation.lease.instance-reservation-refuses-preemptibles'
EVICTS_RULE = ('spec: before a lease becomes active, the preemptible '
               'instances on its hosts are terminated')
RACE_RULE = ('spec: once termination requests are sent, no new '
             'preemptible instance starts on the allocated host')


def signature(cap_id):
    (cap,) = [c for c in guidelines.load_all() if c['id'] == cap_id]
    return cap['expected_fail']['signature']


def lease(status='ERROR', event='ERROR', at='2026-11-24 21:28:46.435000'):
    return {'id': LEASE, 'status': status,
            'reservations': [{'id': RESERVATION}],
            'events': [{'event_type': 'end_lease', 'status': 'UNDONE',
                        'updated_at': None},
                       {'event_type': 'start_lease', 'status': event,
                        'updated_at': at}]}


def aggregates(freepool=('pool1', 'pool2'), ours=(), zone='blazar_res-1'):
    return [{'name': 'freepool', 'hosts': list(freepool),
             'availability_zone': None},
            {'name': RESERVATION, 'hosts': list(ours),
             'availability_zone': zone}]


CREATE = {'action': 'create', 'start_time': '2026-11-24T21:28:40.000000'}
DELETE = {'action': 'delete', 'start_time': '2026-11-24T21:28:46.187000'}
LEFT = leases.moment('2026-11-24T21:28:48.392000')


def start_failure(rule, **kw):
    args = dict(lease=lease(), host='pool1', aggregates=aggregates(),
                freepool='freepool', server_id=SERVER,
                actions=[CREATE, DELETE], destroyed_at=LEFT)
    args.update(kw)
    return '%s: lease %s is ERROR, not ACTIVE: %s' % (
        rule, LEASE, leases.start_error_evidence(**args))


class StartErrorEvidenceTest(testtools.TestCase):

    def assertMatches(self, cap_id, message):
        self.assertTrue(re.search(signature(cap_id), message, re.DOTALL),
                        message)

    def assertNotMatches(self, cap_id, message):
        self.assertFalse(re.search(signature(cap_id), message, re.DOTALL),
                         message)

    def test_blazar_18_race_matches(self):
        message = start_failure(EVICTS_RULE)
        self.assertIn('its start_lease event is ERROR (at 21:28:46.435); '
                      'pool1 is back in aggregate freepool, not in the '
                      'reservation\'s aggregate res-1 (zone blazar_res-1); '
                      'preemptible server-1\'s deletion was asked at '
                      '21:28:46.187, before the event, and it left pool1 '
                      'at 21:28:48.392, 2.0 s after the event', message)
        self.assertMatches(EVICTS, message)
        self.assertMatches(RACE, start_failure(RACE_RULE))

    def test_no_delete_asked_does_not_match(self):
        # blazar-lease-start-errors, blazar-never-evicts
        for rule, cap in ((EVICTS_RULE, EVICTS), (RACE_RULE, RACE)):
            message = start_failure(rule, actions=[CREATE],
                                    destroyed_at=None)
            self.assertIn('nobody asked to delete preemptible server-1 '
                          '(instance actions: create)', message)
            self.assertNotMatches(cap, message)

    def test_server_gone_before_blazar_gave_up_does_not_match(self):
        # blazar-add-refused-after-eviction
        message = start_failure(EVICTS_RULE, destroyed_at=leases.moment(
            '2026-11-24T21:28:46.300000'))
        self.assertIn('0.1 s before the event', message)
        self.assertNotMatches(EVICTS, message)

    def test_host_out_of_the_freepool_does_not_match(self):
        message = start_failure(EVICTS_RULE, aggregates=aggregates(
            freepool=('pool2',)))
        self.assertIn('pool1 is not in aggregate freepool', message)
        self.assertNotMatches(EVICTS, message)

    def test_reservation_aggregate_without_zone_does_not_match(self):
        message = start_failure(EVICTS_RULE, aggregates=aggregates(
            zone=None))
        self.assertIn('(no zone)', message)
        self.assertNotMatches(EVICTS, message)

    def test_failed_destroy_does_not_match(self):
        # nova-terminate-recorded-failed: a finish time, result Error
        message = start_failure(EVICTS_RULE, destroyed_at=None,
                                destroy_result='Error')
        self.assertIn("its destroy failed on pool1 (result 'Error')",
                      message)
        self.assertNotMatches(EVICTS, message)

    def test_unfinished_destroy_and_missing_event_are_said(self):
        message = start_failure(EVICTS_RULE, destroyed_at=None)
        self.assertIn('its destroy not finished when read', message)
        self.assertNotMatches(EVICTS, message)
        bare = dict(lease(), events=[])
        message = start_failure(EVICTS_RULE, lease=bare)
        self.assertIn('no start_lease event shown', message)
        self.assertNotMatches(EVICTS, message)

    def test_instance_lease_evidence(self):
        rule = ('spec: on a host allocated to an instance reservation, ...')
        evidence = leases.instance_start_evidence(
            lease('ACTIVE', 'DONE'), 'pool1',
            aggregates(ours=('pool1',), zone=None), 'freepool', SERVER,
            [CREATE])
        message = ('%s: with instance lease %s ACTIVE, preemptible %s '
                   'still runs on pool1: ACTIVE (task state None); %s' % (
                       rule, LEASE, SERVER, evidence))
        self.assertIn('nobody asked to delete it (instance actions: '
                      'create); pool1 is in the reservation\'s aggregate '
                      'res-1 (no zone) and still in aggregate freepool',
                      message)
        self.assertMatches(INSTANCE, message)
        # blazar-lease-start-errors: the lease is ERROR, never ACTIVE
        self.assertNotMatches(INSTANCE, '%s: lease %s is ERROR, not ACTIVE'
                              % (rule, LEASE))

    def refused_failure(self, **kw):
        rule = ('spec: preemptible instances never start on a host '
                'belonging to a reservation: a host allocated to an active '
                'instance reservation refuses new preemptibles')
        args = dict(lease=lease('ACTIVE', 'DONE'), host='pool1',
                    aggregates=aggregates(ours=('pool1',), zone=None),
                    freepool='freepool')
        args.update(kw)
        return ('%s: preemptible %s asked for pool1 is ACTIVE on pool1 with '
                'instance lease %s ACTIVE; %s' % (
                    rule, SERVER, LEASE, leases.instance_host_evidence(
                        **args)))

    def test_instance_host_taking_a_preemptible(self):
        message = self.refused_failure()
        self.assertIn('pool1 is in the reservation\'s aggregate res-1 (no '
                      'zone) and still in aggregate freepool', message)
        self.assertMatches(REFUSES, message)
        # blazar-instance-host-not-aggregated: only in the freepool
        message = self.refused_failure(aggregates=aggregates())
        self.assertIn('pool1 is not in the reservation\'s aggregate',
                      message)
        self.assertNotMatches(REFUSES, message)
        # out of the freepool, or an aggregate with a zone: other causes
        self.assertNotMatches(REFUSES, self.refused_failure(
            aggregates=aggregates(freepool=('pool2',), ours=('pool1',),
                                  zone=None)))
        self.assertNotMatches(REFUSES, self.refused_failure(
            aggregates=aggregates(ours=('pool1',))))

    def test_graceful_signature_needs_create_then_delete(self):
        self.assertMatches(
            GRACEFUL, 'no soft shutdown of %s before its deletion '
            '(instance actions: create, delete)' % SERVER)
        # blazar-lease-start-errors, blazar-never-evicts: no delete at all
        self.assertNotMatches(
            GRACEFUL, 'with lease %s ERROR, preemptible %s still runs on '
            'pool1: ACTIVE (task state None) (instance actions: create)' % (
                LEASE, SERVER))


class MomentTest(testtools.TestCase):

    def test_nova_and_blazar_stamps(self):
        self.assertEqual(leases.moment('2026-11-24T21:28:46.187000'),
                         leases.moment('2026-11-24 21:28:46.187000'))
        self.assertEqual(leases.moment('2026-11-24T21:28:46.187000'),
                         leases.moment('2026-11-24T22:28:46.187000+01:00'))
        self.assertEqual(leases.moment('2026-11-24T21:28:46.187000'),
                         leases.moment('2026-11-24T21:28:46.187000Z'))
        self.assertIsNone(leases.moment(None))
        self.assertEqual('21:28:46.187', leases.clock(
            leases.moment('2026-11-24T21:28:46.187000')))
        self.assertEqual('unknown', leases.clock(None))


class RaceFactsTest(testtools.TestCase):

    def test_termination_request_is_the_first_stop_or_delete(self):
        actions = [CREATE, DELETE,
                   {'action': 'stop',
                    'start_time': '2026-11-24T21:28:43.000000'}]
        self.assertEqual(leases.moment('2026-11-24T21:28:43'),
                         leases.termination_request(actions))
        self.assertEqual(leases.moment('2026-11-24T21:28:46.187'),
                         leases.termination_request([CREATE, DELETE]))
        self.assertIsNone(leases.termination_request([CREATE]))
        self.assertEqual(leases.moment('2026-11-24T21:28:40'),
                         leases.action_start([CREATE, DELETE], ('create',)))

    def test_placed_on_reads_the_compute_events_host(self):
        schedule = {'event': 'conductor_schedule_and_build_instances',
                    'host': 'pool1'}
        build = {'event': 'compute__do_build_and_run_instance',
                 'host': 'pool1'}
        elsewhere = dict(build, host='pool2')
        self.assertEqual('compute__do_build_and_run_instance',
                         leases.placed_on([schedule, build], 'pool1'))
        # A conductor event is no placement, nor a compute elsewhere.
        self.assertIsNone(leases.placed_on([schedule], 'pool1'))
        self.assertIsNone(leases.placed_on([schedule, elsewhere], 'pool1'))
        self.assertIsNone(leases.placed_on(None, 'pool1'))
        # Before 2.62 events have no host: a compute event counts.
        self.assertEqual('compute__do_build_and_run_instance',
                         leases.placed_on([{'event': build['event']}],
                                          'pool1'))


class DepartureTest(testtools.TestCase):
    """When a server left its host: only a destroy that succeeded."""

    FINISHED = '2026-11-24T21:28:48.392000'

    def terminate(self, result, finish=FINISHED):
        return {'event': 'compute_terminate_instance', 'result': result,
                'finish_time': finish}

    def test_a_successful_destroy_left_at_its_finish(self):
        event = self.terminate('Success')
        self.assertEqual(LEFT, leases.left_host_at(event))
        self.assertEqual('left pool1 at 21:28:48.392',
                         leases.departure(event, 'pool1'))

    def test_a_failed_destroy_never_left(self):
        event = self.terminate('Error')
        self.assertIsNone(leases.left_host_at(event))
        self.assertEqual("never left pool1: its destroy failed there "
                         "(compute_terminate_instance result 'Error')",
                         leases.departure(event, 'pool1'))

    def test_no_or_unfinished_destroy_has_not_left(self):
        for event in (None, self.terminate(None, finish=None)):
            self.assertIsNone(leases.left_host_at(event))
            self.assertEqual('has no finished destroy on pool1',
                             leases.departure(event, 'pool1'))
