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

"""What the scenarios share: booting, settling and removing servers, and
running as a project member when the account has no admin."""

import re

from tempest.common import credentials_factory
from tempest import config
from tempest.lib.common import api_version_utils
from tempest.lib.common.utils import data_utils
from tempest.lib import exceptions as lib_exc
from tempest import test

from conformance_tests.common import faults
from conformance_tests.common import microversion
from conformance_tests.common import outcomes
from conformance_tests.common import skips
from conformance_tests.common import waiters
from conformance_tests.services.compute.v2 import instance_actions
from conformance_tests.services.compute.v2 import zones

CONF = config.CONF


class _ServerRemoval(object):
    """Servers removed together by waiters.remove_servers, each with the
    client that booted it (an admin's and a member's alike): last booted
    first, as separate cleanups would delete them."""

    def __init__(self):
        self.clients = {}  # server id: its client, in the order booted

    def add(self, client, server_id):
        self.clients.setdefault(server_id, client)

    def __call__(self):
        waiters.remove_servers([(client, server_id) for server_id, client
                                in reversed(self.clients.items())])


class ServersMixin(object):
    """Needs ``self.servers`` (a Tempest servers client) and, to read
    hosts, an admin servers client as ``self.admin_servers`` (None when
    the class runs as a project member: servers are then read as their
    project's user sees them, with ``hostId`` and no host name)."""

    admin_servers = None

    def name(self, what):
        return data_utils.rand_name(
            prefix=CONF.conformance.resource_prefix, name=what)

    def boot(self, zone=None, group=None, servers_client=None, flavor=None,
             name=None, **extra):
        """Ask for a server; its removal is registered before it exists."""
        client = servers_client or self.servers
        if zone:
            extra['availability_zone'] = zone
        if group:
            extra['scheduler_hints'] = {'group': group['id']}
        name = name or self.name('server')
        try:
            server = client.create_server(
                name=name, imageRef=CONF.compute.image_ref,
                flavorRef=flavor or CONF.compute.flavor_ref,
                networks='none', **extra)['server']
        except Exception:
            # No answer is no proof of no server: a POST that timed out
            # on a loaded cloud may still make one, and a server left in
            # the project holds quota a later test needs. Remove
            # whatever has this run-unique name, at cleanup time, when
            # nova has finished the request.
            self.addCleanup(self.delete_servers_named, name, client)
            raise
        self.remove_server_later(server['id'], client)
        return server['id']

    def boot_accepted(self, rule, **boot_args):
        """boot(), which the rule says the API accepts (where the server
        goes is the scheduler's to decide): a refusal is the rule's failed
        assertion, naming the call and the cloud's answer."""
        return outcomes.must_succeed(self, rule, self.boot, **boot_args)

    def remove_server_later(self, server_id, client=None):
        """Register the server's removal (DELETE, then wait until gone).

        Servers registered one after another, with no other cleanup in
        between, are removed together, whichever client booted each (an
        admin's boot on a named host beside a member's): every DELETE
        first, each with its own client, then one wait for all.
        Cleanups run last first, so a cleanup registered between two
        boots still runs between their removals, as it would if each
        server had a cleanup of its own; only the waits are shared. A
        test that fills 16 hosts with 48 servers is then cleaned in
        seconds, not half a minute of one-by-one deletions.
        """
        removal = getattr(self, '_open_removal', None)
        if removal is None:
            removal = _ServerRemoval()
            self.addCleanup(removal)
            self._open_removal = removal
        removal.add(client or self.servers, server_id)

    def addCleanup(self, function, *args, **kwargs):
        # Any other cleanup ends the open removal: see remove_server_later.
        self._open_removal = None
        super().addCleanup(function, *args, **kwargs)

    def delete_servers_named(self, name, client):
        found = client.list_servers(name='^%s$' % re.escape(name))
        for server in found['servers']:
            if server['name'] == name:
                self.delete_server(server['id'], client)

    def delete_server(self, server_id, client=None):
        waiters.delete_server(client or self.servers, server_id)

    def settle(self, server_id):
        """Wait until the server is ACTIVE or ERROR; return its record
        as an admin sees it (with its host), or as a member, its project's
        user, sees it (``hostId``, no host name) when there is no admin."""
        return waiters.wait_for_server_settled(
            self.admin_servers or self.servers, server_id)

    def wait_until_built(self, server_id, microversion):
        """Wait until nova has finished building the server (settled
        ACTIVE): its create action's build event has a finish time, read
        by the server's own user (``self.raw``) at ``microversion``
        (instance_actions.EVENTS_MICROVERSION or later), within [compute]
        build_timeout; it must have ended in 'Success'.

        Why before a fault: nova shows a server ACTIVE before its compute
        writes the build's end. A compute that cannot write it (its
        cell's database just went away) calls the build failed and
        deletes the server's placement allocations, so the ACTIVE server
        holds no cores or RAM: a test that takes a cell down must meet
        builds that are over, or its verdict depends on which finished
        first."""
        rule = ('server %s is built before the test disturbs the cloud '
                '(its create action\'s %s event has finished)' % (
                    server_id, instance_actions.BUILD_EVENT))
        seen = {}

        def finished():
            seen['event'] = instance_actions.build_event(
                self.raw, server_id, microversion)
            return (seen['event'] or {}).get('finish_time') is not None

        if not waiters.observe(finished):
            self.fail('%s; after %s s it shows: %s' % (
                rule, CONF.compute.build_timeout, seen['event']))
        self.assertEqual('Success', seen['event'].get('result'),
                         '%s; it finished: %s' % (rule, seen['event']))

    def wait_for(self, what, check):
        return waiters.wait_until(what, check)

    def assert_within(self, rule, check, seen):
        """Assert that ``check()`` becomes true within [compute]
        build_timeout, failing with ``rule`` and ``seen()`` (what the
        cloud showed last) when it does not. Only for behaviour that is
        due because an independent signal said so: waiting on the rule
        itself would turn a cloud that breaks it into a timeout."""
        if not waiters.observe(check):
            self.fail('%s; after %s s it still shows: %s' % (
                rule, CONF.compute.build_timeout, seen()))

    def zone_hosts(self, zone):
        """Hosts of ``zone`` whose nova-compute is available (admin)."""
        return zones.available_hosts(
            self.os_admin.availability_zone_client, zone)

    def anti_affinity_zone_size(self):
        """(H, hosts) of [conformance] anti_affinity_zone: H its available
        compute hosts, ``hosts`` their names, None without admin.

        An admin lists them (GET /os-availability-zone/detail); when
        [conformance] anti_affinity_zone_hosts is set too it must agree.
        A member cannot list a zone's hosts: H is then that option, and
        the zone must be listed as available (GET /os-availability-zone,
        open to every user). Either way a zone that cannot be used is
        InvalidConfiguration, an error of the run, never a verdict.
        """
        zone = CONF.conformance.anti_affinity_zone
        configured = CONF.conformance.anti_affinity_zone_hosts
        if self.has_admin:
            hosts = self.zone_hosts(zone)
            if not hosts:
                raise lib_exc.InvalidConfiguration(
                    '[conformance] anti_affinity_zone %s has no available '
                    'nova-compute host' % zone)
            if configured and configured != len(hosts):
                raise lib_exc.InvalidConfiguration(
                    '[conformance] anti_affinity_zone_hosts = %d, but zone '
                    '%s has %d available compute hosts: %s' % (
                        configured, zone, len(hosts), ', '.join(hosts)))
            return len(hosts), hosts
        listed = self.os_primary.availability_zone_client.\
            list_availability_zones()['availabilityZoneInfo']
        if not any(z['zoneName'] == zone and
                   (z.get('zoneState') or {}).get('available')
                   for z in listed):
            raise lib_exc.InvalidConfiguration(
                '[conformance] anti_affinity_zone %s is not an available '
                'zone (GET /os-availability-zone lists %s)' % (
                    zone, ', '.join(sorted(z['zoneName'] for z in listed))
                    or 'none'))
        return configured, None


class ComputeScenarioTest(api_version_utils.BaseMicroversionTest,
                          ServersMixin, test.BaseTestCase):
    """A project user who boots servers, and an admin who reads hosts.

    Subclasses set Tempest's ``min_microversion`` and ``max_microversion``
    to the compute microversions they send (both must be configured;
    Tempest's clients send ``request_microversion``, chosen the Tempest
    way). A class that disrupts the cloud (takes a cell down) is marked
    with Tempest's ``@decorators.serial``; it then also needs what
    ``disruption_skip_reason`` asks for (by default a fault back end and
    [conformance] allow_disruption), or it skips. What else a subclass
    needs from config it says in ``config_skip_reason``.

    Why @serial: while a cell is down, no other test may have servers in
    the cloud, and Tempest's BaseTestCase already holds an inter-process
    readers-writer lock from setUpClass to tearDownClass (in
    [oslo_concurrency] lock_path, which `tempest init` puts in the
    workspace; unset, Tempest uses <tmp>/tempest-lock, one for every run
    on the machine: still safe, only slower): a @serial class for
    writing, every other class of the run for reading. So while a cell
    is down no other test class of any worker runs, and class setup and
    class cleanups are covered too. The price: the lock is per class, so
    a disruptive test must be alone in its class, or its class-mates run
    with the cloud to themselves.
    """

    credentials = ['primary', 'admin']
    min_microversion = None
    max_microversion = None
    # Ends the nova skip message: "... = true to run <runs>".
    runs = 'the compute conformance tests'
    # Without admin credentials (a vendor's member account): a class
    # whose member_credentials() is a list runs with those credentials
    # instead (has_admin False, os_admin, admin_servers, admin_raw None;
    # a test that needs admin for one call is marked
    # @skips.admin_only(call) and skips alone, before its setUp makes
    # anything); any other class skips, with skips.needs_admin(
    # needs_admin) when it names the admin call it cannot do without, or
    # with Tempest's own "Missing Identity Admin API credentials".
    needs_admin = None
    has_admin = True

    @classmethod
    def member_credentials(cls):
        """Credentials to run with when there is no admin, or None: the
        class needs admin."""
        return None

    @classmethod
    def skip_checks(cls):
        # A missing service first: it is the more basic reason, and a
        # cloud without it is not-applicable for want of it.
        skips.skip_if(cls, cls.service_skip_reason())
        # Before Tempest's own checks: they skip a class whose credentials
        # ask for admin when the configuration has none.
        cls.use_member_credentials_without_admin()
        super().skip_checks()
        skips.require_service(cls, CONF, 'nova', cls.runs)
        reason = (cls.config_skip_reason()
                  or microversion.class_skip_reason(cls, CONF))
        if not reason and cls.is_serial_execution_requested():
            reason = cls.disruption_skip_reason()
        skips.skip_if(cls, reason)

    @classmethod
    def use_member_credentials_without_admin(cls):
        """Set ``has_admin``; without admin, switch to the class's member
        credentials, or skip saying what needs admin (nova's absence is
        said first: it is the better reason)."""
        cls.has_admin = credentials_factory.is_admin_available(
            identity_version=cls.get_identity_version())
        if cls.has_admin:
            return
        member = cls.member_credentials()
        if member is not None:
            cls.credentials = list(member)
            return
        skips.require_service(cls, CONF, 'nova', cls.runs)
        if cls.needs_admin:
            raise cls.skipException(skips.needs_admin(cls.needs_admin))

    @classmethod
    def service_skip_reason(cls):
        """Why a service the class needs is not available, or None;
        checked before anything else."""
        return skips.unavailable(CONF, 'nova', cls.runs)

    @classmethod
    def config_skip_reason(cls):
        """Why config keeps the class from running, or None; checked
        after nova's availability and before the microversions."""
        return None

    @classmethod
    def disruption_skip_reason(cls):
        """Why a @serial class may not disrupt this cloud, or None."""
        return faults.skip_reason(CONF)

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.servers = cls.os_primary.servers_client
        cls.raw = cls.os_primary.conformance_compute_v2.RawComputeClient()
        if cls.has_admin:
            cls.admin_servers = cls.os_admin.servers_client
            cls.admin_raw = (
                cls.os_admin.conformance_compute_v2.RawComputeClient())
        else:
            cls.os_admin = cls.admin_servers = cls.admin_raw = None

    @classmethod
    def resource_setup(cls):
        super().resource_setup()
        cls.request_microversion = microversion.request_microversion(
            cls, CONF)
        cls.setup_api_microversion_fixture(
            compute_microversion=cls.request_microversion)

    def setUp(self):
        super().setUp()
        # A test marked @skips.admin_only(call), as a member: skipped
        # before the subclass's setUp makes anything for it.
        reason = skips.admin_only_reason(self, self.has_admin)
        if reason:
            self.skipTest(reason)
