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

"""cleanup/clustering.py over a fake senlin: the run's clusters (policies
detached first), policies and profiles go, in that order; foreign ones
stay."""

from tempest.lib import exceptions as lib_exc
import testtools

from conformance_tests.cleanup import context
from conformance_tests.cleanup import names
from conformance_tests.cleanup import plan
from conformance_tests.services.clustering.v1 import cleanup as clustering
from conformance_tests.services.clustering.v1 import clustering_client

OURS = 'conformance-cluster-123'
THEIRS = 'production-web'


class FakeSenlin(object):
    # The client's own release-detach-delete sequence, over this fake.
    release_cluster = clustering_client.ClusteringClient.release_cluster
    delete_cluster_and_wait = (
        clustering_client.ClusteringClient.delete_cluster_and_wait)

    def __init__(self):
        self.stuck = set()
        self.unfinished = {}     # cluster id: [actions on it]
        self.log = []
        self.clusters = {'c1': {'id': 'c1', 'name': OURS,
                                'policies': ['p1']},
                         'c2': {'id': 'c2', 'name': THEIRS,
                                'policies': ['p2']}}
        self.policies = {'p1': {'id': 'p1', 'name': 'conformance-aff-1'},
                         'p2': {'id': 'p2', 'name': 'theirs'}}
        self.profiles = {'f1': {'id': 'f1', 'name': 'conformance-prof-7'},
                         'f2': {'id': 'f2', 'name': 'golden'}}
        self.actions = {}

    def _listed(self, table, global_project):
        assert global_project, 'every project\'s, as the admin'
        return list(table.values())

    def list_clusters(self, global_project=False):
        return self._listed(self.clusters, global_project)

    def list_policies(self, global_project=False):
        return self._listed(self.policies, global_project)

    def list_profiles(self, global_project=False):
        return self._listed(self.profiles, global_project)

    def _action(self, what, ident):
        self.log.append((what, ident))
        self.actions[ident] = what
        return ident

    def list_bindings(self, cluster_id):
        return [{'policy_id': p}
                for p in self.clusters[cluster_id]['policies']]

    def detach_policy(self, cluster_id, policy_id):
        self.clusters[cluster_id]['policies'].remove(policy_id)
        return self._action('detach', policy_id)

    def delete_cluster(self, cluster_id, force=False):
        assert not self.clusters[cluster_id]['policies'], 'detach first'
        if self.clusters[cluster_id].get('refuses') and not force:
            raise lib_exc.Conflict(resp_body={
                'error': 'cluster in status UPDATING'})
        del self.clusters[cluster_id]
        return self._action('force-delete-cluster' if force else
                            'delete-cluster', cluster_id)

    def list_actions(self, target):
        return self.unfinished.get(target, [])

    def wait_for_action(self, action_id, what=''):
        if action_id == 'stuck-1':
            self.stuck.add(action_id)
            raise clustering_client.ActionStuck(
                {'id': action_id, 'status': 'WAITING'},
                'CLUSTER_SCALE_OUT stuck-1 still WAITING 45 s')
        return {'status': 'SUCCEEDED'}

    def force_cancel_action(self, action_id):
        self.log.append(('force-cancel', action_id))
        for actions in self.unfinished.values():
            for action in actions:
                if action['id'] == action_id:
                    action['status'] = 'CANCELLED'

    def delete_policy(self, ident):
        assert not any(ident in c['policies']
                       for c in self.clusters.values()), 'in use'
        del self.policies[ident]
        self.log.append(('delete-policy', ident))

    def delete_profile(self, ident):
        del self.profiles[ident]
        self.log.append(('delete-profile', ident))


class ClusteringCleanupTest(testtools.TestCase):

    def _run(self, senlin):
        ctx = context.Context(names.RunNames('conformance', ()),
                              clustering_client=senlin)
        steps = [step for step in plan.order()
                 if isinstance(step.kind, (clustering.Clusters,
                                           clustering.Policies,
                                           clustering.Profiles))]
        lines = []
        errors = plan.run(ctx, say=lines.append, steps=steps)
        return errors, lines

    def test_removes_only_the_runs_in_order(self):
        senlin = FakeSenlin()
        errors, lines = self._run(senlin)
        self.assertEqual([], errors)
        self.assertEqual([('detach', 'p1'), ('delete-cluster', 'c1'),
                          ('delete-policy', 'p1'),
                          ('delete-profile', 'f1')], senlin.log)
        self.assertEqual(['c2'], list(senlin.clusters))
        self.assertEqual(['p2'], list(senlin.policies))
        self.assertEqual(['f2'], list(senlin.profiles))
        self.assertIn('1 cluster', lines[-1])

    def test_failed_delete_is_one_line_error(self):
        senlin = FakeSenlin()
        senlin.wait_for_action = lambda a, w='': {
            'status': 'FAILED', 'status_reason': 'node busy'}
        errors, _ = self._run(senlin)
        self.assertTrue(any('node busy' in e and OURS in e
                            for e in errors), errors)

    def test_a_stuck_action_is_force_cancelled_before_the_delete(self):
        # Issue 46: Debian's senlin 14 left a scale-out WAITING for ever,
        # its cluster locked; the cleanup could not remove it.
        senlin = FakeSenlin()
        senlin.unfinished['c1'] = [
            {'id': 'stuck-1', 'action': 'CLUSTER_SCALE_OUT',
             'status': 'WAITING'},
            {'id': 'done-1', 'action': 'CLUSTER_CREATE',
             'status': 'SUCCEEDED'}]
        errors, _ = self._run(senlin)
        self.assertEqual([], errors)
        self.assertEqual([('force-cancel', 'stuck-1'), ('detach', 'p1'),
                          ('delete-cluster', 'c1')], senlin.log[:3])

    def test_a_delete_the_status_refuses_is_forced(self):
        senlin = FakeSenlin()
        senlin.clusters['c1']['refuses'] = True
        errors, _ = self._run(senlin)
        self.assertEqual([], errors)
        self.assertIn(('force-delete-cluster', 'c1'), senlin.log)
        self.assertNotIn('c1', senlin.clusters)

    def test_what_was_cancelled_is_said_when_the_delete_fails(self):
        senlin = FakeSenlin()
        senlin.unfinished['c1'] = [{'id': 'stuck-1',
                                    'action': 'CLUSTER_SCALE_OUT',
                                    'status': 'WAITING'}]
        real_wait = senlin.wait_for_action

        def wait(action_id, what=''):
            if what == 'CLUSTER_DELETE':
                return {'status': 'FAILED', 'status_reason': 'node busy'}
            return real_wait(action_id, what)
        senlin.wait_for_action = wait
        errors, _ = self._run(senlin)
        self.assertEqual(1, len(errors), errors)
        self.assertIn('node busy', errors[0])
        self.assertIn('force-cancelled first: CLUSTER_SCALE_OUT stuck-1 '
                      '(CLUSTER_SCALE_OUT stuck-1 still WAITING 45 s)',
                      errors[0])

    def test_senlin_first_in_the_plan(self):
        from conformance_tests.services.compute.v2 import cleanup as compute
        kinds = [type(step.kind) for step in plan.order()]
        self.assertLess(kinds.index(clustering.Clusters),
                        kinds.index(compute.Servers))
