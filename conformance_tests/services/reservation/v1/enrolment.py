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

"""The blazar hosts a test class uses: enrolled by the operator before
the run, never by a test, and used by one class at a time.

The suite never enrols or gives back a host: blazar deletes a host's
child resource provider when the host is given back, and nova-compute,
which caches its provider tree, fails every build on that host until it
refreshes the cache (minutes). A run must leave every host able to
build. So [conformance] preemptible_hosts must be enrolled before the
run (playbooks/conformance-blazar-setup.yaml does on DevStack and on the
packaged cloud, the embedded cloud at its start); preflight refuses a
run where one is not (preflight/preemptible.py), and a class that finds
one not enrolled skips, naming the host and what to do.

The only enrolments a test makes are the ones the API must refuse (an
unknown hypervisor, a host enrolled already). They carry
cleanup.enrolled_marker, so `conformance cleanup` knows them after a
killed run, and remove_made_since removes every marked enrolment made
since a point, and nothing else, if a cloud accepted one by mistake.

The classes that use those hosts share them: each holds LOCK_NAME, an
inter-process lock in [oslo_concurrency] lock_path beside Tempest's
@serial lock, while it uses the hosts. It takes the lock inside Tempest's
(read or write) lock and gives it back before, so a @serial class never
waits for it while it keeps the other classes out: no deadlock.
"""

import os

from fasteners import process_lock
from oslo_concurrency import lockutils
from oslo_log import log as logging
from tempest.common import credentials_factory
from tempest import config
from tempest.lib.common.utils import test_utils

from conformance_tests.common import skips
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

    def remove_made_since(self, found):
        """Remove every marked enrolment whose id is not in ``found``."""
        for record in self.records():
            if record['id'] not in found and marked(record, self.marker):
                test_utils.call_and_ignore_notfound_exc(
                    self.hosts_client.delete_host, record['id'])


#: What a class of these hosts asks that only an admin may (nova's and
#: blazar's default policies): the report's not-applicable reason.
ADMIN_CALLS = ('GET /os-hypervisors/detail (the hosts\' hypervisors), '
               'blazar\'s host API (GET /os-hosts) and admin boots on '
               'named hosts')


class PreemptibleHostsMixin(object):
    """For a Tempest test class with admin credentials whose tests need
    blazar to manage [conformance] preemptible_hosts."""

    @classmethod
    def require_admin(cls):
        """From skip_checks, after the service's check and before
        Tempest's own check of admin credentials: a member-only run says
        which calls need admin, not only that it has none."""
        if not credentials_factory.is_admin_available(
                identity_version=cls.get_identity_version()):
            raise cls.skipException(skips.needs_admin(ADMIN_CALLS))

    @classmethod
    def use_preemptible_hosts(cls):
        """From resource_setup: take the hosts' lock (released as a class
        resource cleanup), read each host's names (``cls.pool``,
        [leases.Compute]) and skip unless blazar manages every one."""
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
        records = cls.enrolments.records()
        missing = [compute for compute in cls.pool
                   if leases.enrolment(records, compute.hypervisor_hostname)
                   is None]
        if missing:
            raise cls.skipException(
                '[conformance] preemptible_hosts: %s not enrolled in '
                'blazar: enrol each before the run (`openstack reservation '
                'host create HYPERVISOR`, as playbooks/conformance-blazar-'
                'setup.yaml does); the suite never enrols a host' % ', '.join(
                    '%s (hypervisor %s)' % (c.host, c.hypervisor_hostname)
                    for c in missing))
        return cls.pool
