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

"""Seed 002, scenarios S1 and S2: which server group the policy binds."""

from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import decorators

from conformance_tests.api.clustering import base
from conformance_tests.common import outcomes

RULE_INHERIT = ('S1: a profile whose scheduler_hints name an existing group '
                'with matching policies: attach records servergroup_id of '
                'that group and inherited_group: True; detach leaves the '
                'group')
RULE_MISMATCH = ('S1: the group named by the profile has other rules than '
                 'the policy: attaching fails')
RULE_MISSING = ('S1: the group named by the profile does not exist: '
                'attaching fails')
RULE_CREATE = ('S2: no group hint: attach creates a nova server group with '
               'the policy\'s policies, inherited_group: False; detach '
               'deletes exactly that group')
RULE_CREATE_HINTED = ('S2: a profile with scheduler_hints but no group '
                      'value in them: attach creates a nova server group '
                      'with the policy\'s policies, inherited_group: '
                      'False; detach deletes it')


class AffinityGroupTest(base.AffinityPolicyTest):

    @decorators.idempotent_id('853c6a73-b09c-4110-b7f6-f7b7a539d000')
    def test_profile_group_inherited(self):
        group = self.server_group('anti-affinity')
        cluster = self.cluster(self.profile(
            scheduler_hints={'group': group['name']}))
        policy = self.policy(base.affinity_spec(
            servergroup={'policies': 'anti-affinity'}))
        data = self.attach(cluster, policy, RULE_INHERIT)
        self.assertEqual(group['id'], data.get('servergroup_id'),
                         '%s: binding data %s' % (RULE_INHERIT, data))
        self.assertIs(True, data.get('inherited_group'),
                      '%s: binding data %s' % (RULE_INHERIT, data))
        self.detach(cluster, policy, RULE_INHERIT)
        self.assertTrue(self.group_exists(group['id'], RULE_INHERIT),
                        '%s: detaching deleted the inherited group %s' % (
                            RULE_INHERIT, group['id']))

    @decorators.idempotent_id('f45ed545-918e-4e5e-a882-b06973b5fee7')
    @decorators.attr(type=['slow'])
    def test_profile_group_policy_mismatch(self):
        policy = self.policy(base.affinity_spec(
            servergroup={'policies': 'anti-affinity'}))
        self._assert_mismatch_refused(policy, 'anti-affinity (specified)')

    @decorators.idempotent_id('c9f96070-eed0-4993-b9da-46659ec29f11')
    @decorators.attr(type=['slow'])
    def test_profile_group_implied_policy_mismatch(self):
        # No 'policies' in the spec: the policy implies anti-affinity, its
        # schema's default ("specified (or implied)").
        policy = self.policy(base.affinity_spec())
        self._assert_mismatch_refused(policy, 'anti-affinity (implied)')

    def _assert_mismatch_refused(self, policy, policy_rules):
        """The control first: a profile naming an anti-affinity group
        attaches ``policy`` (which group it binds is s1-inherit's rule);
        then a profile naming an affinity group must make the attach
        fail."""
        matching = self.server_group('anti-affinity')
        self.attach(self.cluster(self.profile(
            scheduler_hints={'group': matching['name']})), policy,
            'control for %s (group %s, anti-affinity; policy %s)' % (
                RULE_MISMATCH, matching['id'], policy_rules))
        group = self.server_group('affinity')
        cluster = self.cluster(self.profile(
            scheduler_hints={'group': group['name']}))
        action = self.try_attach(cluster, policy)
        if action['status'] == 'SUCCEEDED':
            # which group it bound tells ignoring the profile's group
            # (a new one, not inherited) from accepting its rules
            self.fail('%s: attach SUCCEEDED with group %s (affinity) named '
                      'by the profile and an %s policy; binding data %s' % (
                          RULE_MISMATCH, group['id'], policy_rules,
                          self.binding_data(cluster, policy)))
        self.assertEqual('FAILED', action['status'], '%s: attach %s' % (
            RULE_MISMATCH, action['status']))
        self.assertIn("doesn't match", action['status_reason'] or '',
                      RULE_MISMATCH)

    @decorators.idempotent_id('7919b04f-1e9e-4348-83a4-62f8bc921186')
    @decorators.attr(type=['slow'])
    def test_profile_group_missing(self):
        missing = self.name('missing-group')
        cluster = self.cluster(self.profile(
            scheduler_hints={'group': missing}))
        policy = self.policy(base.affinity_spec())
        # A group of that name made by the attach (senlin 16 may) goes
        # after the detach, which may delete it itself.
        self.addCleanup(self._delete_groups_named, missing)
        self.assertEqual([], self.groups_named(missing),
                         'no group may be named %s before the attach' %
                         missing)
        # the control: the policy attaches where the profile names no group
        self.attach(self.cluster(self.profile()), policy,
                    'control for %s (a profile without scheduler_hints)' %
                    RULE_MISSING)
        action = self.try_attach(cluster, policy)
        if action['status'] == 'FAILED':
            # The error is the missing group's: it names the group, and
            # the attach made none of that name on its way to failing.
            self.assertIn(missing, action.get('status_reason') or '',
                          '%s: the attach failed, but its status_reason '
                          'does not name group %s: %s' % (
                              RULE_MISSING, missing,
                              action.get('status_reason')))
            self.assertEqual([], self.groups_named(missing),
                             '%s: the attach failed, but a group named %s '
                             'now exists' % (RULE_MISSING, missing))
            return
        # What the cloud did instead: the group it bound, and whether one
        # of the name the profile gives now exists.
        data = self.binding_data(cluster, policy)
        bound = data.get('servergroup_id')
        bound_name = bound and outcomes.must_succeed(
            self, RULE_MISSING, self.groups.show_server_group, bound)[
                'server_group']['name']
        self.fail(
            '%s: attaching with a profile naming the missing group %s '
            'ended %s; %d group(s) of that name exist; the binding holds '
            'group %s named %s (inherited_group %s)' % (
                RULE_MISSING, missing, action['status'],
                len(self.groups_named(missing)), bound, bound_name,
                data.get('inherited_group')))

    @decorators.idempotent_id('a63876fb-49c7-4f81-b702-a9711d71c400')
    @decorators.attr(type=['slow'])
    def test_group_created_and_deleted(self):
        cluster = self.cluster(self.profile())
        name = self.name('group')
        policy = self.policy(base.affinity_spec(
            servergroup={'name': name, 'policies': 'affinity'}))
        data = self.attach(cluster, policy, RULE_CREATE)
        group_id = data.get('servergroup_id')
        self.assertIs(False, data.get('inherited_group'),
                      '%s: binding data %s' % (RULE_CREATE, data))
        self.assertIsNotNone(group_id, '%s: binding data %s' % (
            RULE_CREATE, data))
        group = outcomes.must_succeed(
            self, RULE_CREATE, self.groups.show_server_group,
            group_id)['server_group']
        self.addCleanup(self._forget_group, group_id)
        self.assertEqual(['affinity'], group['policies'],
                         '%s: group %s' % (RULE_CREATE, group))
        self.assertEqual(name, group['name'], '%s: the group is named by '
                         'the policy\'s servergroup.name %s' % (
                             RULE_CREATE, name))
        version = base.affinity_version(outcomes.must_succeed(
            self, RULE_CREATE, self.clustering.show_binding, cluster['id'],
            policy['id']))
        self.assertEqual('1.0', str(version), '%s: the binding data carries '
                         "'version': 1.0" % RULE_CREATE)
        self.detach(cluster, policy, RULE_CREATE)
        self.assertFalse(self.group_exists(group_id, RULE_CREATE),
                         '%s: group %s is still there after detach' % (
                             RULE_CREATE, group_id))

    @decorators.idempotent_id('e2b9d4c1-7a35-4f0e-9c68-3d1f5a7b2e08')
    @decorators.attr(type=['slow'])
    def test_hinted_profile_without_group(self):
        # S2's second case: scheduler_hints, but no group key in them
        hints = {'different_host': [data_utils.rand_uuid()],
                 'conformance_hint': 'no group here'}
        cluster = self.cluster(self.profile(scheduler_hints=hints))
        policy = self.policy(base.affinity_spec(
            servergroup={'policies': 'soft-affinity'}))
        data = self.attach(cluster, policy, RULE_CREATE_HINTED)
        group_id = data.get('servergroup_id')
        self.assertIsNotNone(group_id, '%s: binding data %s' % (
            RULE_CREATE_HINTED, data))
        self.addCleanup(self._forget_group, group_id)
        self.assertIs(False, data.get('inherited_group'),
                      '%s: profile scheduler_hints %s; binding data %s' % (
                          RULE_CREATE_HINTED, hints, data))
        group = outcomes.must_succeed(
            self, RULE_CREATE_HINTED, self.groups.show_server_group,
            group_id)['server_group']
        self.assertEqual(['soft-affinity'], group['policies'],
                         '%s: group %s' % (RULE_CREATE_HINTED, group))
        self.detach(cluster, policy, RULE_CREATE_HINTED)
        self.assertFalse(self.group_exists(group_id, RULE_CREATE_HINTED),
                         '%s: profile scheduler_hints %s; group %s is still '
                         'there after detach' % (RULE_CREATE_HINTED, hints,
                                                 group_id))

    def groups_named(self, name):
        # Only RULE_MISSING asks which groups bear a name (and its
        # cleanup, where a refusal fails the test just the same).
        return [g['id'] for g in outcomes.must_succeed(
            self, RULE_MISSING, self.groups.list_server_groups)[
                'server_groups'] if g['name'] == name]

    def _delete_groups_named(self, name):
        for group_id in self.groups_named(name):
            self._forget_group(group_id)

    def _forget_group(self, group_id):
        test_utils.call_and_ignore_notfound_exc(
            self.groups.delete_server_group, group_id)
