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

"""common/cli.py: finding `openstack`, its environment, and failures that
name the command, its exit and its stderr, never a password."""

import json
import os
import stat
import sys
import textwrap
import types

import fixtures
from tempest.lib import exceptions as lib_exc
import testtools

from conformance_tests.common import cli

PASSWORD = 's3cret-pw'
RULE = 'spec: the rule'
# A stand-in `openstack`: behaves as its first argument says.
FAKE = textwrap.dedent('''\
    #!%s
    import json, os, sys, time
    what = sys.argv[1]
    if what == 'argv':
        print(json.dumps(sys.argv[1:]))
    elif what == 'env':
        print(json.dumps({k: v for k, v in os.environ.items()
                          if k.startswith('OS_')}))
    elif what == 'preamble':
        print('Created a new lease:')
        print(json.dumps({'id': 'l1'}))
    elif what == 'text':
        print('not json ' + os.environ['OS_PASSWORD'])
    elif what == 'fail':
        sys.stderr.write('Could not load x\\nbad %%s\\nERROR: refused\\n'
                         %% os.environ['OS_PASSWORD'])
        sys.exit(3)
    elif what == 'sleep':
        time.sleep(5)
    ''') % sys.executable


def fake_conf(openstack_cli='', insecure=False, ca_file=None):
    return types.SimpleNamespace(
        conformance=types.SimpleNamespace(openstack_cli=openstack_cli),
        compute=types.SimpleNamespace(build_timeout=300),
        identity=types.SimpleNamespace(
            uri_v3='http://keystone/v3', region='RegionOne',
            disable_ssl_certificate_validation=insecure,
            ca_certificates_file=ca_file))


def creds(password=PASSWORD):
    return types.SimpleNamespace(
        username='alice', password=password, project_name='p',
        user_domain_name=None, project_domain_name='D')


class CommandTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path

    def executable(self, name='openstack', mode=0o755):
        path = os.path.join(self.dir, name)
        with open(path, 'w') as f:
            f.write(FAKE)
        os.chmod(path, mode)
        return path

    def test_configured_command_if_executable(self):
        path = self.executable()
        self.assertEqual(path, cli.command(fake_conf(path)))
        os.chmod(path, stat.S_IRUSR)
        self.assertIsNone(cli.command(fake_conf(path)))

    def test_beside_python_then_path(self):
        beside = self.executable()
        self.useFixture(fixtures.MockPatchObject(
            cli.sys, 'executable', os.path.join(self.dir, 'python')))
        self.assertEqual(beside, cli.command(fake_conf()))
        os.remove(beside)
        self.useFixture(fixtures.MockPatchObject(
            cli.shutil, 'which', lambda name: '/on/path/' + name))
        self.assertEqual('/on/path/openstack', cli.command(fake_conf()))

    def test_skip_reason_names_the_option_and_the_plugin(self):
        missing = fake_conf(os.path.join(self.dir, 'none'))
        self.assertEqual(
            'no `openstack` command: install python-openstackclient or set '
            '[conformance] openstack_cli to its path',
            cli.skip_reason(missing))
        self.assertEqual(
            'no `openstack` command: install python-openstackclient and '
            'python-senlinclient or set [conformance] openstack_cli to its '
            'path', cli.skip_reason(missing, 'python-senlinclient'))
        self.assertIsNone(cli.skip_reason(fake_conf(self.executable())))


class EnvironmentTest(testtools.TestCase):

    def test_credentials_replace_the_process_os_variables(self):
        self.useFixture(fixtures.EnvironmentVariable('OS_CLOUD', 'other'))
        self.useFixture(fixtures.EnvironmentVariable('KEEP', 'me'))
        env = cli.environment(fake_conf(insecure=True), creds(), 'R1',
                              'internal', OS_COMPUTE_API_VERSION='2.64')
        self.assertNotIn('OS_CLOUD', env)
        self.assertEqual('me', env['KEEP'])
        self.assertEqual({
            'OS_AUTH_URL': 'http://keystone/v3',
            'OS_IDENTITY_API_VERSION': '3', 'OS_USERNAME': 'alice',
            'OS_PASSWORD': PASSWORD, 'OS_PROJECT_NAME': 'p',
            'OS_USER_DOMAIN_NAME': 'Default', 'OS_PROJECT_DOMAIN_NAME': 'D',
            'OS_REGION_NAME': 'R1', 'OS_INTERFACE': 'internal',
            'OS_INSECURE': 'true', 'OS_COMPUTE_API_VERSION': '2.64'},
            {k: v for k, v in env.items() if k.startswith('OS_')})

    def test_the_nova_shell_is_told_too(self):
        # novaclient's shell reads NOVACLIENT_INSECURE, not OS_INSECURE
        env = cli.environment(fake_conf(insecure=True), creds(), 'R1',
                              'public')
        self.assertEqual('true', env['NOVACLIENT_INSECURE'])
        self.assertNotIn('NOVACLIENT_INSECURE', cli.environment(
            fake_conf(), creds(), 'R1', 'public'))

    def test_secure_by_default(self):
        env = cli.environment(fake_conf(), creds(), 'R1', 'public')
        self.assertNotIn('OS_INSECURE', env)
        self.assertNotIn('OS_CACERT', env)

    def test_a_private_ca_is_trusted_as_tempest_trusts_it(self):
        env = cli.environment(fake_conf(ca_file='/etc/ca.pem'), creds(),
                              'R1', 'public')
        self.assertEqual('/etc/ca.pem', env['OS_CACERT'])
        self.assertNotIn('OS_INSECURE', env)


class RunTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'openstack')
        with open(path, 'w') as f:
            f.write(FAKE)
        os.chmod(path, 0o755)
        self.conf = fake_conf(path)

    def runner(self, **kwargs):
        return cli.OpenStack(self.conf, creds(), RULE, **kwargs)

    def test_credentials_never_on_the_command_line(self):
        argv = self.runner().json('argv', 'x')
        self.assertEqual(['argv', 'x', '-f', 'json'], argv)
        self.assertNotIn(PASSWORD, ' '.join(argv))
        env = self.runner().run('env').stdout
        self.assertEqual(PASSWORD, json.loads(env)['OS_PASSWORD'])
        self.assertEqual('RegionOne', json.loads(env)['OS_REGION_NAME'])
        self.assertEqual('public', json.loads(env)['OS_INTERFACE'])

    def test_json_after_a_line_of_the_client(self):
        self.assertEqual({'id': 'l1'}, self.runner().json('preamble'))

    def test_failure_names_command_exit_and_stderr_without_password(self):
        e = self.assertRaises(cli.CommandFailed, self.runner().run,
                              'fail', '--os-password', PASSWORD,
                              '--token=t0k')
        self.assertIsInstance(e, AssertionError)
        self.assertEqual(
            'spec: the rule: `openstack fail --os-password *** '
            '--token=***` exited 3: Could not load x\nbad ***\n'
            'ERROR: refused', str(e))

    def test_noise_and_tail(self):
        e = self.assertRaises(cli.CommandFailed,
                              self.runner(noise=('Could not load',),
                                          stderr_tail=14).run, 'fail')
        self.assertTrue(str(e).endswith('exited 3: ERROR: refused'), e)
        self.assertNotIn('Could not', str(e))

    def test_unchecked_run_returns_the_exit(self):
        result = self.runner().run('fail', check=False)
        self.assertEqual(3, result.returncode)
        self.assertIn('ERROR: refused', result.stderr)

    def test_no_json_is_a_failure_without_password(self):
        e = self.assertRaises(cli.CommandFailed, self.runner().json, 'text')
        self.assertEqual(
            "spec: the rule: `openstack text -f json` printed no JSON: "
            "'not json ***\\n'", str(e))

    def test_timeout_is_an_error_naming_the_command(self):
        e = self.assertRaises(cli.CommandTimeout,
                              self.runner(timeout=0.5).run, 'sleep')
        self.assertEqual('`openstack sleep` did not end within 0.5 s '
                         '([compute] build_timeout)', str(e))
        self.assertNotIsInstance(e, AssertionError)

    def test_the_bound_is_tempests_build_timeout(self):
        self.conf.compute.build_timeout = 7
        self.assertEqual(7, self.runner().timeout)

    def test_missing_command_is_a_configuration_error(self):
        self.conf.conformance.openstack_cli = '/nonexistent/openstack'
        e = self.assertRaises(lib_exc.InvalidConfiguration,
                              self.runner().run, 'argv')
        self.assertIn('[conformance] openstack_cli', str(e))


class ParseJsonTest(testtools.TestCase):

    def test_plain_and_after_a_preamble(self):
        self.assertEqual([1], cli.parse_json('[1]\n'))
        self.assertEqual({'a': 1}, cli.parse_json('Done:\n{"a": 1}\n'))

    def test_no_json(self):
        self.assertRaises(ValueError, cli.parse_json, 'nothing {here}')
        self.assertRaises(ValueError, cli.parse_json, '')
