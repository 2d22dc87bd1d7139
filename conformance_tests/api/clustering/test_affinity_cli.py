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

"""Seed 002 through a real client: `openstack cluster policy ...`.

Two capabilities. ``clustering.affinity.cli`` judges the cloud through
the client: what python-senlinclient's `cluster policy create
--spec-file`, `attach`, `detach` and `delete` made, read back through
senlin's API and the commands that work on today's clients (`cluster
policy list --full-id -f json`, `cluster policy binding show`).
``clustering.affinity.cli-client`` judges the client's own commands:
`cluster policy create` and `cluster policy show` must exit 0 and print
the policy made from the spec file, which python-senlinclient 3.1.0
under osc-lib >= 4 does not (the guideline says why). Credentials reach
the command through OS_* environment variables, never its command line.
"""

import json
import os

import fixtures
import yaml

from tempest.lib.common.utils import test_utils
from tempest.lib import decorators

from conformance_tests.api.clustering import base
from conformance_tests.common import cli
from conformance_tests.common import outcomes
from conformance_tests.common import skips

CONF = base.CONF
RULE = ('openstack cluster policy create --spec-file and cluster policy '
        'attach give a policy whose binding is S2\'s: a created group, '
        'inherited_group False; detach deletes that group; cluster policy '
        'delete removes the policy')
RULE_CLIENT = ('openstack cluster policy create --spec-file and cluster '
               'policy show exit 0 and print the policy made from the spec '
               'file')
# osc-lib >= 4's refusal of python-senlinclient 3.1's plain-function
# formatters (the client's last line on stderr, see assert_created).
CLIENT_FORMATTER_DEFECT = 'Invalid formatter provided.'


def exit_accepts_create(status, stderr):
    """`cluster policy create` ended as a working client ends (0) or as
    python-senlinclient 3.1 under osc-lib >= 4 ends after the cloud
    answered (1, the formatter refusal as its last line)."""
    lines = stderr.strip().splitlines()
    return status == 0 or (status == 1 and bool(lines) and
                           lines[-1] == CLIENT_FORMATTER_DEFECT)


class AffinityCLITest(base.AffinityPolicyTest):

    @classmethod
    def skip_checks(cls):
        super().skip_checks()
        skips.skip_if(cls, cli.skip_reason(CONF, 'python-senlinclient'))

    def setUp(self):
        super().setUp()
        self.cli = cli.OpenStack(CONF, self.os_primary.credentials, RULE,
                                 stderr_tail=300)

    @decorators.idempotent_id('bdcf490f-3250-4d5c-bbb2-f892a6d65ee2')
    @decorators.attr(type=['slow'])
    def test_cli_create_and_attach(self):
        cluster = self.cluster(self.profile())
        spec_file = os.path.join(self.useFixture(fixtures.TempDir()).path,
                                 'affinity.yaml')
        with open(spec_file, 'w') as f:
            yaml.safe_dump(base.affinity_spec(servergroup={
                'name': self.name('group'), 'policies': 'affinity'}), f)
        name = self.name('cli-affinity')
        # removed also when the command fails half-way
        self.addCleanup(self._delete_policies_named, name)
        self.assert_created(self.cli.run(
            'cluster', 'policy', 'create', '--spec-file', spec_file, name,
            check=False))
        policy = self.cli_policy_named(name)
        self.assertIsNotNone(policy, '%s: `openstack cluster policy list` '
                             'has no policy %s after `openstack cluster '
                             'policy create`' % (RULE, name))
        self.assertEqual(base.AFFINITY_TYPE + '-1.0', policy['type'], RULE)

        # Before the command: detached before the policy is deleted.
        self.addCleanup(self._detach_if_bound, self.clustering,
                        cluster['id'], policy['id'])
        self.cli.run('cluster', 'policy', 'attach', '--policy',
                     policy['id'], cluster['id'])
        self.wait_for(cluster, 'CLUSTER_ATTACH_POLICY')
        binding = self.cli.json('cluster', 'policy', 'binding', 'show',
                                '--policy', policy['id'], cluster['id'])
        data = base.affinity_data(binding)
        self.assertIs(False, data.get('inherited_group'), '%s: `openstack '
                      'cluster policy binding show`: %s' % (RULE, binding))
        group_id = data.get('servergroup_id')
        self.assertIsNotNone(group_id, '%s: binding %s' % (RULE, binding))
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        self.groups.delete_server_group, group_id)
        group = outcomes.must_succeed(
            self, RULE, self.groups.show_server_group,
            group_id)['server_group']
        self.assertEqual(['affinity'], group['policies'], '%s: group %s' % (
            RULE, group))

        self.cli.run('cluster', 'policy', 'detach', '--policy',
                     policy['id'], cluster['id'])
        self.wait_for(cluster, 'CLUSTER_DETACH_POLICY')
        self.assertFalse(self.group_exists(group_id, RULE), '%s: group %s is '
                         'still there after `openstack cluster policy '
                         'detach`' % (RULE, group_id))

        self.cli.run('cluster', 'policy', 'delete', '--force',
                     policy['id'])
        self.assert_policy_gone(policy['id'])

    @decorators.idempotent_id('4f0c7a2e-9d61-4b8e-a3f5-2c7e8b1d6a94')
    def test_cli_policy_create_and_show(self):
        spec = base.affinity_spec(servergroup={
            'name': self.name('group'), 'policies': 'affinity'})
        spec_file = os.path.join(self.useFixture(fixtures.TempDir()).path,
                                 'affinity.yaml')
        with open(spec_file, 'w') as f:
            yaml.safe_dump(spec, f)
        name = self.name('cli-affinity')
        self.addCleanup(self._delete_policies_named, name)
        runner = cli.OpenStack(CONF, self.os_primary.credentials,
                               RULE_CLIENT, stderr_tail=300)
        created = runner.run('cluster', 'policy', 'create', '--spec-file',
                             spec_file, name, '-f', 'json', check=False)
        # What the cloud made, whatever the client said: senlin's API.
        made = [p['id'] for p in outcomes.must_succeed(
            self, RULE_CLIENT, self.clustering.list_policies)
            if p['name'] == name]
        failures = []
        problem = self.printed_policy_problem(created, spec, name)
        if problem:
            failures.append('`%s` %s; the cloud %s' % (
                created.shown, problem,
                'made policy %s' % made[0] if len(made) == 1 else
                'has %d policies named %s' % (len(made), name)))
        if len(made) == 1:
            shown = runner.run('cluster', 'policy', 'show', made[0],
                               '-f', 'json', check=False)
            problem = self.printed_policy_problem(shown, spec, name,
                                                  made[0])
            if problem:
                failures.append('`%s` %s' % (shown.shown, problem))
        if failures:
            self.fail('%s: %s' % (RULE_CLIENT, '; '.join(failures)))

    def printed_policy_problem(self, result, spec, name, policy_id=None):
        """What is wrong with a command's printing of the policy, or
        None: its exit status and last stderr line, or the fields that
        differ from what was asked."""
        if result.returncode != 0:
            lines = result.errors().strip().splitlines() or ['no stderr']
            return 'exited %d: %s' % (result.returncode, lines[-1])
        try:
            printed = cli.parse_json(result.stdout)
        except ValueError:
            return 'printed no JSON: %r' % result.stdout[:300]
        if isinstance(printed, dict) and isinstance(printed.get('spec'),
                                                    str):
            # osc-lib < 4 runs the client's json_formatter for -f json
            # too: the same spec, printed as JSON text in a string.
            try:
                printed['spec'] = json.loads(printed['spec'])
            except ValueError:
                pass
        wanted = {'name': name, 'type': base.AFFINITY_TYPE + '-1.0',
                  'spec': spec}
        if policy_id:
            wanted['id'] = policy_id
        differ = {k: printed.get(k) for k, v in wanted.items()
                  if printed.get(k) != v}
        if differ:
            return 'exited 0 but printed %s where %s was asked' % (
                differ, {k: wanted[k] for k in differ})
        return None

    def assert_policy_gone(self, policy_id):
        """`cluster policy show` of a deleted policy is the client's
        not-found error naming it, and senlin's API answers 404."""
        self.assertFalse(self.policy_exists(policy_id), '%s: policy %s is '
                         'still in senlin after `openstack cluster policy '
                         'delete`' % (RULE, policy_id))
        shown = self.cli.run('cluster', 'policy', 'show', policy_id,
                             check=False)
        last = (shown.errors().strip().splitlines() or [''])[-1]
        self.assertTrue(
            shown.returncode == 1 and policy_id in last and
            'not found' in last.lower(),
            '%s: `%s` after the delete must be the client\'s not-found '
            'error naming the policy; it exited %d: %s' % (
                RULE, shown.shown, shown.returncode, last))

    def policy_exists(self, policy_id):
        return any(p['id'] == policy_id for p in outcomes.must_succeed(
            self, RULE, self.clustering.list_policies))

    def assert_created(self, result):
        """Exit 0, or python-senlinclient 3.1's own defect under osc-lib
        >= 4 (see the guideline): its `policy create` reads the created
        policy back from the cloud and only then fails to print it,
        because it passes plain functions as column formatters. That exit
        says the cloud answered both requests; any other failure fails."""
        if not exit_accepts_create(result.returncode, result.stderr):
            result.check()

    def cli_policy_named(self, name):
        # --full-id: without it the client shortens ids with a plain
        # function, which osc-lib >= 4 refuses as it does in create
        for policy in self.cli.json('cluster', 'policy', 'list',
                                    '--full-id'):
            if policy['name'] == name:
                return policy
        return None

    def _delete_policies_named(self, name):
        for policy in self.clustering.list_policies():
            if policy['name'] == name:
                test_utils.call_and_ignore_notfound_exc(
                    self.clustering.delete_policy, policy['id'])

    def wait_for(self, cluster, kind):
        """attach and detach return once the action is queued."""
        actions = [a for a in outcomes.must_succeed(
            self, RULE, self.clustering.list_actions, cluster['id'])
            if a['action'] == kind]
        self.assertTrue(actions, '%s: no %s action on cluster %s' % (
            RULE, kind, cluster['id']))
        for action in actions:
            self.assert_succeeded(self.act(action['id'], kind), RULE)
