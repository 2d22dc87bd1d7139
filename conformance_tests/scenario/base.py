"""What the scenarios share: booting, settling and removing servers."""

import time

from tempest import config
from tempest.lib.common import api_microversion_fixture
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import exceptions as lib_exc
from tempest import test

from conformance_tests.common import faults
from conformance_tests.common import microversion
from conformance_tests.services.compute import raw_client

CONF = config.CONF


class ServersMixin(object):
    """Needs ``self.servers`` (a Tempest servers client) and an admin
    servers client as ``self.admin_servers`` to read hosts. Every request of
    Tempest's compute clients carries ``compute_microversion`` (booting
    with networks='none' needs 2.37 or later)."""

    compute_microversion = None
    disruptive = False

    def setUp(self):
        super().setUp()
        faults.hold_cloud(self, CONF, exclusive=self.disruptive)
        self.useFixture(api_microversion_fixture.APIMicroversionFixture(
            compute_microversion=self.compute_microversion))

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
        server = client.create_server(
            name=name or self.name('server'),
            imageRef=CONF.compute.image_ref,
            flavorRef=flavor or CONF.compute.flavor_ref,
            networks='none', **extra)['server']
        self.addCleanup(self.delete_server, server['id'], client)
        return server['id']

    def delete_server(self, server_id, client=None):
        client = client or self.servers
        test_utils.call_and_ignore_notfound_exc(
            client.delete_server, server_id)
        deadline = time.monotonic() + CONF.compute.build_timeout
        while time.monotonic() < deadline:
            try:
                client.show_server(server_id)
            except lib_exc.NotFound:
                return
            time.sleep(CONF.compute.build_interval)

    def settle(self, server_id):
        """Wait until the server is ACTIVE or ERROR; return its record."""
        deadline = time.monotonic() + CONF.compute.build_timeout
        while True:
            server = self.admin_servers.show_server(server_id)['server']
            if server['status'] in ('ACTIVE', 'ERROR'):
                return server
            if time.monotonic() > deadline:
                self.fail('server %s still %s after %d s' % (
                    server_id, server['status'], CONF.compute.build_timeout))
            time.sleep(CONF.compute.build_interval)

    def wait_for(self, what, check):
        deadline = time.monotonic() + CONF.compute.build_timeout
        while not check():
            if time.monotonic() > deadline:
                self.fail('timed out after %d s waiting for %s' % (
                    CONF.compute.build_timeout, what))
            time.sleep(CONF.compute.build_interval)

    def zone_hosts(self, zone):
        zones = self.os_admin.availability_zone_client.list_availability_zones(
            detail=True)
        for info in zones['availabilityZoneInfo']:
            if info['zoneName'] == zone:
                return sorted(
                    host for host, services in (info['hosts'] or {}).items()
                    if services.get('nova-compute', {}).get('available'))
        return []


class ComputeScenarioTest(ServersMixin, test.BaseTestCase):
    """A project user who boots servers, and an admin who reads hosts.

    Subclasses set ``compute_microversion`` (sent by Tempest's clients),
    ``needs_microversions`` (the range the test uses, for the config-driven
    skip) and ``disruptive`` (needs a fault back end and permission).
    """

    credentials = ['primary', 'admin']
    needs_microversions = None

    @classmethod
    def skip_checks(cls):
        super().skip_checks()
        reason = microversion.compute_skip_reason(
            CONF, *(cls.needs_microversions or (cls.compute_microversion,)))
        if not reason and cls.disruptive:
            reason = faults.skip_reason(CONF)
        if reason:
            raise cls.skipException(reason)

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.servers = cls.os_primary.servers_client
        cls.admin_servers = cls.os_admin.servers_client
        cls.raw = raw_client.for_manager(cls.os_primary, CONF)
        cls.admin_raw = raw_client.for_manager(cls.os_admin, CONF)
