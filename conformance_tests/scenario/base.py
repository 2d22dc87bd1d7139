"""What the scenarios share: booting, settling and removing servers."""

import time

from tempest import config
from tempest.lib.common import api_microversion_fixture
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import exceptions as lib_exc

CONF = config.CONF


class ServersMixin(object):
    """Needs ``self.servers`` (a Tempest servers client) and an admin
    servers client as ``self.admin_servers`` to read hosts. Every request of
    Tempest's compute clients carries ``compute_microversion`` (booting
    with networks='none' needs 2.37 or later)."""

    compute_microversion = None

    def setUp(self):
        super().setUp()
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
