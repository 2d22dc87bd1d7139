"""Lease request bodies, as blazar's API reference spells them, and the
two facts about nova a lease needs.

Pure functions (no client, no clock of their own) so the self-tests can
check them: a host reservation pinned to one hypervisor, and blazar's
date format, which has minute resolution (``YYYY-MM-DD HH:MM``, UTC).
The tests, the bench and the cleanup proof read nova's answers through
the same two functions below, so they agree on what they look at.
"""

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


def aggregate_hosts(aggregates, name):
    """The hosts of the aggregate called ``name`` (e.g. blazar's
    freepool), from GET /os-aggregates's list; None if there is no such
    aggregate."""
    for agg in aggregates:
        if agg['name'] == name:
            return set(agg['hosts'])
    return None
