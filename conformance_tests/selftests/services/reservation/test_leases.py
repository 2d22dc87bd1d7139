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

"""Seed 004's pure parts: lease bodies, the blazar cleanup kinds over fake
listings, and what blazar's descriptor contributes to nova. No cloud."""

import datetime
import json

import testtools

from conformance_tests.cleanup import names
from conformance_tests.cloud.services import blazar
from conformance_tests.cloud.services import nova
from conformance_tests.services.reservation import leases
from conformance_tests.services.reservation.v1 import (
    cleanup as cleanup_reservation)

NOW = datetime.datetime(2026, 11, 21, 20, 33, 59)


class LeaseBodyTest(testtools.TestCase):

    def test_host_lease_pins_one_hypervisor(self):
        body = leases.host_lease('conformance-lease-1', 'pool1', NOW, 5)
        self.assertEqual('now', body['start_date'])
        self.assertEqual('2026-11-21 20:38', body['end_date'])
        (reservation,) = body['reservations']
        self.assertEqual('physical:host', reservation['resource_type'])
        self.assertEqual((1, 1), (reservation['min'], reservation['max']))
        self.assertEqual(['==', '$hypervisor_hostname', 'pool1'],
                         json.loads(reservation['hypervisor_properties']))

    def test_instance_lease_pins_its_slot_to_one_hypervisor(self):
        body = leases.host_lease('l', 'pool1', NOW,
                                 reservation=leases.instance_reservation)
        (reservation,) = body['reservations']
        self.assertEqual('virtual:instance', reservation['resource_type'])
        self.assertEqual((1, 1), (reservation['amount'],
                                  reservation['vcpus']))
        self.assertEqual(['==', '$hypervisor_hostname', 'pool1'],
                         json.loads(reservation['resource_properties']))

    def test_a_later_start_is_in_blazar_format(self):
        body = leases.host_lease('l', 'pool1', NOW, start=NOW)
        self.assertEqual('2026-11-21 20:33', body['start_date'])

    def test_reservation_id_wants_exactly_one(self):
        self.assertEqual('r1', leases.reservation_id(
            {'id': 'l', 'reservations': [{'id': 'r1'}]}))
        self.assertRaises(ValueError, leases.reservation_id,
                          {'id': 'l', 'reservations': []})


class CLINotFoundTest(testtools.TestCase):

    LEASE = '5b0e4a0c-1d2e-4f3a-9b8c-7d6e5f4a3b2c'

    def test_blazarclients_not_found_names_the_lease(self):
        pattern = leases.cli_not_found(self.LEASE)
        self.assertTrue(pattern.search(
            "Could not load 'x'\nERROR: Object with {'lease_id': '%s'} not "
            "found" % self.LEASE))
        # Another lease, another failure, or no client prefix: no match.
        self.assertIsNone(pattern.search(
            "ERROR: Object with {'lease_id': '%s'} not found" % (
                self.LEASE[:-1] + 'd')))
        self.assertIsNone(pattern.search(
            'ERROR: Unable to establish connection to '
            'http://127.0.0.1:1/v1/leases/%s' % self.LEASE))
        self.assertIsNone(pattern.search(
            "Object with {'lease_id': '%s'} not found" % self.LEASE))


class NovaFactsTest(testtools.TestCase):

    def test_hypervisor_hostname_is_the_hosts_own(self):
        hyps = [{'service': {'host': 'pool1'},
                 'hypervisor_hostname': 'fake-mini-pool1'},
                {'service': {'host': 'pool2'},
                 'hypervisor_hostname': 'fake-mini-pool2'}]
        self.assertEqual('fake-mini-pool2',
                         leases.hypervisor_hostname(hyps, 'pool2'))
        self.assertIsNone(leases.hypervisor_hostname(hyps, 'host1'))

    def test_aggregate_hosts_by_name_none_when_absent(self):
        aggs = [{'name': 'zone', 'hosts': ['host1']},
                {'name': 'freepool', 'hosts': ['pool1', 'pool2']},
                {'name': 'empty', 'hosts': []}]
        self.assertEqual({'pool1', 'pool2'},
                         leases.aggregate_hosts(aggs, 'freepool'))
        self.assertEqual(set(), leases.aggregate_hosts(aggs, 'empty'))
        self.assertIsNone(leases.aggregate_hosts(aggs, 'freepool2'))


class _Fake(object):
    def __init__(self, key, items):
        self.key, self.items, self.deleted = key, items, []

    def listing(self):
        return {self.key: list(self.items)}

    def delete(self, item_id):
        self.deleted.append(item_id)

    def show(self, item_id):
        (item,) = [i for i in self.items if i['id'] == item_id]
        return {self.key[:-1]: dict(item)}


class _Ctx(object):
    def __init__(self, leases_list, hosts_list):
        self.names = names.RunNames('conformance', ['PreemptibleLeaseTest'])
        self.enrolled_marker = cleanup_reservation.enrolled_marker(
            'conformance')
        lf = _Fake('leases', leases_list)
        hf = _Fake('hosts', hosts_list)
        self.leases_fake, self.hosts_fake = lf, hf

        class Leases(object):
            list_leases = staticmethod(lf.listing)
            show_lease = staticmethod(lf.show)
            delete_lease = staticmethod(lf.delete)

        class Hosts(object):
            list_hosts = staticmethod(hf.listing)
            delete_host = staticmethod(hf.delete)

        self.leases_client, self.hosts_client = Leases(), Hosts()


class CleanupTest(testtools.TestCase):

    def test_only_the_runs_leases_and_enrolments_go(self):
        ctx = _Ctx(
            [{'id': 'a', 'name': 'conformance-lease-123',
              'status': 'ACTIVE'},
             {'id': 'b', 'name': 'operators-lease', 'status': 'ACTIVE'}],
            [{'id': '1', 'hypervisor_hostname': 'pool1',
              'conformance_enrolled': 'true'},
             {'id': '2', 'hypervisor_hostname': 'pool2'},
             {'id': '3', 'hypervisor_hostname': 'pool3',
              'other_enrolled': 'true'}])
        for kind in (cleanup_reservation.Leases(),
                     cleanup_reservation.Hosts()):
            self.assertEqual([], kind.remove(ctx, kind.find(ctx)))
        self.assertEqual(['a'], ctx.leases_fake.deleted)
        self.assertEqual(['1'], ctx.hosts_fake.deleted)


class DescriptorTest(testtools.TestCase):

    def test_blazar_contributes_its_filter_and_hosts_to_nova(self):
        given = blazar.SERVICE.contributions()
        self.assertEqual(['BlazarFilter'], given[nova.SCHEDULER_FILTERS])
        self.assertTrue(given[nova.NOVA_CONF]['blazar:physical:host'][
            'allow_preemptibles'])
        self.assertIn(blazar.FILTER, given[nova.NOVA_CONF][
            'filter_scheduler']['available_filters'])
        hosts = [entry[0] for entry in given[nova.EXTRA_COMPUTES]]
        self.assertEqual(list(blazar.FREEPOOL_HOSTS), hosts)

    def test_graceful_shutdown_time_reaches_tempest(self):
        # The graceful-termination test checks the wait blazar.conf sets.
        conformance = blazar.SERVICE.tempest_conf(None)['conformance']
        self.assertEqual(str(blazar.GRACEFUL_SHUTDOWN_TIME), conformance[
            'preemptible_graceful_shutdown_time'])

    def test_only_evictions_take_time_to_destroy(self):
        # The tests' own deletes are awaited before anything acts on the
        # host: their destroy is instant, as on the zone hosts; blazar's
        # evictions take EVICTION_DESTROY_SECONDS.
        given = blazar.SERVICE.contributions()[nova.EXTRA_COMPUTES]
        self.assertEqual(
            [(host, blazar.FREEPOOL_CELL, 0,
              {blazar.SERVICE_USER: blazar.EVICTION_DESTROY_SECONDS})
             for host in blazar.FREEPOOL_HOSTS], given)
        self.assertGreater(blazar.EVICTION_DESTROY_SECONDS, 0)

    def test_the_eviction_user_is_the_one_blazar_acts_as(self):
        from conformance_tests.cloud import secrets as cloud_secrets
        secrets = cloud_secrets.generate(['blazar'])
        self.assertEqual(blazar.SERVICE_USER,
                         secrets['services']['blazar']['username'])

    def test_freepool_hosts_are_in_no_zone_of_the_layout(self):
        from conformance_tests.cloud.services.nova import (
            layout as compute_layout)
        zoned = {h for hosts in compute_layout.ZONES.values() for h in hosts}
        self.assertFalse(zoned & set(blazar.FREEPOOL_HOSTS))
        self.assertNotEqual(compute_layout.DOWN_CELL, blazar.FREEPOOL_CELL)


class FakeComputeTest(testtools.TestCase):

    class Driver(object):
        def __init__(self):
            self.calls = []

        def destroy(self, context, instance, network_info):
            self.calls.append(instance)
            return 'destroyed'

    def test_destroy_sleeps_first_then_destroys(self):
        from unittest import mock

        from conformance_tests.cloud.services.nova import fake_compute
        driver = self.Driver()
        fake_compute.give_destroy_time(driver, 2)
        order = []
        with mock.patch.object(fake_compute.time, 'sleep',
                               side_effect=lambda s: order.append(s)):
            self.assertEqual('destroyed', driver.destroy('ctx', 'i1', []))
        self.assertEqual([2], order)
        self.assertEqual(['i1'], driver.calls)

    def test_a_delete_asked_by_the_named_user_takes_its_time(self):
        from unittest import mock

        from conformance_tests.cloud.services.nova import fake_compute

        class Context(object):
            def __init__(self, user_name):
                self.user_name = user_name
        driver = self.Driver()
        fake_compute.give_destroy_time(driver, 2, {'blazar': 6})
        slept = []
        with mock.patch.object(fake_compute.time, 'sleep',
                               side_effect=slept.append):
            driver.destroy(Context('blazar'), 'i1', [])
            driver.destroy(Context('admin'), 'i2', [])
            driver.destroy('a context without a user name', 'i3', [])
        self.assertEqual([6, 2, 2], slept)
        self.assertEqual(['i1', 'i2', 'i3'], driver.calls)

    def test_no_time_leaves_the_driver_alone(self):
        from conformance_tests.cloud.services.nova import fake_compute
        driver = self.Driver()
        destroy = driver.destroy
        fake_compute.give_destroy_time(driver, 0)
        self.assertEqual(destroy, driver.destroy)

    def test_hook_entries_default_to_no_destroy_time(self):
        from conformance_tests.cloud.services.nova import app as nova_app
        self.assertEqual(('h', 'cell1', 0, {}),
                         nova_app._extra_compute(['h', 'cell1']))
        self.assertEqual(('h', 'cell1', 2, {}),
                         nova_app._extra_compute(['h', 'cell1', 2]))
        self.assertEqual(('h', 'cell1', 2, {'u': 6}),
                         nova_app._extra_compute(['h', 'cell1', 2, {'u': 6}]))
