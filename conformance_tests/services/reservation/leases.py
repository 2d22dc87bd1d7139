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
