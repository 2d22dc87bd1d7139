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

"""Seed 004 (Blazar preemptible instances): mutants and spec references.

Mutants of blazar-nova's BlazarFilter (filter_mutants.py) and of nova's
quota counting (quota_mutants.py) run in nova's process (service
``nova``); mutants and references of blazar's plugins run in blazar's
process (service ``blazar``), here. Each patches real upstream code at the
narrowest point that breaks, or (a reference) mends, one spec rule; the
spec-reference mutants below break one step of a reference again, and the
wrong-reason mutants fail an expected-fail capability for another cause
than blazar 18's.
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
INSTANCE_REFUSES = ('reservation.lease.instance-reservation-refuses-'
                    'preemptibles')
RACE = 'reservation.lease.no-preemptible-after-termination'
INSTANCE_RACE = ('reservation.lease.instance-no-preemptible-after-'
                 'termination')
GRACEFUL = 'reservation.lease.graceful-termination'
API_ERRORS = 'reservation.api.bad-reservations'
LIFECYCLE = 'reservation.api.lease-lifecycle'
# The same lease as python-blazarclient shows it (`openstack reservation
# lease ...`): a cloud that keeps a deleted lease breaks both.
CLI_LEASE = 'reservation.cli.host-lease'
BAD_REQUESTS = 'reservation.api.bad-requests'

# [preemptible] graceful_shutdown_time, the option the spec adds to
# blazar.conf ("time to wait between the soft shutdown request and the
# termination request"): the spec reference registers it, the embedded
# cloud's blazar.conf sets it (__init__.py) and so does its tempest.conf,
# whose tests check the wait. GONE_TIMEOUT: how long the reference waits,
# at most, for the deleted servers to leave the host.
GRACEFUL_GROUP = 'preemptible'
GRACEFUL_OPTION = 'graceful_shutdown_time'
GRACEFUL_SHUTDOWN_DEFAULT = 10
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


def _register_graceful_option():
    """[preemptible] graceful_shutdown_time in blazar's config (the spec's
    new option; blazar 18 has none), read from blazar.conf."""
    from oslo_config import cfg
    option = cfg.IntOpt(
        GRACEFUL_OPTION, default=GRACEFUL_SHUTDOWN_DEFAULT, min=0,
        help='Seconds to wait between the soft shutdown request of a '
             'preemptible and its termination request.')
    try:
        cfg.CONF.register_opt(option, group=GRACEFUL_GROUP)
    except cfg.DuplicateOptError:
        pass  # both references register it


def _graceful_shutdown_time():
    from oslo_config import cfg
    return cfg.CONF[GRACEFUL_GROUP][GRACEFUL_OPTION]


@reference('blazar-preemptible-termination', 'blazar',
           (EVICTS, GRACEFUL, RACE),
           'preemptibles on an allocated host are shut down softly, deleted '
           'after [preemptible] graceful_shutdown_time, and gone before the '
           'host joins the reservation; one that raced the host out of the '
           'freepool is deleted too')
def preemptible_termination():
    _register_graceful_option()
    pool = _pool_class()

    def terminate_preemptibles(self, host):
        _terminate(self, host, preemptible=lambda server: True)

    pool.terminate_preemptibles = terminate_preemptibles


# The steps of _terminate are module functions, looked up when it runs,
# so that a spec-reference mutant can replace one of them.
def _soft_shutdown(pool, servers):
    """The spec's soft shutdown: ask nova to stop each server."""
    from novaclient import exceptions as nova_exc
    for server in servers:
        try:
            pool.nova.servers.stop(server)
        except nova_exc.Conflict:
            pass  # already stopped


def _grace():
    """The spec's "time to wait between the soft shutdown request and the
    termination request": [preemptible] graceful_shutdown_time."""
    time.sleep(_graceful_shutdown_time())


def _wait_gone(pool, host, on_host, deleted, delete):
    """Return once no server ``on_host()`` lists is left on ``host``; a
    server there that ``deleted`` does not hold (a preemptible the
    scheduler placed just before the host left the freepool) is deleted
    too."""
    def gone():
        left = on_host()
        for server in left:
            if server.id not in deleted:
                delete(server)
        return not left

    _wait('servers still on %s' % host, gone, GONE_TIMEOUT)


def _terminate(pool, host, preemptible):
    """Shut down softly, then (after [preemptible]
    graceful_shutdown_time) delete, the servers on ``host`` that
    ``preemptible(server)`` says are preemptible; return once none is
    left on the host."""
    from novaclient import exceptions as nova_exc

    def on_host():
        return [s for s in _servers_on(pool, host) if preemptible(s)]

    servers = on_host()
    if servers:
        _soft_shutdown(pool, servers)
        _grace()
    deleted = set()

    def delete(server):
        deleted.add(server.id)
        try:
            pool.nova.servers.delete(server)
        except nova_exc.NotFound:
            pass

    for server in servers:
        delete(server)
    _wait_gone(pool, host, on_host, deleted, delete)


def _reservation_flavor(server):
    """Whether the server uses a Blazar reservation flavor (the spec's
    "such a flavor"): blazar names each reservation:<id> and gives it the
    reservation's id, which the server shows by name (compute API 2.47
    and later embed the flavor) or by id (below 2.47)."""
    from blazar.db import api as db_api
    name = server.flavor.get('original_name') or ''
    if name.startswith('reservation:'):
        return True
    flavor_id = server.flavor.get('id')
    return bool(flavor_id) and db_api.reservation_get(flavor_id) is not None


def _instance_reservation_preemptible(reservation_id):
    """Whether a server on a host of instance reservation
    ``reservation_id`` is preemptible: it uses no reservation's flavor,
    this reservation's or another's (the host may hold several)."""
    return lambda server: not _reservation_flavor(server)


#: Whether the instance reference puts the hosts in the reservation's
#: aggregate before it terminates their preemptibles (the spec's race:
#: no new preemptible once termination requests are sent; with
#: blazar-instance-host-refuses-preemptibles a host in that aggregate
#: refuses them). blazar-ref-instance-terminates-first turns it off.
INSTANCE_AGGREGATE_FIRST = True


@reference('blazar-instance-reservation-termination', 'blazar',
           (INSTANCE_EVICTS, INSTANCE_RACE),
           'at the start of an instance reservation, the servers on its '
           'hosts that do not use the reservation\'s flavor are terminated '
           '(softly first) before the lease is active, once the hosts are '
           'in the reservation\'s aggregate (which refuses new '
           'preemptibles)')
def instance_reservation_termination():
    from blazar.db import api as db_api
    from blazar.plugins.instances import instance_plugin
    _register_graceful_option()
    plugin = instance_plugin.VirtualInstancePlugin
    original = plugin.on_start

    def terminate(resource_id):
        reservation_id = db_api.instance_reservation_get(resource_id)[
            'reservation_id']
        pool = _pool_class()()
        hosts = {a['compute_host_id'] for a in
                 db_api.host_allocation_get_all_by_values(
                     reservation_id=reservation_id)}
        for host_id in sorted(hosts):
            _terminate(pool, db_api.host_get(host_id)['service_name'],
                       _instance_reservation_preemptible(reservation_id))

    def on_start(self, resource_id):
        if not INSTANCE_AGGREGATE_FIRST:
            terminate(resource_id)
        result = original(self, resource_id)
        if INSTANCE_AGGREGATE_FIRST:
            terminate(resource_id)
        return result

    plugin.on_start = on_start


@reference('blazar-reservation-errors-are-4xx', 'blazar', (API_ERRORS,),
           'a lease whose reservation cannot be made is a client error: '
           'an unsupported resource type 400, too few hosts 409')
def reservation_errors_are_4xx():
    from blazar.manager import exceptions as manager_exc
    manager_exc.UnsupportedResourceType.code = 400
    manager_exc.NotEnoughHostsAvailable.code = 409


# -- mutants of the spec references (profile spec-reference) ---------------
# Upstream already breaks these rules, so each mutant breaks one step of
# its reference again, on top of it; the references are applied first.

@register('blazar-ref-no-wait-for-deletion', 'blazar',
          (EVICTS, RACE, INSTANCE_EVICTS),
          'preemptibles on the allocated host are gone before the host '
          'joins the reservation: the reference deletes them but moves the '
          'host on without waiting, as blazar 18 does',
          profile='spec-reference')
def ref_no_wait_for_deletion():
    global _wait_gone

    def _no_wait(pool, host, on_host, deleted, delete):
        return None

    _wait_gone = _no_wait


@register('blazar-ref-instance-terminates-first', 'blazar',
          (INSTANCE_RACE,),
          'no new preemptible starts on a host allocated to an instance '
          'reservation once termination requests are sent: the reference '
          'terminates the host\'s preemptibles while the host is only in '
          'the freepool, and puts it in the reservation\'s aggregate after',
          profile='spec-reference')
def ref_instance_terminates_first():
    global INSTANCE_AGGREGATE_FIRST
    INSTANCE_AGGREGATE_FIRST = False


@register('blazar-ref-terminates-in-freepool', 'blazar', (RACE,),
          'no new preemptible starts on the allocated host once termination '
          'requests are sent: the reference terminates the host\'s '
          'preemptibles (and waits until they are gone) while the host is '
          'still in the freepool, the spec\'s before_start_lease, and only '
          'then takes it out of the freepool',
          profile='spec-reference')
def ref_terminates_in_freepool():
    pool = _pool_class()
    original = pool.add_computehost

    def add_computehost(self, pool_id, hosts, stay_in=False):
        if pool_id != self.freepool_name and not stay_in:
            for host in hosts if isinstance(hosts, list) else [hosts]:
                self.terminate_preemptibles(host)
            # Done above: the move out of the freepool terminates nothing.
            self.terminate_preemptibles = lambda host: None
        return original(self, pool_id, hosts, stay_in=stay_in)

    pool.add_computehost = add_computehost


@register('blazar-ref-no-soft-shutdown', 'blazar', (GRACEFUL,),
          'an evicted preemptible is first shut down softly: the reference '
          'skips the stop and only deletes it, after the grace time',
          profile='spec-reference')
def ref_no_soft_shutdown():
    global _soft_shutdown

    def _skipped(pool, servers):
        return None

    _soft_shutdown = _skipped


@register('blazar-ref-no-grace-time', 'blazar', (GRACEFUL,),
          'an evicted preemptible is deleted after [preemptible] '
          'graceful_shutdown_time: the reference stops it softly, then '
          'deletes it at once',
          profile='spec-reference')
def ref_no_grace_time():
    global _grace

    def _none():
        return None

    _grace = _none


@register('blazar-ref-instance-eviction-skipped', 'blazar',
          (INSTANCE_EVICTS,),
          'a server on a host of an instance reservation that does not use '
          'its flavor is preemptible and terminated: the reference takes '
          'no server there for preemptible',
          profile='spec-reference')
def ref_instance_eviction_skipped():
    global _instance_reservation_preemptible

    def _none(reservation_id):
        return lambda server: False

    _instance_reservation_preemptible = _none


@register('blazar-ref-other-reservations-evicted', 'blazar',
          (INSTANCE_EVICTS,),
          'only a server that uses no reservation flavor is preemptible: '
          'the reference spares the starting reservation\'s own flavor '
          'alone and terminates another instance reservation\'s server '
          'on the host',
          profile='spec-reference')
def ref_other_reservations_evicted():
    global _instance_reservation_preemptible

    def _own_flavor_only(reservation_id):
        ours = {reservation_id, 'reservation:%s' % reservation_id}
        return lambda server: not ours & {server.flavor.get('id'),
                                          server.flavor.get('original_name')}

    _instance_reservation_preemptible = _own_flavor_only


@register('blazar-ref-too-few-hosts-500', 'blazar', (API_ERRORS,),
          'a lease asking for a host no one has is a client error: too few '
          'hosts is back to blazar 18\'s 500 (an unsupported resource type '
          'stays 400)',
          profile='spec-reference')
def ref_too_few_hosts_500():
    from blazar.manager import exceptions as manager_exc
    manager_exc.NotEnoughHostsAvailable.code = 500


# -- wrong-reason mutants (default profile) --------------------------------
# Each makes an expected-fail capability's tests fail for a cause other
# than blazar 18's: its guideline's signature must not match the failure,
# so the report judges it `fail`.

@register('blazar-lease-start-errors', 'blazar',
          (EVICTS, RACE, GRACEFUL, INSTANCE_EVICTS, INSTANCE_RACE),
          'blazar errors every lease start that adds a host '
          'to an aggregate, before it touches the host or its servers (no '
          'removal from the freepool, no delete, no nova 409)',
          wrong_reason=True)
def lease_start_errors():
    from blazar import exceptions as blazar_exc
    pool = _pool_class()
    original = pool.add_computehost

    def add_computehost(self, pool_id, hosts, stay_in=False):
        if pool_id == self.freepool_name:  # enrolments, lease ends
            return original(self, pool_id, hosts, stay_in=stay_in)
        raise blazar_exc.BlazarException(
            'mutant: the aggregate service failed')

    pool.add_computehost = add_computehost


@register('blazar-never-evicts', 'blazar', (EVICTS, RACE, GRACEFUL),
          'a host lease leaves its host in the freepool and '
          'skips the termination of its servers; nova refuses the zone '
          'change of a host that has instances, without blazar having '
          'deleted anything',
          wrong_reason=True)
def never_evicts():
    host_stays_in_freepool()


@register('blazar-add-refused-after-eviction', 'blazar', (EVICTS, RACE),
          'blazar deletes the host\'s servers and waits until '
          'they are gone, then the host\'s move into the reservation\'s '
          'aggregate is refused for another cause (nova refusing the add): '
          'the lease is ERROR although no server was left on the host',
          wrong_reason=True)
def add_refused_after_eviction():
    from blazar.manager import exceptions as manager_exc
    pool = _pool_class()
    original = pool.terminate_preemptibles

    def terminate_preemptibles(self, host):
        deleted = {server.id for server in _servers_on(self, host)}
        original(self, host)
        _wait('servers still on %s' % host, lambda: not deleted & {
            server.id for server in _servers_on(self, host)}, GONE_TIMEOUT)
        raise manager_exc.AggregateAlreadyHasHost(
            pool='reservation', host=host,
            nova_exception='mutant: nova refuses the add')

    pool.terminate_preemptibles = terminate_preemptibles


@register('blazar-instance-host-not-aggregated', 'blazar',
          (INSTANCE_REFUSES, INSTANCE_EVICTS, INSTANCE_RACE),
          'an instance lease starts without putting its host '
          'in the reservation\'s aggregate (blazar adds nothing to it), so '
          'the host is only in the freepool',
          wrong_reason=True)
def instance_host_not_aggregated():
    pool = _pool_class()
    original = pool.add_computehost

    def add_computehost(self, pool_id, hosts, stay_in=False):
        if stay_in and pool_id != self.freepool_name:
            # The instance plugin's add (stay_in=True): skipped.
            return self.get_aggregate_from_name_or_id(pool_id)
        return original(self, pool_id, hosts, stay_in=stay_in)

    pool.add_computehost = add_computehost


@register('blazar-lease-create-db-error', 'blazar', (API_ERRORS,),
          'every lease creation fails on a database error '
          '(500) before blazar looks at its reservations',
          wrong_reason=True)
def lease_create_db_error():
    from blazar.db import exceptions as db_exc
    from blazar.manager import service

    def create_lease(self, lease_values):
        raise db_exc.BlazarDBException('mutant: database unavailable')

    service.ManagerService.create_lease = create_lease


# -- the lease API (issue 46: every capability proven able to fail) ---------
def _manager_class():
    from blazar.manager import service
    return service.ManagerService


@register('blazar-deleted-lease-still-shown', 'blazar', (LIFECYCLE, CLI_LEASE),
          'a deleted lease is gone: GET is then 404 (here blazar deletes it '
          'but keeps showing it, as a stale cache would)')
def deleted_lease_still_shown():
    manager = _manager_class()
    original_get, original_delete = manager.get_lease, manager.delete_lease
    deleted = {}

    def delete_lease(self, lease_id):
        lease = original_get(self, lease_id)
        # by keyword, as blazar's RPC calls it: its lease_status decorator
        # reads lease_id from the keywords
        result = original_delete(self, lease_id=lease_id)
        if lease is not None:
            deleted[lease_id] = lease
        return result

    def get_lease(self, lease_id):
        found = original_get(self, lease_id)
        return deleted.get(lease_id) if found is None else found

    manager.delete_lease = delete_lease
    manager.get_lease = get_lease


@register('blazar-past-start-accepted', 'blazar', (BAD_REQUESTS,),
          'a lease starting in the past is 400 (here blazar takes the start '
          'as it comes)')
def past_start_accepted():
    manager = _manager_class()
    original = manager._parse_lease_dates

    def parse(self, start_date, end_date):
        start, end, now = original(self, start_date, end_date)
        return start, end, min(now, start)

    manager._parse_lease_dates = parse


@register('blazar-lease-delete-answers-500', 'blazar',
          (RESERVED_HOST, LIFECYCLE, CLI_LEASE),
          'deleting a lease is accepted: 204, the client exits 0 (here '
          'blazar deletes the lease and returns its host, then answers 500)')
def lease_delete_answers_500():
    from blazar import exceptions as blazar_exc
    manager = _manager_class()
    original = manager.delete_lease

    def delete_lease(self, lease_id):
        original(self, lease_id=lease_id)  # by keyword, as blazar's RPC does
        raise blazar_exc.BlazarException(
            'mutant: the lease was deleted, the answer fails')

    manager.delete_lease = delete_lease
