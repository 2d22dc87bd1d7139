"""Seed 004 (Blazar preemptible instances): mutants and spec references.

Mutants of blazar-nova's BlazarFilter run in nova's process (service
``nova``); mutants and references of blazar's host plugin run in blazar's
process (service ``blazar``). Each patches real upstream code at the
narrowest point that breaks, or (a reference) mends, one spec rule.
"""

import time

from conformance_tests.cloud.mutants import reference
from conformance_tests.cloud.mutants import register

FREEPOOL_ONLY = 'reservation.preemptible.freepool-only'
FREEPOOL_FULL = 'reservation.preemptible.freepool-full'
REGULAR_OUTSIDE = 'reservation.preemptible.regular-outside-freepool'
RESERVED_HOST = 'reservation.lease.reserved-host'
EVICTS = 'reservation.lease.evicts-preemptibles'
INSTANCE_EVICTS = 'reservation.lease.instance-reservation-evicts'
RACE = 'reservation.lease.no-preemptible-after-termination'
GRACEFUL = 'reservation.lease.graceful-termination'
API_ERRORS = 'reservation.api.bad-reservations'

# What the spec-reference patch waits for, at most (seconds): the embedded
# cloud's freepool hypervisors stop at once and take
# the descriptor's DESTROY_SECONDS to destroy.
GRACEFUL_SHUTDOWN_TIME = 10
GONE_TIMEOUT = 60


def _pool_class():
    from blazar.utils.openstack import nova
    return nova.ReservationPool


@register('blazar-host-stays-in-freepool', 'blazar', (RESERVED_HOST,),
          'at lease start the allocated host leaves the freepool')
def host_stays_in_freepool():
    pool = _pool_class()
    original = pool.add_computehost

    def add_computehost(self, pool_id, hosts, stay_in=False):
        return original(self, pool_id, hosts, stay_in=True)

    pool.add_computehost = add_computehost


@register('blazar-lease-end-keeps-host', 'blazar', (RESERVED_HOST,),
          'when the lease ends the host is back in the freepool',
          # The host it keeps is out of the freepool aggregate (nova's and
          # placement's view of it) for good: that is the broken rule.
          leaves=('aggregate hosts', 'provider aggregates'))
def lease_end_keeps_host():
    pool = _pool_class()
    original = pool.delete

    def delete(self, name, force=True):
        hosts = self.get_computehosts(name)
        original(self, name, force=force)
        for host in hosts:
            self.remove_computehost(self.freepool_name, host)

    pool.delete = delete


@register('blazar-evicts-everywhere', 'blazar', (RESERVED_HOST,),
          'only the preemptibles on the allocated hosts are terminated')
def evicts_everywhere():
    pool = _pool_class()
    original = pool.terminate_preemptibles

    def terminate_preemptibles(self, host):
        for other in self.get_computehosts(self.freepool_name):
            original(self, other)
        original(self, host)

    pool.terminate_preemptibles = terminate_preemptibles


def _servers_on(pool, host):
    return pool.nova.servers.list(
        search_opts={'host': host, 'all_tenants': 1})


def _wait(what, check, timeout):
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError('spec reference: %s after %d s' % (
                what, timeout))
        time.sleep(0.5)


@reference('blazar-preemptible-termination', 'blazar',
           (EVICTS, GRACEFUL, RACE),
           'preemptibles on an allocated host are shut down softly, deleted '
           'after [preemptible] graceful_shutdown_time, and gone before the '
           'host joins the reservation; one that raced the host out of the '
           'freepool is deleted too')
def preemptible_termination():
    pool = _pool_class()

    def terminate_preemptibles(self, host):
        _terminate(self, host, preemptible=lambda server: True)

    pool.terminate_preemptibles = terminate_preemptibles


def _terminate(pool, host, preemptible):
    """Shut down softly, then delete, the servers on ``host`` that
    ``preemptible(server)`` says are preemptible; return once none is
    left on the host."""
    from novaclient import exceptions as nova_exc

    def on_host():
        return [s for s in _servers_on(pool, host) if preemptible(s)]

    servers = on_host()
    for server in servers:
        try:
            pool.nova.servers.stop(server)
        except nova_exc.Conflict:
            pass  # already stopped
    ids = {s.id for s in servers}

    def all_off():
        return all(s.status == 'SHUTOFF' for s in on_host() if s.id in ids)
    try:
        _wait('soft shutdown', all_off, GRACEFUL_SHUTDOWN_TIME)
    except RuntimeError:
        pass  # the grace time is over: delete anyway
    deleted = set()

    def delete(server):
        deleted.add(server.id)
        try:
            pool.nova.servers.delete(server)
        except nova_exc.NotFound:
            pass

    for server in servers:
        delete(server)

    def gone():
        # The host left the freepool before this ran; a preemptible the
        # scheduler placed just before may still land: delete it.
        left = on_host()
        for server in left:
            if server.id not in deleted:
                delete(server)
        return not left

    _wait('servers still on %s' % host, gone, GONE_TIMEOUT)


@reference('blazar-instance-reservation-termination', 'blazar',
           (INSTANCE_EVICTS,),
           'at the start of an instance reservation, the servers on its '
           'hosts that do not use the reservation\'s flavor are terminated '
           '(softly first) before the lease is active')
def instance_reservation_termination():
    from blazar.db import api as db_api
    from blazar.plugins.instances import instance_plugin
    plugin = instance_plugin.VirtualInstancePlugin
    original = plugin.on_start

    def on_start(self, resource_id):
        reservation_id = db_api.instance_reservation_get(resource_id)[
            'reservation_id']
        pool = _pool_class()()
        hosts = {a['compute_host_id'] for a in
                 db_api.host_allocation_get_all_by_values(
                     reservation_id=reservation_id)}
        # The reservation's flavor: its id (compute API below 2.47) or its
        # name reservation:<id> (2.47 and later embed the flavor).
        ours = {reservation_id, 'reservation:%s' % reservation_id}
        for host_id in sorted(hosts):
            _terminate(pool, db_api.host_get(host_id)['service_name'],
                       preemptible=lambda server: not ours & {
                           server.flavor.get('id'),
                           server.flavor.get('original_name')})
        return original(self, resource_id)

    plugin.on_start = on_start


@reference('blazar-reservation-errors-are-4xx', 'blazar', (API_ERRORS,),
           'a lease whose reservation cannot be made is a client error: '
           'an unsupported resource type 400, too few hosts 409')
def reservation_errors_are_4xx():
    from blazar.manager import exceptions as manager_exc
    manager_exc.UnsupportedResourceType.code = 400
    manager_exc.NotEnoughHostsAvailable.code = 409
