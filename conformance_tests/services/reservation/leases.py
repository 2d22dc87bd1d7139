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

"""Lease request bodies, as blazar's API reference spells them, and the
facts about nova and blazar a lease needs.

Pure functions (no client, no clock of their own) so the self-tests can
check them: a host reservation pinned to one hypervisor, and blazar's
date format, which has minute resolution (``YYYY-MM-DD HH:MM``, UTC).
The tests, the bench and the cleanup proof read nova's answers through
the same functions below, so they agree on what they look at.

One compute node has two names, and each API speaks one of them:
- the nova service host (``host1``): [conformance] preemptible_hosts,
  nova's aggregates (blazar's freepool), a boot's ``host``, a server's
  ``OS-EXT-SRV-ATTR:host``, blazar's host record ``service_name``;
- the hypervisor hostname (``host1.example.org`` on libvirt): blazar's
  host API (``POST /os-hosts {"name": ...}``, its records'
  ``hypervisor_hostname``), a lease's ``$hypervisor_hostname``
  properties, the name of the node's placement resource provider.
They are equal only on some clouds, so nothing compares one with the
other: ``computes`` reads the pairs from GET /os-hypervisors/detail and
each call takes the name its API defines.
"""

import collections
import datetime
import json
import re

DATE_FORMAT = '%Y-%m-%d %H:%M'
HOST_RESOURCE = 'physical:host'
INSTANCE_RESOURCE = 'virtual:instance'
# Lease statuses from blazar's API reference (blazar/status.py).
ACTIVE = 'ACTIVE'
PENDING = 'PENDING'
TERMINATED = 'TERMINATED'
ERROR = 'ERROR'
STABLE = (PENDING, ACTIVE, TERMINATED, ERROR)


def blazar_date(moment):
    return moment.strftime(DATE_FORMAT)


def cli_not_found(lease_id):
    """What python-blazarclient prints for blazar's 404 of lease
    ``lease_id`` (``ERROR: Object with {'lease_id': '<id>'} not found``),
    as a pattern naming that lease: its not-found error, not any other
    failure of the command."""
    return re.compile(r'^ERROR: .*\b%s\b.* not found' % re.escape(lease_id),
                      re.MULTILINE)


def host_reservation(hypervisor_hostname):
    """A reservation of exactly the host whose hypervisor has this name."""
    return {
        'resource_type': HOST_RESOURCE,
        'min': 1,
        'max': 1,
        'hypervisor_properties': json.dumps(
            ['==', '$hypervisor_hostname', hypervisor_hostname]),
        'resource_properties': '',
    }


def instance_reservation(hypervisor_hostname, ram=64):
    """A reservation of one 1-vCPU instance slot, on the host whose
    hypervisor has this name (blazar matches resource_properties against
    the host's own fields as well as its extra capabilities)."""
    return {
        'resource_type': INSTANCE_RESOURCE,
        'amount': 1,
        'vcpus': 1,
        'memory_mb': ram,
        'disk_gb': 1,
        'affinity': False,
        'resource_properties': json.dumps(
            ['==', '$hypervisor_hostname', hypervisor_hostname]),
    }


def host_lease(name, hypervisor_hostname, now, minutes=60, start='now',
               reservation=host_reservation):
    """A lease of one host starting ``start`` ('now' or a datetime) and
    ending ``minutes`` after ``now``."""
    end = now + datetime.timedelta(minutes=minutes)
    return {
        'name': name,
        'start_date': start if start == 'now' else blazar_date(start),
        'end_date': blazar_date(end),
        'reservations': [reservation(hypervisor_hostname)],
        'events': [],
    }


def reservation_id(lease):
    """The id of the lease's only reservation (the aggregate's name and
    the ``reservation`` scheduler hint of its owner's boots)."""
    reservations = lease['reservations']
    if len(reservations) != 1:
        raise ValueError('lease %s has %d reservations; expected 1' % (
            lease['id'], len(reservations)))
    return reservations[0]['id']


def hypervisor_hostname(hypervisors, host):
    """The hypervisor_hostname of compute host ``host`` (what a host
    reservation names), from GET /os-hypervisors/detail's list; None if
    the host has no hypervisor."""
    for hyp in hypervisors:
        if hyp['service']['host'] == host:
            return hyp['hypervisor_hostname']
    return None


class Compute(collections.namedtuple('Compute',
                                     'host hypervisor_hostname')):
    """One compute node by both its names: ``host`` is the nova service
    host, ``hypervisor_hostname`` the node's (see the module's note on
    which API speaks which)."""


def computes(hypervisors, hosts):
    """[Compute] of each nova service host in ``hosts`` (in that order),
    from GET /os-hypervisors/detail's list. Raises LookupError naming a
    host with no hypervisor, or with several (a host of many nodes cannot
    stand for one blazar host)."""
    nodes = {}
    for hyp in hypervisors:
        nodes.setdefault(hyp['service']['host'], []).append(
            hyp['hypervisor_hostname'])
    found = []
    for host in hosts:
        names = nodes.get(host, [])
        if len(names) != 1:
            raise LookupError(
                'compute host %s has %s in GET /os-hypervisors/detail; '
                'expected exactly one' % (
                    host, ', '.join(sorted(names)) or 'no hypervisor'))
        found.append(Compute(host, names[0]))
    return found


def enrolment(blazar_hosts, hypervisor_hostname):
    """Blazar's record of the host whose hypervisor has this name (GET
    /os-hosts's list), or None if blazar does not manage it."""
    for record in blazar_hosts:
        if record.get('hypervisor_hostname') == hypervisor_hostname:
            return record
    return None


def managed_hosts(blazar_hosts):
    """The nova service hosts blazar manages (its records'
    ``service_name``), from GET /os-hosts's list."""
    return {record['service_name'] for record in blazar_hosts
            if record.get('service_name')}


def aggregate_hosts(aggregates, name):
    """The hosts of the aggregate called ``name`` (e.g. blazar's
    freepool), from GET /os-aggregates's list; None if there is no such
    aggregate."""
    for agg in aggregates:
        if agg['name'] == name:
            return set(agg['hosts'])
    return None


def event(lease, event_type):
    """The lease's event of ``event_type`` (start_lease, end_lease...) as
    blazar shows it (status, time, updated_at), or None."""
    for found in lease.get('events') or ():
        if found.get('event_type') == event_type:
            return found
    return None


def moment(text):
    """A naive UTC datetime from nova's (``2026-11-24T21:25:00.123456``,
    maybe with a zone) or blazar's (``2026-11-24 21:25:00.123456``)
    timestamps; None for None."""
    if not text:
        return None
    text = text.replace('Z', '+00:00')
    found = datetime.datetime.fromisoformat(text)
    if found.tzinfo is not None:
        found = found.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return found


def clock(when):
    """``when`` (a datetime) as HH:MM:SS.mmm, for messages."""
    return when.strftime('%H:%M:%S.%f')[:-3] if when else 'unknown'


def aggregate(aggregates, name):
    """The aggregate called ``name`` from GET /os-aggregates's list, or
    None."""
    for agg in aggregates:
        if agg['name'] == name:
            return agg
    return None


def _membership(host, aggregates, freepool, reservation):
    """Where ``host`` is: the freepool aggregate and the reservation's
    aggregate (its name is the reservation id), with the latter's zone."""
    pool = aggregate(aggregates, freepool)
    ours = aggregate(aggregates, reservation)
    in_pool = pool is not None and host in pool['hosts']
    if ours is None:
        where = 'no aggregate named %s' % reservation
    else:
        zone = ours.get('availability_zone')
        where = '%s the reservation\'s aggregate %s (%s)' % (
            'in' if host in ours['hosts'] else 'not in', reservation,
            'zone %s' % zone if zone else 'no zone')
    return in_pool, where


def start_error_evidence(lease, host, aggregates, freepool, server_id,
                         actions, destroyed_at, destroy_result=None):
    """What the APIs show of a host lease whose start went ERROR with a
    preemptible ``server_id`` on its host ``host``, as one sentence (the
    failure message's evidence, which the guideline's signature reads).

    ``aggregates`` is GET /os-aggregates's list; ``actions`` the server's
    instance actions (GET /servers/{id}/os-instance-actions); destroyed_at
    when its delete's compute_terminate_instance event finished with
    success (None if unknown, unfinished or failed: left_host_at), and
    destroy_result that event's result. Blazar 18's cause shows as: the
    start_lease event is ERROR, the host is back in the freepool and not in the
    reservation's aggregate, which has a zone of its own, and the
    server's deletion was asked (blazar's fire-and-forget delete) before
    that event went ERROR, its destroy ending after it.
    """
    parts = []
    start = event(lease, 'start_lease')
    gave_up = moment(start.get('updated_at')) if start else None
    if start is None:
        parts.append('no start_lease event shown')
    else:
        parts.append('its start_lease event is %s (at %s)' % (
            start.get('status'), clock(gave_up)))
    in_pool, where = _membership(host, aggregates, freepool,
                                 reservation_id(lease))
    parts.append('%s is %s, %s' % (
        host, 'back in aggregate %s' % freepool if in_pool
        else 'not in aggregate %s' % freepool, where))
    deletes = sorted(moment(a['start_time']) for a in actions
                     if a['action'] == 'delete')
    if not deletes:
        parts.append('nobody asked to delete preemptible %s (instance '
                     'actions: %s)' % (server_id, ', '.join(
                         a['action'] for a in sorted(
                             actions, key=lambda a: a['start_time']))))
        return '; '.join(parts)
    asked = deletes[0]
    said = 'preemptible %s\'s deletion was asked at %s' % (
        server_id, clock(asked))
    if gave_up:
        said += ', %s the event' % ('before' if asked <= gave_up
                                    else 'after')
    if destroyed_at is None and destroy_result not in (None, 'Success'):
        said += ', its destroy failed on %s (result %r)' % (
            host, destroy_result)
    elif destroyed_at is None:
        said += ', its destroy not finished when read'
    elif gave_up:
        said += ', and it left %s at %s, %.1f s %s the event' % (
            host, clock(destroyed_at),
            abs((destroyed_at - gave_up).total_seconds()),
            'after' if destroyed_at >= gave_up else 'before')
    else:
        said += ', and it left %s at %s' % (host, clock(destroyed_at))
    parts.append(said)
    return '; '.join(parts)


def left_host_at(terminate):
    """When a server left its host, by its delete's
    compute_terminate_instance event (``terminate``): the event's finish
    time if the destroy succeeded; None while it runs, when it failed
    (result 'Error': nova writes a finish time all the same) or when there
    is no event."""
    if not terminate or terminate.get('result') != 'Success':
        return None
    return moment(terminate.get('finish_time'))


def departure(terminate, host):
    """A few words on whether and when the server left ``host``, by its
    compute_terminate_instance event (``terminate``)."""
    left = left_host_at(terminate)
    if left is not None:
        return 'left %s at %s' % (host, clock(left))
    if terminate and terminate.get('finish_time'):
        return 'never left %s: its destroy failed there (%s result %r)' % (
            host, terminate.get('event'), terminate.get('result'))
    return 'has no finished destroy on %s' % host


def action_start(actions, names):
    """When the first of the server's instance ``actions`` (GET
    /servers/{id}/os-instance-actions) named in ``names`` was asked
    (its start_time, the API request's time), or None."""
    found = [moment(a['start_time']) for a in actions
             if a['action'] in names]
    return min(found) if found else None


def termination_request(actions):
    """When nova was first asked to stop or delete the server (blazar's
    termination request: a soft shutdown or a delete), or None."""
    return action_start(actions, ('stop', 'delete'))


def placed_on(events, host):
    """The name of the first compute event (``compute_...``) of an
    instance action's ``events`` (GET
    /servers/{id}/os-instance-actions/{request_id}) that ran on ``host``,
    or None: a create action's compute event on a host says the
    scheduler placed the server there and its compute took it. From 2.62
    an admin sees each event's host; an event without one counts."""
    for found in events or ():
        if (found.get('event', '').startswith('compute_')
                and found.get('host', host) == host):
            return found['event']
    return None


def instance_host_evidence(lease, host, aggregates, freepool):
    """Where the host of an instance lease is: the reservation's
    aggregate (with its zone or none) and the freepool. Blazar 18 adds the
    host to the reservation's aggregate, which has no zone, and keeps it
    in the freepool (stay_in=True)."""
    in_pool, where = _membership(host, aggregates, freepool,
                                 reservation_id(lease))
    return '%s is %s and %s' % (
        host, where, 'still in aggregate %s' % freepool if in_pool
        else 'not in aggregate %s' % freepool)


def instance_start_evidence(lease, host, aggregates, freepool, server_id,
                            actions):
    """What the APIs show of an instance lease ACTIVE with a preemptible
    ``server_id`` still on its host: the server's instance actions, and
    the host's aggregates (blazar 18's instance plugin adds the host to
    the reservation's aggregate, which has no zone, and leaves it in the
    freepool: stay_in=True, which skips the termination)."""
    names = [a['action'] for a in sorted(actions,
                                         key=lambda a: a['start_time'])]
    return '%s (instance actions: %s); %s' % (
        'nobody asked to delete it' if 'delete' not in names
        else 'its deletion was asked', ', '.join(names),
        instance_host_evidence(lease, host, aggregates, freepool))
