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

"""Seed 004 names each compute node as the API it talks to does: nova's
service host for boots, aggregates and servers, the hypervisor hostname
for blazar's host API, leases and placement. On a libvirt-like cloud the
two differ (pool1 and pool1.example.org); nothing may compare them. Fake
listings; no cloud."""

import json
import types

import fixtures
import testtools

from conformance_tests.scenario import test_preemptible_instances as seed
from conformance_tests.selftests.services.reservation import fakes
from conformance_tests.services.reservation import leases


class ComputesTest(testtools.TestCase):

    def test_each_service_host_gets_its_fqdn_hypervisor(self):
        self.assertEqual(
            [leases.Compute('pool1', 'pool1.example.org'),
             leases.Compute('pool2', 'pool2.example.org')],
            leases.computes(fakes.HYPERVISORS, ['pool1', 'pool2']))

    def test_order_is_the_configured_one(self):
        self.assertEqual(['pool2', 'pool1'], [c.host for c in leases.computes(
            fakes.HYPERVISORS, ['pool2', 'pool1'])])

    def test_a_hypervisor_name_is_not_a_service_host(self):
        e = self.assertRaises(LookupError, leases.computes,
                              fakes.HYPERVISORS, ['pool1.example.org'])
        self.assertIn('pool1.example.org has no hypervisor', str(e))

    def test_a_host_of_several_nodes_is_refused_naming_them(self):
        hyps = fakes.HYPERVISORS + [
            {'service': {'host': 'pool1'},
             'hypervisor_hostname': 'pool1-b.example.org'}]
        e = self.assertRaises(LookupError, leases.computes, hyps, ['pool1'])
        self.assertIn('pool1-b.example.org, pool1.example.org', str(e))


class BlazarRecordsTest(testtools.TestCase):

    records = [{'id': '1', 'hypervisor_hostname': 'pool1.example.org',
                'service_name': 'pool1'}]

    def test_an_enrolment_is_found_by_its_hypervisor_hostname_only(self):
        self.assertEqual('1', leases.enrolment(
            self.records, 'pool1.example.org')['id'])
        self.assertIsNone(leases.enrolment(self.records, 'pool1'))

    def test_managed_hosts_are_service_hosts(self):
        self.assertEqual({'pool1'}, leases.managed_hosts(self.records))


class _Leases(object):
    def __init__(self):
        self.created = []

    def create_lease(self, **body):
        self.created.append(body)
        return {'lease': dict(body, id='l1')}


class ScenarioNamesTest(testtools.TestCase):
    """The scenario's helpers on the libvirt-like cloud, with a fake
    ``self``: leases name hypervisors, the unmanaged hosts are service
    hosts blazar does not manage."""

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.MockPatchObject(
            seed, 'CONF', types.SimpleNamespace(
                conformance=types.SimpleNamespace(
                    resource_prefix='conformance'))))
        pool = leases.computes(fakes.HYPERVISORS, ['pool1', 'pool2'])
        self.test = types.SimpleNamespace(
            leases=_Leases(), cleanups=[], lease_names=[],
            pool_hosts=[c.host for c in pool],
            nodes={c.host: c.hypervisor_hostname for c in pool})
        self.test.addCleanup = lambda *a: self.test.cleanups.append(a)
        self.test.end_leases_named = lambda name: None
        self.test.node = lambda host: seed.PreemptibleTest.node(
            self.test, host)

    def test_a_host_lease_names_the_hypervisor(self):
        for reservation, key in (
                (leases.host_reservation, 'hypervisor_properties'),
                (leases.instance_reservation, 'resource_properties')):
            lease = seed.PreemptibleTest.lease_host(self.test, 'pool2',
                                                    'a rule', reservation)
            (res,) = lease['reservations']
            self.assertEqual(['==', '$hypervisor_hostname',
                              'pool2.example.org'], json.loads(res[key]))

    def test_the_lease_removal_is_registered_before_the_post(self):
        class Refusing(_Leases):
            def create_lease(self, **body):
                raise RuntimeError('POST timed out')
        self.test.leases = Refusing()
        self.assertRaises(RuntimeError, seed.PreemptibleTest.lease_host,
                          self.test, 'pool1', 'a rule')
        (name,) = self.test.lease_names
        self.assertTrue(name.startswith('conformance'), name)
        # No cleanup of its own: the test's leases end after its other
        # cleanups (PreemptibleTest.setUp), the servers' removal first.
        self.assertEqual([], self.test.cleanups)

    def test_every_lease_ends_even_after_a_failure(self):
        ended = []

        def end(name):
            ended.append(name)
            if name == 'b':
                raise RuntimeError('blazar answered 500')
        self.test.lease_names = ['a', 'b', 'c']
        self.test.end_leases_named = end
        self.assertRaises(RuntimeError, seed.PreemptibleTest.end_leases,
                          self.test)
        self.assertEqual(['c', 'b', 'a'], ended)

    def test_unmanaged_hosts_leave_out_what_blazar_manages(self):
        blazar = fakes.FakeHosts(enrolled=[('pool1.example.org', {}),
                                           ('host2.example.org', {})])
        services = [{'host': h, 'state': 'up', 'status': 'enabled'}
                    for h in ('host1', 'host2', 'pool1', 'pool2')]
        self.test.hosts = blazar
        self.test.os_admin = types.SimpleNamespace(
            services_client=types.SimpleNamespace(
                list_services=lambda binary: {'services': services}))
        self.assertEqual(['host1'], seed.PreemptibleTest.unmanaged_hosts(
            self.test, 'a rule'))
