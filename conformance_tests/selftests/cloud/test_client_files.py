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

"""cloud/secrets.py, the services' config writers and the tempest.conf,
accounts.yaml and clouds.yaml the launcher writes."""

import configparser
import os
import stat

import fixtures
import testtools

from conformance_tests.cloud import client_files
from conformance_tests.cloud import launch_context
from conformance_tests.cloud import secrets
from conformance_tests.cloud import services
from conformance_tests.cloud.services import base
from conformance_tests.cloud.services import keystone
from conformance_tests.cloud.services import nova
from conformance_tests.cloud.services import placement


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def _read_conf(path):
    parser = configparser.ConfigParser(interpolation=None)
    with open(path) as f:
        parser.read_file(f)
    return parser


class SecretsTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path

    def test_generate_has_admin_and_service_users(self):
        data = secrets.generate(['placement'])
        self.assertEqual('admin', data['admin']['username'])
        self.assertEqual('admin', data['admin']['project_name'])
        self.assertEqual(['placement'], list(data['services']))
        self.assertEqual('placement',
                         data['services']['placement']['username'])

    def test_passwords_are_fresh_and_long(self):
        one, two = secrets.generate(['p']), secrets.generate(['p'])
        self.assertNotEqual(one['admin']['password'],
                            two['admin']['password'])
        self.assertNotEqual(one['admin']['password'],
                            one['services']['p']['password'])
        self.assertGreaterEqual(len(one['admin']['password']), 20)

    def test_saved_file_is_private(self):
        secrets.save(self.dir, secrets.generate(['placement']))
        self.assertEqual(0o600, _mode(os.path.join(self.dir,
                                                   secrets.FILENAME)))

    def test_private_open_tightens_an_existing_file(self):
        # tempest init writes tempest.conf with the umask before the
        # launcher puts the admin password in it.
        path = os.path.join(self.dir, 'tempest.conf')
        with open(path, 'w') as f:
            f.write('x')
        os.chmod(path, 0o644)
        with secrets.private_open(path) as f:
            f.write('secret')
        self.assertEqual(0o600, _mode(path))

    def test_round_trip(self):
        data = secrets.generate(['placement'])
        secrets.save(self.dir, data)
        self.assertEqual(data, secrets.load(self.dir))


class ServiceConfigsTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path

    def test_keystone_conf_tuning(self):
        path = keystone.keystone_conf(self.dir)
        self.assertEqual(os.path.join(self.dir, 'keystone.conf'), path)
        conf = _read_conf(path)
        self.assertEqual('4', conf['identity']['password_hash_rounds'])
        self.assertEqual('True', conf['cache']['enabled'])
        # A backend whose entries expire: dogpile's memory backend kept
        # every token keystone ever validated.
        self.assertEqual('oslo_cache.dict', conf['cache']['backend'])
        self.assertEqual('expiration_time:%d' % keystone.CACHE_SECONDS,
                         conf['cache']['backend_argument'])
        self.assertEqual('fernet', conf['token']['provider'])

    def test_keystone_conf_keeps_state_in_workdir(self):
        conf = _read_conf(keystone.keystone_conf(self.dir))
        self.assertEqual('sqlite:///%s' % os.path.join(
            self.dir, 'keystone.db'), conf['database']['connection'])
        for section in ('fernet_tokens', 'fernet_receipts', 'credential'):
            self.assertTrue(conf[section]['key_repository'].startswith(
                self.dir + os.sep), section)

    def test_keystone_conf_is_private(self):
        self.assertEqual(0o600, _mode(keystone.keystone_conf(self.dir)))

    def test_placement_conf(self):
        user = {'username': 'placement', 'password': 's3cret%'}
        path = placement.placement_conf(
            self.dir, 'http://127.0.0.1:1/v3', user)
        self.assertEqual(0o600, _mode(path))
        conf = _read_conf(path)
        auth = conf['keystone_authtoken']
        self.assertEqual('placement', auth['username'])
        # A '%' must survive: no interpolation on write or read.
        self.assertEqual('s3cret%', auth['password'])
        self.assertEqual('http://127.0.0.1:1/v3', auth['auth_url'])
        self.assertEqual('keystone', conf['api']['auth_strategy'])
        self.assertEqual('True',
                         conf['placement_database']['sync_on_startup'])


class FakeService(base.Service):
    """A descriptor with a canned tempest.conf fragment."""

    def __init__(self, name, fragment, **attrs):
        self.name = name
        self.process = attrs.pop('process', name)
        self.fragment = fragment
        for key, value in attrs.items():
            setattr(self, key, value)

    def tempest_conf(self, ctx):
        return self.fragment


class TempestConfFromFragmentsTest(testtools.TestCase):
    """How client_files merges the descriptors' fragments."""

    def conf(self, *descriptors):
        return client_files.tempest_conf(None, descriptors, '/tmp/logs')

    def test_base_without_services(self):
        conf = self.conf()
        for service in client_files.TEMPEST_SERVICES:
            self.assertEqual('false', conf['service_available'][service])
        self.assertEqual('true', conf['auth']['use_dynamic_credentials'])
        self.assertEqual('false', conf['validation']['run_validation'])

    def test_dynamic_credentials_carry_the_resource_prefix(self):
        conf = self.conf()
        self.assertEqual(conf['conformance']['resource_prefix'],
                         conf['DEFAULT']['resource_name_prefix'])

    def test_serial_lock_is_per_workspace(self):
        # Unset, Tempest's @serial lock is shared by every run on the
        # machine: clouds side by side would hold each other up.
        self.assertEqual('/tmp/tempest_lock',
                         self.conf()['oslo_concurrency']['lock_path'])

    def test_suite_is_blind_to_the_mutant(self):
        self.assertNotIn('embedded_cloud_mutant', self.conf()['conformance'])

    def test_fragment_turns_a_service_on_and_adds_sections(self):
        conf = self.conf(FakeService('a', {
            'service_available': {'glance': 'true'},
            'image': {'x': '1'}}))
        self.assertEqual('true', conf['service_available']['glance'])
        self.assertEqual('false', conf['service_available']['nova'])
        self.assertEqual({'x': '1'}, conf['image'])

    def test_fragments_add_to_one_section(self):
        conf = self.conf(FakeService('a', {'compute': {'x': '1'}}),
                         FakeService('b', {'compute': {'y': '2'}}))
        self.assertEqual({'x': '1', 'y': '2'}, conf['compute'])

    def test_two_fragments_agreeing_is_fine(self):
        conf = self.conf(FakeService('a', {'compute': {'x': '1'}}),
                         FakeService('b', {'compute': {'x': '1'}}))
        self.assertEqual('1', conf['compute']['x'])

    def test_clash_names_both_services(self):
        e = self.assertRaises(
            client_files.ConfClash, self.conf,
            FakeService('a', {'compute': {'x': '1'}}),
            FakeService('b', {'compute': {'x': '2'}}))
        self.assertIn('[compute] x', str(e))
        self.assertIn('a says', str(e))
        self.assertIn('b says', str(e))


def fake_launch_context(descriptors=None, **settings):
    """The context the launcher hands descriptors, as after_ready left
    it, for a cloud that is not running."""
    descriptors = descriptors or services.all()
    ports = services.assign_ports(descriptors, 18900)
    user_names = [d.name for d in descriptors if d.service_user]
    ctx = launch_context.LaunchContext(
        descriptors, '127.0.0.1', '/tmp/no-such-service-dir',
        '/tmp/no-such-workspace', ports, secrets.generate(user_names),
        'RegionOne', services.resolve_settings(descriptors, settings),
        say=lambda message: None)
    ctx.outputs.update(FAKE_OUTPUTS)
    return ctx


# What the services' after_ready() learn from a running cloud.
FAKE_OUTPUTS = {
    'placement': {'microversions': ('1.0', '1.39')},
    'nova': {'microversions': ('2.1', '2.104')},
    'glance': {'image_ref': 'image-1', 'image_ref_alt': 'image-2'},
}


class LauncherTempestConfTest(testtools.TestCase):
    """The tempest.conf the launcher writes for the registered services."""

    def setUp(self):
        super().setUp()
        self.ctx = fake_launch_context()
        self.conf = client_files.tempest_conf(
            self.ctx, self.ctx.descriptors, '/tmp/logs')

    def test_identity_and_admin(self):
        conf = self.conf
        keystone_port = self.ctx.ports['keystone']['api']
        self.assertEqual('http://127.0.0.1:%d/v3' % keystone_port,
                         conf['identity']['uri_v3'])
        self.assertEqual('RegionOne', conf['identity']['region'])
        self.assertEqual(self.ctx.secrets['admin']['password'],
                         conf['auth']['admin_password'])
        self.assertEqual('false', conf['identity-feature-enabled']['api_v2'])

    def test_services_available(self):
        available = self.conf['service_available']
        for service in ('placement', 'nova', 'neutron', 'glance'):
            self.assertEqual('true', available[service], service)
        for service in ('cinder', 'swift', 'horizon'):
            self.assertEqual('false', available[service], service)

    def test_microversion_ranges_come_from_the_services(self):
        self.assertEqual('1.39', self.conf['placement']['max_microversion'])
        self.assertEqual('2.1', self.conf['compute']['min_microversion'])
        self.assertEqual('2.104', self.conf['compute']['max_microversion'])

    def test_images_are_the_ones_uploaded_at_start(self):
        self.assertEqual('image-1', self.conf['compute']['image_ref'])
        self.assertEqual('image-2', self.conf['compute']['image_ref_alt'])

    def test_min_compute_nodes_is_the_computes_running(self):
        from conformance_tests.cloud.services.nova import (
            layout as compute_layout)
        self.assertEqual(str(len(compute_layout.HOSTS)),
                         self.conf['compute']['min_compute_nodes'])

    def test_fault_control_is_nova_control_listener(self):
        self.assertEqual(
            'http://127.0.0.1:%d' % self.ctx.ports['nova']['control'],
            self.conf['conformance']['fault_control_url'])
        self.assertEqual(self.ctx.secrets['control_token'],
                         self.conf['conformance']['fault_control_token'])

    def test_quota_counting_follows_the_profile(self):
        self.assertEqual(
            'true', self.conf['conformance']['quota_usage_from_placement'])
        ctx = fake_launch_context(count_usage_from_placement=False)
        conf = client_files.tempest_conf(ctx, ctx.descriptors, '/tmp/l')
        self.assertEqual('false',
                         conf['conformance']['quota_usage_from_placement'])

    def test_sections_are_valid_for_configparser(self):
        parser = configparser.ConfigParser(interpolation=None)
        parser.read_dict(self.conf)
        self.assertEqual('true', parser['service_available']['nova'])
        # configparser would write a Python True or None as 'True' or
        # 'None' (which oslo.config reads as the string 'None'): every
        # fragment must give the text it means.
        for section, options in self.conf.items():
            for key, value in options.items():
                self.assertIsInstance(value, str, (section, key))


class WriteAllTest(testtools.TestCase):
    """The three files on disk: private, and what clients expect."""

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path
        self.workspace = os.path.join(self.dir, 'workspace')
        # A workspace as `tempest init` leaves it (not run here).
        os.makedirs(os.path.join(self.workspace, 'etc'))
        with open(os.path.join(self.workspace, '.stestr.conf'), 'w'):
            pass
        self.ctx = fake_launch_context()
        client_files.write_all(self.ctx, self.ctx.descriptors, self.dir,
                               self.workspace)

    def test_files_are_private(self):
        for path in (os.path.join(self.workspace, 'etc', 'tempest.conf'),
                     os.path.join(self.dir, 'accounts.yaml'),
                     os.path.join(self.dir, 'clouds.yaml')):
            self.assertEqual(0o600, _mode(path), path)

    def test_tempest_conf_round_trips(self):
        conf = _read_conf(os.path.join(self.workspace, 'etc',
                                       'tempest.conf'))
        self.assertEqual('conformance',
                         conf['DEFAULT']['resource_name_prefix'])
        self.assertEqual(self.ctx.identity_uri, conf['identity']['uri_v3'])

    def test_accounts_and_clouds(self):
        import yaml
        with open(os.path.join(self.dir, 'accounts.yaml')) as f:
            accounts = yaml.safe_load(f)
        self.assertEqual(['admin'], [a['username'] for a in accounts])
        self.assertEqual(['admin'], accounts[0]['roles'])
        with open(os.path.join(self.dir, 'clouds.yaml')) as f:
            clouds = yaml.safe_load(f)['clouds']
        admin = clouds['conformance-admin']
        self.assertEqual(self.ctx.identity_uri, admin['auth']['auth_url'])
        self.assertEqual('RegionOne', admin['region_name'])


class NovaConfigTest(testtools.TestCase):
    """nova's config, and the hooks other descriptors contribute to."""

    def ctx(self, *extra):
        # Registered services that contribute to nova (blazar) are left
        # out: each test names the contributions it checks.
        return fake_launch_context(services.start_order(
            [s for s in services.all() if not s.contributions()]
            + list(extra)))

    def test_own_config(self):
        config = nova.nova_config(self.ctx())
        flags = config['flags']
        self.assertEqual('fake.MediumFakeDriver',
                         flags['DEFAULT']['compute_driver'])
        self.assertEqual('nova', flags['keystone_authtoken']['username'])
        self.assertEqual('RegionOne', flags['placement']['region_name'])
        self.assertIs(True, flags['quota']['count_usage_from_placement'])
        self.assertEqual(list(nova.SCHEDULER_FILTERS_BASE),
                         flags['filter_scheduler']['enabled_filters'])

    def test_contributed_filters_and_options(self):
        other = FakeService('blazar-like', {}, depends_on=('nova',))
        other.contributions = lambda settings=None: {
            nova.SCHEDULER_FILTERS: ['BlazarFilter'],
            nova.NOVA_CONF: {'blazar:physical:host': {
                'allow_preemptibles': True}}}
        ctx = self.ctx(other)
        config = nova.nova_config(ctx)
        filters = config['flags']['filter_scheduler']['enabled_filters']
        self.assertEqual('BlazarFilter', filters[-1])
        self.assertEqual(list(nova.SCHEDULER_FILTERS_BASE), filters[:-1])
        conf = client_files.tempest_conf(ctx, ctx.descriptors, '/tmp/l')
        self.assertEqual(','.join(filters), conf['compute-feature-enabled'][
            'scheduler_enabled_filters'])
        self.assertEqual({'allow_preemptibles': True},
                         config['flags']['blazar:physical:host'])

    def test_contribution_clashing_with_nova_is_refused(self):
        other = FakeService('clash', {}, depends_on=('nova',))
        other.contributions = lambda settings=None: {nova.NOVA_CONF: {
            'DEFAULT': {'compute_driver': 'other.Driver'}}}
        e = self.assertRaises(ValueError, nova.nova_config, self.ctx(other))
        self.assertIn('compute_driver', str(e))

    def test_extra_computes_of_every_registered_service(self):
        # One hook carries every contributed compute, apart from the
        # layout (which it never changes); an entry may carry its
        # hypervisor's destroy time (blazar's freepool hosts), or not
        # (senlin's DRS host: 0, the fake driver's own).
        from conformance_tests.cloud.services import blazar
        from conformance_tests.cloud.services.nova import (
            layout as compute_layout)
        from conformance_tests.cloud.services.nova import app as nova_app
        from conformance_tests.cloud.services import senlin
        config = nova.nova_config(fake_launch_context())
        self.assertEqual([list(h) for h in compute_layout.HOSTS],
                         config['computes'])
        started = [nova_app._extra_compute(c)
                   for c in config['extra_computes']]
        self.assertEqual(
            [(senlin.DRS_HOST, senlin.DRS_CELL, 0, {})]
            + [(h, blazar.FREEPOOL_CELL, 0,
                {blazar.SERVICE_USER: blazar.EVICTION_DESTROY_SECONDS})
               for h in blazar.FREEPOOL_HOSTS], started)
        layout = {h for h, _ in compute_layout.HOSTS}
        self.assertFalse(layout & {entry[0] for entry in started})
