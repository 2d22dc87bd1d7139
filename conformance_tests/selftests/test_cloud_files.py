"""cloud/secrets.py, service_configs.py and client_files.tempest_conf."""

import configparser
import os
import stat

import fixtures
import testtools

from conformance_tests.cloud import client_files
from conformance_tests.cloud import secrets
from conformance_tests.cloud import service_configs


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
        path = service_configs.keystone_conf(self.dir)
        self.assertEqual(os.path.join(self.dir, 'keystone.conf'), path)
        conf = _read_conf(path)
        self.assertEqual('4', conf['identity']['password_hash_rounds'])
        self.assertEqual('True', conf['cache']['enabled'])
        self.assertEqual('dogpile.cache.memory', conf['cache']['backend'])
        self.assertEqual('fernet', conf['token']['provider'])

    def test_keystone_conf_keeps_state_in_workdir(self):
        conf = _read_conf(service_configs.keystone_conf(self.dir))
        self.assertEqual('sqlite:///%s' % os.path.join(
            self.dir, 'keystone.db'), conf['database']['connection'])
        for section in ('fernet_tokens', 'fernet_receipts', 'credential'):
            self.assertTrue(conf[section]['key_repository'].startswith(
                self.dir + os.sep), section)

    def test_keystone_conf_is_private(self):
        self.assertEqual(0o600, _mode(service_configs.keystone_conf(
            self.dir)))

    def test_placement_conf(self):
        user = {'username': 'placement', 'password': 's3cret%'}
        path = service_configs.placement_conf(
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


class TempestConfTest(testtools.TestCase):

    ADMIN = {'username': 'admin', 'password': 'pw', 'project_name': 'admin'}

    def conf(self, mutant=None):
        return client_files.tempest_conf(
            'http://127.0.0.1:1/v3', 'RegionOne', self.ADMIN,
            ('1.0', '1.39'), mutant, '/tmp/logs-not-written')

    def test_placement_microversion_range(self):
        conf = self.conf()
        self.assertEqual('1.0', conf['placement']['min_microversion'])
        self.assertEqual('1.39', conf['placement']['max_microversion'])

    def test_placement_is_available(self):
        self.assertEqual('true',
                         self.conf()['service_available']['placement'])

    def test_other_services_are_not_available(self):
        available = self.conf()['service_available']
        for service in ('nova', 'neutron', 'cinder', 'glance', 'swift'):
            self.assertEqual('false', available[service], service)

    def test_admin_and_identity(self):
        conf = self.conf()
        self.assertEqual('pw', conf['auth']['admin_password'])
        self.assertEqual('true', conf['auth']['use_dynamic_credentials'])
        self.assertEqual('http://127.0.0.1:1/v3',
                         conf['identity']['uri_v3'])
        self.assertEqual('RegionOne', conf['identity']['region'])

    def test_mutant_is_recorded(self):
        self.assertEqual('', self.conf()['conformance'][
            'embedded_cloud_mutant'])
        self.assertEqual('x', self.conf('x')['conformance'][
            'embedded_cloud_mutant'])

    def test_sections_are_valid_for_configparser(self):
        parser = configparser.ConfigParser(interpolation=None)
        parser.read_dict(self.conf())
        self.assertEqual('true',
                         parser['service_available']['placement'])
