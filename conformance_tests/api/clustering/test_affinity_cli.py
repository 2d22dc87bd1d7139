"""Seed 002 through a real client: `openstack cluster policy ...`.

python-senlinclient's `openstack cluster policy create --spec-file` makes
the affinity policy from a YAML spec file and `openstack cluster policy
attach` binds it; the binding must be what S2 says. Credentials reach the
command through OS_* environment variables, never its command line.
"""

import json
import os
import shutil
import subprocess
import sys

import fixtures
import yaml

from tempest.lib.common.utils import test_utils
from tempest.lib import decorators

from conformance_tests.api.clustering import base

CONF = base.CONF
RULE = ('openstack cluster policy create --spec-file and cluster policy '
        'attach give a policy whose binding is S2\'s: a created group, '
        'inherited_group False')


def openstack_command():
    configured = CONF.conformance.openstack_cli
    if configured:
        return configured if os.access(configured, os.X_OK) else None
    beside = os.path.join(os.path.dirname(sys.executable), 'openstack')
    return beside if os.access(beside, os.X_OK) else shutil.which(
        'openstack')


class AffinityCLITest(base.AffinityPolicyTest):

    @classmethod
    def skip_checks(cls):
        super().skip_checks()
        if not openstack_command():
            raise cls.skipException(
                'no `openstack` command: install python-openstackclient '
                'and python-senlinclient or set [conformance] openstack_cli '
                'to its path')

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
            'OS_REGION_NAME': CONF.identity.region,
            'OS_INTERFACE': 'public',
        })
        if CONF.identity.disable_ssl_certificate_validation:
            env['OS_INSECURE'] = 'true'
        return env

    def openstack(self, *args):
        proc = subprocess.run(
            [openstack_command()] + list(args), env=self._env(),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            timeout=CONF.compute.build_timeout)
        # The command's stderr never holds the password (it is not an
        # argument), so it may be shown.
        self.assertEqual(0, proc.returncode, '%s: `openstack %s` exited '
                         '%d: %s' % (RULE, ' '.join(args[:3]),
                                     proc.returncode, proc.stderr[-500:]))
        return proc.stdout

    @decorators.idempotent_id('bdcf490f-3250-4d5c-bbb2-f892a6d65ee2')
    def test_cli_create_and_attach(self):
        cluster = self.cluster(self.profile())
        spec_file = os.path.join(self.useFixture(fixtures.TempDir()).path,
                                 'affinity.yaml')
        with open(spec_file, 'w') as f:
            yaml.safe_dump(base.affinity_spec(servergroup={
                'name': self.name('group'), 'policies': 'affinity'}), f)
        policy = json.loads(self.openstack(
            'cluster', 'policy', 'create', '--spec-file', spec_file,
            self.name('cli-affinity'), '-f', 'json'))
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        self.clustering.delete_policy, policy['id'])
        self.assertEqual(base.AFFINITY_TYPE + '-1.0', policy['type'], RULE)
        self.openstack('cluster', 'policy', 'attach', '--policy',
                       policy['id'], cluster['id'])
        self.wait_for_binding(cluster, policy)
        data = self.binding_data(cluster, policy)
        self.assertIs(False, data.get('inherited_group'), '%s: %s' % (
            RULE, data))
        group = self.groups.show_server_group(data['servergroup_id'])[
            'server_group']
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        self.groups.delete_server_group, group['id'])
        self.assertEqual(['affinity'], group['policies'], RULE)

    def wait_for_binding(self, cluster, policy):
        """The attach command returns once the action is queued."""
        for action in self._attach_actions(cluster):
            done = self.act(action['id'], 'POLICY_ATTACH')
            self.assert_succeeded(done, RULE)

    def _attach_actions(self, cluster):
        return [a for a in self.clustering.list_actions(cluster['id'])
                if a['action'] == 'CLUSTER_ATTACH_POLICY']
