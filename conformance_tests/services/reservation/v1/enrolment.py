"""The blazar hosts a test class uses: enrolled for it, left as found, and
used by one class at a time.

A class that needs blazar to manage [conformance] preemptible_hosts
enrols the ones blazar does not manage yet, by their hypervisor hostname
(what blazar's host API speaks; leases.computes reads it from nova), and
marks its enrolments with cleanup.enrolled_marker, so `conformance
cleanup` knows them after a killed run. At its end it removes every
marked enrolment made since it looked, and nothing else: an operator's
enrolment, or one that was there before, stays. The removal is
registered before the enrolment, so it runs also when the POST failed
half-way or a test failed.

The classes that use those hosts share them: what one class enrolled is
what another found, and its removal would take the host from under the
other. So each holds LOCK_NAME, an inter-process lock in [oslo_concurrency]
lock_path beside Tempest's @serial lock, from before it looks at blazar's
hosts until after its removals. It takes the lock inside Tempest's (read
or write) lock and gives it back before, so a @serial class never waits
for it while it keeps the other classes out: no deadlock.
"""

import os

from fasteners import process_lock
from oslo_concurrency import lockutils
from oslo_log import log as logging
from tempest import config
from tempest.lib.common.utils import test_utils

from conformance_tests.services.reservation import leases
from conformance_tests.services.reservation.v1 import cleanup

LOG = logging.getLogger(__name__)
LOCK_NAME = 'conformance-preemptible-hosts'


def hosts_lock(lock_path):
    """The inter-process lock of the preemptible hosts."""
    return process_lock.InterProcessLock(os.path.join(lock_path, LOCK_NAME))


def marked(record, marker):
    """Whether a blazar host record carries the suite's enrolment mark."""
    return str(record.get(marker, '')).lower() == 'true'


class Enrolments(object):
    """Blazar host enrolments through an admin HostsClient."""

    def __init__(self, hosts_client, marker):
        self.hosts_client = hosts_client
        self.marker = marker

    def records(self):
        return self.hosts_client.list_hosts()['hosts']

    def found(self):
        """The ids of every enrolment now (a later remove_made_since
        leaves them)."""
        return frozenset(record['id'] for record in self.records())

    def enrol(self, hypervisor_hostname):
        """POST /os-hosts for this hypervisor, marked as the suite's."""
        return self.hosts_client.create_host(
            name=hypervisor_hostname, **{self.marker: 'true'})['host']

    def ensure(self, hypervisor_hostnames):
        """Enrol each hypervisor blazar does not manage yet; return the
        names enrolled."""
        records = self.records()
        made = []
        for name in hypervisor_hostnames:
            if leases.enrolment(records, name) is None:
                self.enrol(name)
                made.append(name)
        return made

    def remove_made_since(self, found):
        """Remove every marked enrolment whose id is not in ``found``."""
        for record in self.records():
            if record['id'] not in found and marked(record, self.marker):
                test_utils.call_and_ignore_notfound_exc(
                    self.hosts_client.delete_host, record['id'])


class PreemptibleHostsMixin(object):
    """For a Tempest test class with admin credentials whose tests need
    blazar to manage [conformance] preemptible_hosts."""

    @classmethod
    def use_preemptible_hosts(cls):
        """From resource_setup: take the hosts' lock, read each host's
        names (``cls.pool``, [leases.Compute]) and enrol what blazar does
        not manage yet (``cls.enrolments``); every step's undoing is
        registered first, as a class resource cleanup."""
        conf = config.CONF
        lock_path = lockutils.get_lock_path(conf)
        lock = hosts_lock(lock_path)
        LOG.info('%s: waiting for the preemptible hosts (lock %s in %s)',
                 cls.__name__, LOCK_NAME, lock_path)
        lock.acquire()
        cls.addClassResourceCleanup(lock.release)
        LOG.info('%s: holds the preemptible hosts', cls.__name__)
        cls.enrolments = Enrolments(
            cls.os_admin.conformance_reservation_v1.HostsClient(),
            cleanup.enrolled_marker(conf.conformance.resource_prefix))
        cls.pool = leases.computes(
            cls.os_admin.hypervisor_client.list_hypervisors(
                detail=True)['hypervisors'],
            conf.conformance.preemptible_hosts)
        cls.addClassResourceCleanup(cls.enrolments.remove_made_since,
                                    cls.enrolments.found())
        made = cls.enrolments.ensure(
            [compute.hypervisor_hostname for compute in cls.pool])
        if made:
            LOG.info('%s: enrolled %s in blazar', cls.__name__,
                     ', '.join(made))
        return cls.pool
