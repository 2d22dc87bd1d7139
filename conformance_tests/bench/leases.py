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

"""How long a host lease starting ``now`` takes to leave blazar's
transitional states, with 0 and with several preemptibles on its host.

Run as ``python -m conformance_tests.bench.leases WORKSPACE ROUNDS`` on a
running cloud (the bench runs it on the default cloud and on one started
with ``--profile spec-reference``); prints one JSON object on stdout.
For each round and each count in PREEMPTIBLES it:

1. boots that many preemptible servers (flavor ``blazar:preemptible``) on
   the first of [conformance] preemptible_hosts, each waited ACTIVE there;
2. creates a lease of that host starting ``now`` and shows it every
   TIGHT_POLL seconds until its status is ACTIVE, ERROR or TERMINATED:
   that status and the seconds from POST /leases to the first show of it
   are the sample;
3. deletes the lease, waits until blazar has given the host back to the
   freepool, and deletes whatever server is left.

Upstream (blazar 18) the lease goes ERROR when a preemptible was on the
host (FACTS: nova refuses to move a host that still has servers); the
spec reference waits for the servers to be gone. Both are figures here,
never verdicts: the tests judge.
"""

import sys
import time

from conformance_tests.bench import measure_child

# 2.74: an admin names the host a server must go to (the BlazarFilter
# still runs), as the seed-004 tests do.
MICROVERSION = '2.74'
PREEMPTIBLES = (0, 1, 3)
TIGHT_POLL = 0.1
TRANSITIONAL_TIMEOUT = 300


class LeaseMeter(object):
    def __init__(self, conf, manager):
        self.conf = conf
        self.servers = manager.servers_client
        self.flavors = manager.flavors_client
        self.aggregates = manager.aggregates_client
        self.hypervisors = manager.hypervisor_client
        reservation = manager.conformance_reservation_v1
        self.leases = reservation.LeasesClient()
        self.hosts = reservation.HostsClient()
        pool = list(conf.conformance.preemptible_hosts)
        if not pool:
            raise RuntimeError('[conformance] preemptible_hosts is empty: '
                               'the cloud has no blazar freepool host')
        self.host = pool[0]
        self.flavor = None

    def prefixed(self, what):
        from tempest.lib.common.utils import data_utils
        return data_utils.rand_name(
            prefix=self.conf.conformance.resource_prefix, name=what)

    def make_flavor(self):
        flavor = self.flavors.create_flavor(
            name=self.prefixed('bench-preemptible'), ram=64, vcpus=1,
            disk=1)['flavor']
        self.flavor = flavor['id']
        self.flavors.set_flavor_extra_spec(
            self.flavor, **{'blazar:preemptible': 'true'})

    def delete_flavor(self):
        if self.flavor:
            from tempest.lib.common.utils import test_utils
            test_utils.call_and_ignore_notfound_exc(
                self.flavors.delete_flavor, self.flavor)

    def hypervisor_hostname(self):
        from conformance_tests.services.reservation import leases
        name = leases.hypervisor_hostname(self.hypervisors.list_hypervisors(
            detail=True)['hypervisors'], self.host)
        if name is None:
            raise RuntimeError('no hypervisor of compute host %s' %
                               self.host)
        return name

    def in_freepool(self):
        from conformance_tests.services.reservation import leases
        return self.host in (leases.aggregate_hosts(
            self.aggregates.list_aggregates()['aggregates'],
            self.conf.conformance.blazar_freepool) or ())

    def boot_preemptible(self, index):
        from conformance_tests.common import waiters
        server_id = self.servers.create_server(
            name=self.prefixed('bench-lease-%d' % index),
            imageRef=self.conf.compute.image_ref, flavorRef=self.flavor,
            networks='none', host=self.host)['server']['id']
        server = waiters.wait_for_server_settled(self.servers, server_id)
        where = server.get('OS-EXT-SRV-ATTR:host')
        if server['status'] != 'ACTIVE' or where != self.host:
            raise RuntimeError('preemptible %s is %s on %s, not ACTIVE on '
                               '%s' % (server_id, server['status'], where,
                                       self.host))
        return server_id

    def lease_once(self, count):
        """(status, seconds) of one lease over ``count`` preemptibles."""
        from oslo_utils import timeutils

        from conformance_tests.common import waiters
        from conformance_tests.services.reservation import leases
        servers = [self.boot_preemptible(i) for i in range(count)]
        lease_id = None
        try:
            body = leases.host_lease(self.prefixed('bench-lease'),
                                     self.hypervisor_hostname(),
                                     timeutils.utcnow())
            started = time.monotonic()
            lease_id = self.leases.create_lease(**body)['lease']['id']
            while True:
                status = self.leases.show_lease(lease_id)['lease']['status']
                took = time.monotonic() - started
                if status in (leases.ACTIVE, leases.ERROR,
                              leases.TERMINATED):
                    return status, round(took, 3)
                if took > TRANSITIONAL_TIMEOUT:
                    raise RuntimeError('lease %s still %s after %s s' % (
                        lease_id, status, TRANSITIONAL_TIMEOUT))
                time.sleep(TIGHT_POLL)
        finally:
            if lease_id:
                self.end_lease(lease_id)
            for server_id in servers:
                waiters.delete_server(self.servers, server_id)

    def end_lease(self, lease_id):
        from tempest.lib.common.utils import test_utils
        from tempest.lib import exceptions as lib_exc

        from conformance_tests.common import waiters
        test_utils.call_and_ignore_notfound_exc(self.leases.delete_lease,
                                                lease_id)

        def gone():
            try:
                self.leases.show_lease(lease_id)
            except lib_exc.NotFound:
                return True
            return False

        waiters.wait_until('lease %s to be gone' % lease_id, gone)
        waiters.wait_until('%s to be back in the freepool' % self.host,
                           self.in_freepool)


def measure_all(workspace, rounds):
    conf, manager = measure_child.load_tempest(workspace, MICROVERSION)
    meter = LeaseMeter(conf, manager)
    samples = {str(k): [] for k in PREEMPTIBLES}
    meter.make_flavor()
    try:
        for _ in range(rounds):
            for count in PREEMPTIBLES:
                status, seconds = meter.lease_once(count)
                samples[str(count)].append({'status': status,
                                            'seconds': seconds})
    finally:
        meter.delete_flavor()
    return {'host': meter.host, 'tight_poll': TIGHT_POLL,
            'samples': samples}


def main(argv=None):
    return measure_child.main('leases', measure_all, argv)


if __name__ == '__main__':
    sys.exit(main())
