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

"""api/clustering/base.py: an attach's detach is registered before the
attach is asked for, so a policy bound by an attach the test expected to
fail (seed 002's S1 tests on senlin 16) is detached before the policy's
own deletion, which senlin refuses (409) while it is attached. Fake
senlin; no cloud."""

from tempest.lib import exceptions as lib_exc
import testtools

from conformance_tests.api.clustering import base
from conformance_tests.api.clustering import test_affinity_groups


class _Senlin(object):
    """Bindings, policies and actions; attach ends ``attach_status``."""

    def __init__(self, log, attach_status='SUCCEEDED', detach_status=None):
        self.log, self.bound, self.policies = log, set(), {'p1'}
        self.attach_status = attach_status
        self.detach_status = detach_status or 'SUCCEEDED'
        self.actions = {}

    def attach_policy(self, cluster_id, policy_id):
        self.log.append(('attach', policy_id))
        if self.attach_status == 'SUCCEEDED':
            self.bound.add(policy_id)
        self.actions['a1'] = self.attach_status
        return 'a1'

    def detach_policy(self, cluster_id, policy_id):
        self.log.append(('detach', policy_id))
        if self.detach_status == 'SUCCEEDED':
            self.bound.discard(policy_id)
        self.actions['d1'] = self.detach_status
        return 'd1'

    def wait_for_action(self, action_id, what=''):
        return {'status': self.actions[action_id], 'action': what}

    def list_bindings(self, cluster_id):
        return [{'policy_id': p} for p in sorted(self.bound)]

    def release_cluster(self, cluster_id):
        # no action of this fake is ever stuck
        return []

    def delete_policy(self, policy_id):
        self.log.append(('delete', policy_id))
        if policy_id in self.bound:
            raise lib_exc.Conflict('policy is still attached')
        self.policies.discard(policy_id)


class _Test(object):
    def __init__(self, senlin):
        self.clustering, self.cleanups = senlin, []

    def addCleanup(self, function, *args):
        self.cleanups.append((function, args))

    def fail(self, message):
        raise AssertionError(message)

    # the real helpers, on this fake test
    act = base.AffinityPolicyTest.act
    act_on = base.AffinityPolicyTest.act_on
    _detach_if_bound = base.AffinityPolicyTest._detach_if_bound

    def run_cleanups(self):
        while self.cleanups:
            function, args = self.cleanups.pop()
            function(*args)


class TryAttachTest(testtools.TestCase):

    def attach_then_clean(self, senlin):
        test = _Test(senlin)
        # what base.policy registers, before any attach
        test.addCleanup(senlin.delete_policy, 'p1')
        action = base.AffinityPolicyTest.try_attach(
            test, {'id': 'c1'}, {'id': 'p1'})
        return test, action

    def test_an_unexpected_attach_is_detached_before_the_policy_goes(self):
        log = []
        senlin = _Senlin(log)
        test, action = self.attach_then_clean(senlin)
        self.assertEqual('SUCCEEDED', action['status'])
        test.run_cleanups()
        self.assertEqual([('attach', 'p1'), ('detach', 'p1'),
                          ('delete', 'p1')], log)
        self.assertEqual(set(), senlin.policies)

    def test_the_detach_is_registered_before_the_attach_is_asked(self):
        log = []

        class Failing(_Senlin):
            def wait_for_action(self, action_id, what=''):
                raise RuntimeError('the wait timed out')
        senlin = Failing(log)
        test = _Test(senlin)
        test.addCleanup(senlin.delete_policy, 'p1')
        self.assertRaises(RuntimeError, base.AffinityPolicyTest.try_attach,
                          test, {'id': 'c1'}, {'id': 'p1'})
        self.assertEqual(2, len(test.cleanups))
        self.assertEqual('_detach_if_bound', test.cleanups[-1][0].__name__)

    def test_a_failed_attach_leaves_nothing_to_detach(self):
        log = []
        senlin = _Senlin(log, attach_status='FAILED')
        test, action = self.attach_then_clean(senlin)
        test.run_cleanups()
        self.assertEqual([('attach', 'p1'), ('delete', 'p1')], log)
        self.assertEqual(set(), senlin.policies)

    def test_a_failed_detach_is_said_at_cleanup(self):
        senlin = _Senlin([], detach_status='FAILED')
        test, _ = self.attach_then_clean(senlin)
        function, args = test.cleanups.pop()
        e = self.assertRaises(RuntimeError, function, *args)
        self.assertIn('detaching policy p1 from cluster c1', str(e))


class GroupsNamedTest(testtools.TestCase):

    def test_only_groups_of_that_name_go(self):
        deleted = []

        class Groups(object):
            def list_server_groups(self):
                return {'server_groups': [{'id': 'g1', 'name': 'x'},
                                          {'id': 'g2', 'name': 'y'}]}

            def delete_server_group(self, group_id):
                deleted.append(group_id)

        test = type('T', (), {})()
        test.groups = Groups()
        test._forget_group = lambda group_id: (
            test_affinity_groups.AffinityGroupTest._forget_group(
                test, group_id))
        test.groups_named = lambda name: (
            test_affinity_groups.AffinityGroupTest.groups_named(test, name))
        test_affinity_groups.AffinityGroupTest._delete_groups_named(test, 'x')
        self.assertEqual(['g1'], deleted)
