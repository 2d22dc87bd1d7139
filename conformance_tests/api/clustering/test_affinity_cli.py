"""Seed 002 through a real client: `openstack cluster policy ...`.

python-senlinclient's `openstack cluster policy create --spec-file` makes
the affinity policy from a YAML spec file and `openstack cluster policy
attach` binds it; the binding must be what S2 says. Credentials reach the
command through OS_* environment variables, never its command line.
"""

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
        """Run `openstack ARGS`; return (exit status, stdout, stderr)."""
        proc = subprocess.run(
            [openstack_command()] + list(args), env=self._env(),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            timeout=CONF.compute.build_timeout)
        return proc.returncode, proc.stdout, proc.stderr

    def assert_ran(self, result, what):
        # stderr never holds the password (it is not an argument)
        status, _, err = result
        self.assertEqual(0, status, '%s: `openstack %s` exited %d: %s' % (
            RULE, what, status, err.strip()[-300:]))

    @decorators.idempotent_id('bdcf490f-3250-4d5c-bbb2-f892a6d65ee2')
    def test_cli_create_and_attach(self):
        cluster = self.cluster(self.profile())
        spec_file = os.path.join(self.useFixture(fixtures.TempDir()).path,
                                 'affinity.yaml')
        with open(spec_file, 'w') as f:
            yaml.safe_dump(base.affinity_spec(servergroup={
                'name': self.name('group'), 'policies': 'affinity'}), f)
        name = self.name('cli-affinity')
        created = self.openstack('cluster', 'policy', 'create',
                                 '--spec-file', spec_file, name)
        # Judge what the command made before how it printed it: the
        # exit status is asserted last, so the rest is proven either way.
        policy = self.policy_named(name)
        self.assertIsNotNone(policy, '%s: no policy %s after `openstack '
                             'cluster policy create` (exit %d: %s)' % (
                                 RULE, name, created[0],
                                 created[2].strip()[-300:]))
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        self.clustering.delete_policy, policy['id'])
        self.assertEqual(base.AFFINITY_TYPE + '-1.0', policy['type'], RULE)
        self.assert_ran(self.openstack(
            'cluster', 'policy', 'attach', '--policy', policy['id'],
            cluster['id']), 'cluster policy attach')
        self.wait_for_binding(cluster)
        self.addCleanup(self._detach_if_bound, self.clustering,
                        cluster['id'], policy['id'])
        data = self.binding_data(cluster, policy)
        self.assertIs(False, data.get('inherited_group'), '%s: %s' % (
            RULE, data))
        group = self.groups.show_server_group(data['servergroup_id'])[
            'server_group']
        self.assertEqual(['affinity'], group['policies'], RULE)
        self.assert_ran(created, 'cluster policy create')

    def policy_named(self, name):
        for policy in self.clustering.list_policies():
            if policy['name'] == name:
                return policy
        return None

    def wait_for_binding(self, cluster):
        """The attach command returns once the action is queued."""
        for action in self._attach_actions(cluster):
            done = self.act(action['id'], 'POLICY_ATTACH')
            self.assert_succeeded(done, RULE)

    def _attach_actions(self, cluster):
        return [a for a in self.clustering.list_actions(cluster['id'])
                if a['action'] == 'CLUSTER_ATTACH_POLICY']
