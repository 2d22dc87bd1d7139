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

"""The `vendor-like` profile: its settings, the catalog and client files
behind the front door, the region, and hypervisor hostnames apart from
service hosts. No cloud is started."""

import configparser
import os
import subprocess
import sys

import fixtures
import testtools

from conformance_tests.cloud import client_files
from conformance_tests.cloud import front_door
from conformance_tests.cloud import launch_context
from conformance_tests.cloud import launcher
from conformance_tests.cloud import profiles
from conformance_tests.cloud import secrets
from conformance_tests.cloud import services
from conformance_tests.cloud.services import blazar
from conformance_tests.cloud.services import nova
from conformance_tests.cloud.services.nova import layout
from conformance_tests.cloud.services import senlin
from conformance_tests.selftests.cloud import test_client_files

PORT_BASE = 18900
VENDOR = 'vendor-like'
# DevStack's paths, and the catalog URL each service type gets there.
DEVSTACK = {
    'identity': '/identity/v3',
    'compute': '/compute/v2.1',
    'placement': '/placement',
    'image': '/image',
    'clustering': '/cluster',
    'reservation': '/reservation/v1',
    'network': '/networking',
    'orchestration': '/heat-api/v1/$(project_id)s',
}


def launch_ctx(profile, service_dir='/tmp/no-such-service-dir'):
    """The context the launcher builds for ``profile`` (ports, region and
    settings as EmbeddedCloud makes them), as after_ready left it."""
    descriptors = services.all()
    settings = services.resolve_settings(descriptors,
                                         profiles.settings(profile))
    ports = services.assign_ports(descriptors, PORT_BASE)
    if settings['front_door']:
        front_door.assign_port(ports)
    ctx = launch_context.LaunchContext(
        descriptors, '127.0.0.1', service_dir, '/tmp/no-such-workspace',
        ports, secrets.generate(
            [d.name for d in descriptors if d.service_user]),
        settings['region'], settings, say=lambda message: None)
    ctx.outputs.update(test_client_files.FAKE_OUTPUTS)
    return ctx


def in_own_process(test, code):
    """What ``code`` prints, run in a process of its own: importing nova's
    driver registers nova's options on oslo.config's global CONF,
    Tempest's too."""
    done = subprocess.run([sys.executable, '-c', code],
                          capture_output=True, text=True)
    test.assertEqual(0, done.returncode, done.stderr[-2000:])
    return done.stdout


def catalog(ctx):
    return {e.type: ctx.catalog_url(d.name, e)
            for d in ctx.descriptors for e in d.catalog}


class SettingsTest(testtools.TestCase):

    def test_selectable_wherever_profile_is(self):
        self.assertIn(VENDOR, profiles.names())
        from conformance_tests.cmd import main
        args = main.build_parser().parse_args(
            ['cloud', 'up', '--profile', VENDOR])
        self.assertEqual(VENDOR, args.profile)

    def test_settings_resolve(self):
        settings = services.resolve_settings(services.all(),
                                             profiles.settings(VENDOR))
        self.assertIs(True, settings['front_door'])
        self.assertEqual('VendorRegion-1', settings['region'])
        self.assertEqual('vendor.example', settings['hypervisor_domain'])

    def test_the_default_otherwise(self):
        everything = services.resolve_settings(services.all(), {})
        default = services.resolve_settings(
            services.all(), profiles.settings(profiles.DEFAULT))
        vendor = services.resolve_settings(services.all(),
                                           profiles.settings(VENDOR))
        self.assertEqual({'front_door', 'region', 'hypervisor_domain',
                          'host_size'},
                         {k for k in vendor if vendor[k] != default[k]})
        # and the default profile is the settings' defaults
        self.assertEqual(everything, default)
        self.assertEqual((False, 'RegionOne', '', None), (
            default['front_door'], default['region'],
            default['hypervisor_domain'], default['host_size']))

    def test_launcher_gives_the_front_door_the_next_port(self):
        cloud = launcher.EmbeddedCloud('/tmp/vl-selftest', port_base=19100,
                                       **profiles.settings(VENDOR))
        service_ports = [p for name, listeners in cloud.ports.items()
                         if name != front_door.NAME
                         for p in listeners.values()]
        self.assertEqual(max(service_ports) + 1,
                         cloud.ports[front_door.NAME][front_door.LISTENER])
        self.assertEqual('VendorRegion-1', cloud.region)
        default = launcher.EmbeddedCloud('/tmp/vl-selftest',
                                         port_base=19100)
        self.assertNotIn(front_door.NAME, default.ports)
        self.assertEqual('RegionOne', default.region)


class CatalogTest(testtools.TestCase):

    def test_every_entry_behind_the_front_door_at_devstacks_path(self):
        ctx = launch_ctx(VENDOR)
        door = 'http://127.0.0.1:%d' % ctx.ports[front_door.NAME]['api']
        self.assertEqual({t: door + p for t, p in DEVSTACK.items()},
                         catalog(ctx))
        self.assertEqual(door + '/identity/v3', ctx.identity_uri)

    def test_routes_lead_to_the_services_own_ports(self):
        ctx = launch_ctx(VENDOR)
        routes = front_door.routes(ctx.descriptors, ctx.ports)
        self.assertEqual(ctx.ports['nova']['api'], routes['/compute'])
        self.assertEqual(ctx.ports['keystone']['api'], routes['/identity'])
        # every catalog entry's listener has a route; nova's fault
        # endpoint (not in the catalog) has none
        for d in ctx.descriptors:
            for e in d.catalog:
                self.assertIn(ctx.ports[d.name][e.listener],
                              routes.values(), d.name)
        self.assertNotIn(ctx.ports['nova']['control'], routes.values())

    def test_default_profile_keeps_the_services_own_ports(self):
        ctx = launch_ctx(profiles.DEFAULT)
        for d in ctx.descriptors:
            for e in d.catalog:
                self.assertEqual(ctx.url(d.name, e.listener) + e.path,
                                 ctx.catalog_url(d.name, e), d.name)
        self.assertIsNone(ctx.front_door_prefix('nova'))


class ClientFilesTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.ctx = launch_ctx(VENDOR)
        self.door = 'http://127.0.0.1:%d' % (
            self.ctx.ports[front_door.NAME]['api'])
        self.conf = client_files.tempest_conf(
            self.ctx, self.ctx.descriptors, '/tmp/logs')

    def test_tempest_conf_prefixed_uri_and_region(self):
        self.assertEqual(self.door + '/identity/v3',
                         self.conf['identity']['uri_v3'])
        for section in ('identity', 'compute', 'image'):
            self.assertEqual('VendorRegion-1', self.conf[section]['region'],
                             section)

    def test_tempest_conf_names_hosts_and_hypervisors_apart(self):
        conformance = self.conf['conformance']
        # nova service hosts
        self.assertEqual(','.join(blazar.FREEPOOL_HOSTS),
                         conformance['preemptible_hosts'])
        # a hypervisor hostname, with "drs" for senlin's DRS extension
        self.assertEqual(senlin.DRS_HOST + '.vendor.example',
                         conformance['senlin_drs_hypervisor'])
        self.assertIn('drs', conformance['senlin_drs_hypervisor'])
        # the fault endpoint is nova's own listener, not in the catalog
        self.assertEqual(self.ctx.url('nova', 'control'),
                         conformance['fault_control_url'])

    def test_written_files(self):
        workdir = self.useFixture(fixtures.TempDir()).path
        workspace = os.path.join(workdir, 'workspace')
        os.makedirs(os.path.join(workspace, 'etc'))
        open(os.path.join(workspace, '.stestr.conf'), 'w').close()
        client_files.write_all(self.ctx, self.ctx.descriptors, workdir,
                               workspace)
        conf = configparser.ConfigParser(interpolation=None)
        conf.read(os.path.join(workspace, 'etc', 'tempest.conf'))
        self.assertEqual(self.door + '/identity/v3',
                         conf['identity']['uri_v3'])
        import yaml
        with open(os.path.join(workdir, 'clouds.yaml')) as f:
            admin = yaml.safe_load(f)['clouds']['conformance-admin']
        self.assertEqual(self.door + '/identity/v3',
                         admin['auth']['auth_url'])
        self.assertEqual('VendorRegion-1', admin['region_name'])


class ServiceConfigTest(testtools.TestCase):
    """What each service is configured with names the front door's
    identity URL and the region."""

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.ctx = launch_ctx(VENDOR, service_dir=self.dir)
        self.door = 'http://127.0.0.1:%d' % (
            self.ctx.ports[front_door.NAME]['api'])

    def test_nova(self):
        flags = nova.nova_config(self.ctx)['flags']
        self.assertEqual('VendorRegion-1', flags['placement']['region_name'])
        self.assertEqual('VendorRegion-1', flags['glance']['region_name'])
        self.assertEqual(self.door + '/identity/v3',
                         flags['keystone_authtoken']['auth_url'])
        self.assertEqual(self.door + '/identity/v3',
                         flags['placement']['auth_url'])

    def test_blazar_reaches_keystone_under_its_prefix(self):
        conf = configparser.ConfigParser(interpolation=None)
        conf.read(blazar.blazar_conf(self.ctx))
        default = conf['DEFAULT']
        self.assertEqual('VendorRegion-1', default['os_region_name'])
        # blazar joins them into http://host:port/prefix/v3
        self.assertEqual(self.door + '/identity/v3', 'http://%s:%s/%s/v3' % (
            default['os_auth_host'], default['os_auth_port'],
            default['os_auth_prefix']))

    def test_blazar_identity_location(self):
        self.assertEqual(('127.0.0.1', 5000, ''), blazar.identity_location(
            'http://127.0.0.1:5000/v3'))
        self.assertEqual(('h', 80, 'identity'), blazar.identity_location(
            'http://h:80/identity/v3/'))
        self.assertRaises(ValueError, blazar.identity_location,
                          'http://h:80/identity')

    def test_senlin(self):
        conf = configparser.ConfigParser(interpolation=None)
        conf.read(senlin.senlin_conf(
            self.dir, self.ctx.identity_uri,
            self.ctx.service_user('senlin'), self.ctx.region))
        self.assertEqual('VendorRegion-1',
                         conf['DEFAULT']['default_region_name'])
        self.assertEqual(self.door + '/identity/v3',
                         conf['authentication']['auth_url'])


class HypervisorHostnameTest(testtools.TestCase):

    def test_every_compute_gets_its_fqdn(self):
        config = nova.nova_config(launch_ctx(VENDOR))
        hosts = [c[0] for c in config['computes'] + config['extra_computes']]
        self.assertEqual({h: h + '.vendor.example' for h in hosts},
                         config['nodenames'])
        self.assertIn(senlin.DRS_HOST, hosts)
        for host in blazar.FREEPOOL_HOSTS + tuple(
                h for h, _ in layout.HOSTS):
            self.assertIn(host, hosts)

    def test_default_computes_are_their_hosts(self):
        config = nova.nova_config(launch_ctx(profiles.DEFAULT))
        self.assertEqual({}, config['nodenames'])
        self.assertEqual('host1',
                         nova.hypervisor_hostname('host1', {}))

    def test_zones_take_service_hosts(self):
        # The aggregates are made of service hosts in every profile.
        for hosts in layout.zones().values():
            for host in hosts:
                self.assertNotIn('.', host)

    def test_fake_driver_reports_the_nodename(self):
        code = '\n'.join([
            'from nova.virt import fake',
            'from conformance_tests.cloud.services.nova import fake_compute',
            'named, plain = fake.MediumFakeDriver(None), '
            'fake.MediumFakeDriver(None)',
            'with fake_compute.nodename("host1.vendor.example"):',
            '    named.init_host("host1")',
            'plain.init_host("host2")',
            'with fake_compute.nodename(None):',
            '    pass',
            'print(named.get_available_nodes()[0],',
            '      named.get_available_resource(',
            '          "host1.vendor.example")["hypervisor_hostname"],',
            '      plain.get_available_nodes()[0])',
        ])
        self.assertEqual(
            'host1.vendor.example host1.vendor.example host2',
            in_own_process(self, code).strip())


class HostSizeTest(testtools.TestCase):
    """The vendor-like computes have a real host's size; the default
    profile's the fake driver's."""

    def test_every_compute_of_the_profile_gets_it(self):
        self.assertEqual(profiles.REAL_HOST_SIZE, nova.nova_config(
            launch_ctx(VENDOR))['host_size'])
        self.assertIsNone(nova.nova_config(
            launch_ctx(profiles.DEFAULT))['host_size'])
        # beyond nova's default RAM quota (51200 MB) many times over
        self.assertGreater(profiles.REAL_HOST_SIZE['memory_mb'], 10 * 51200)

    def test_fake_driver_reports_the_size(self):
        code = '\n'.join([
            'from nova.virt import fake',
            'from conformance_tests.cloud.services.nova import fake_compute',
            'sized, plain = fake.MediumFakeDriver(None), '
            'fake.MediumFakeDriver(None)',
            'with fake_compute.nodename("h1.x"), fake_compute.size('
            '{"vcpus": 48, "memory_mb": 800000, "local_gb": 500}):',
            '    sized.init_host("h1")',
            'plain.init_host("h2")',
            'with fake_compute.size(None):',
            '    pass',
            'for d, node in ((sized, "h1.x"), (plain, "h2")):',
            '    r = d.get_available_resource(node)',
            '    print(r["vcpus"], r["memory_mb"], r["local_gb"],',
            '          d.vcpus, d.memory_mb, d.local_gb)',
        ])
        self.assertEqual(
            ['48 800000 500 48 800000 500', '10 8192 1028 10 8192 1028'],
            in_own_process(self, code).split('\n')[:2])
