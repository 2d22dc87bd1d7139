"""Seed 000 through a real client: `openstack server group --rule`.

The spec names python-openstackclient's new --rule option. This drives
the installed `openstack` command at compute microversion 2.64 and parses
its JSON output. Credentials reach it through OS_* environment variables,
never through its command line, so no failure message can show them.
"""

import json
import os
import shutil
import subprocess
import sys

from tempest import config
from tempest.lib.common import api_version_utils
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import decorators
from tempest import test

from conformance_tests.common import microversion

CONF = config.CONF
MICROVERSION = '2.64'
RULE = ('openstack server group create --rule max_server_per_host=2 at '
        'compute 2.64 creates an anti-affinity group with that rule')


def _openstack_command():
    configured = CONF.conformance.openstack_cli
    if configured:
        return configured if os.access(configured, os.X_OK) else None
    beside = os.path.join(os.path.dirname(sys.executable), 'openstack')
    return beside if os.access(beside, os.X_OK) else shutil.which(
        'openstack')


class ServerGroupCLITest(api_version_utils.BaseMicroversionTest,
                         test.BaseTestCase):
    credentials = ['primary']
    min_microversion = MICROVERSION
    max_microversion = MICROVERSION

    @classmethod
    def skip_checks(cls):
        super().skip_checks()
        if not CONF.service_available.nova:
            raise cls.skipException(
                'nova is not available: set [service_available] nova = '
                'true to run the compute conformance tests')
        reason = microversion.class_skip_reason(cls, CONF)
        if reason:
            raise cls.skipException(reason)
        if not _openstack_command():
            raise cls.skipException(
                'no `openstack` command: install python-openstackclient or '
                'set [conformance] openstack_cli to its path')

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.groups = cls.os_primary.server_groups_client

    @classmethod
    def resource_setup(cls):
        super().resource_setup()
        cls.setup_api_microversion_fixture(
            compute_microversion=microversion.request_microversion(
                cls, CONF))

    def _env(self):
        creds = self.os_primary.credentials
        env = {k: v for k, v in os.environ.items()
               if not k.startswith('OS_')}
        env.update({
            'OS_AUTH_URL': CONF.identity.uri_v3,
            'OS_IDENTITY_API_VERSION': '3',
            'OS_USERNAME': creds.username,
            'OS_PASSWORD': creds.password,
            'OS_PROJECT_NAME': creds.project_name,
            'OS_USER_DOMAIN_NAME': creds.user_domain_name or 'Default',
            'OS_PROJECT_DOMAIN_NAME': creds.project_domain_name or 'Default',
            'OS_REGION_NAME': CONF.compute.region or CONF.identity.region,
            'OS_INTERFACE': CONF.compute.endpoint_type,
            'OS_COMPUTE_API_VERSION': MICROVERSION,
        })
        if CONF.identity.disable_ssl_certificate_validation:
            env['OS_INSECURE'] = 'true'
        return env

    def _openstack(self, *args, expect_ok=True):
        argv = [_openstack_command(), '--os-compute-api-version',
                MICROVERSION] + list(args)
        done = subprocess.run(argv, env=self._env(), capture_output=True,
                              text=True, timeout=120)
        shown = 'openstack %s' % ' '.join(args)
        if expect_ok:
            self.assertEqual(0, done.returncode, '%s: `%s` exited %d: %s' % (
                RULE, shown, done.returncode, done.stderr.strip()[-800:]))
        return done

    def _json(self, *args):
        out = self._openstack(*(args + ('-f', 'json'))).stdout
        try:
            return json.loads(out)
        except ValueError:
            self.fail('%s: `openstack %s -f json` printed no JSON: %r' % (
                RULE, ' '.join(args), out[:300]))

    @decorators.idempotent_id('2c4e6a8b-0d1f-4a3b-9c5d-7e8f9a0b1c26')
    @decorators.attr(type=['slow'])
    def test_rule_max_server_per_host_through_openstackclient(self):
        name = data_utils.rand_name(
            prefix=CONF.conformance.resource_prefix, name='cli-sg')
        created = self._json('server', 'group', 'create', '--policy',
                             'anti-affinity', '--rule',
                             'max_server_per_host=2', name)
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        self.groups.delete_server_group, created.get('id'))
        expected = {'name': name, 'policy': 'anti-affinity',
                    'rules': {'max_server_per_host': 2}, 'members': []}
        self.assertEqual(expected, {k: created.get(k) for k in expected},
                         '%s: create output' % RULE)

        shown = self._json('server', 'group', 'show', created['id'])
        self.assertEqual(expected, {k: shown.get(k) for k in expected},
                         '%s: show output' % RULE)

        listed = [g for g in self._json('server', 'group', 'list')
                  if g.get('ID') == created['id']]
        self.assertEqual([{'ID': created['id'], 'Name': name,
                           'Policy': 'anti-affinity'}], listed,
                         '%s: list output' % RULE)

        # The API agrees with what the client printed.
        api = self.groups.show_server_group(created['id'])['server_group']
        self.assertEqual('anti-affinity', api['policy'])

        self._openstack('server', 'group', 'delete', created['id'])
        gone = self._openstack('server', 'group', 'show', created['id'],
                               expect_ok=False)
        self.assertNotEqual(0, gone.returncode,
                            '%s: the group is gone after delete' % RULE)
