"""cleanup/clustering.py over a fake senlin: the run's clusters (policies
detached first), policies and profiles go, in that order; foreign ones
stay."""

import testtools

from conformance_tests.services.clustering.v1 import cleanup as clustering
from conformance_tests.cleanup import context
from conformance_tests.cleanup import names
from conformance_tests.cleanup import plan

OURS = 'conformance-cluster-123'
THEIRS = 'production-web'


class FakeSenlin(object):
    def __init__(self):
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

    def delete_cluster(self, cluster_id):
        assert not self.clusters[cluster_id]['policies'], 'detach first'
        del self.clusters[cluster_id]
        return self._action('delete-cluster', cluster_id)

    def wait_for_action(self, action_id, what=''):
        return {'status': 'SUCCEEDED'}

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

    def test_senlin_first_in_the_plan(self):
        from conformance_tests.services.compute.v2 import cleanup as compute
        kinds = [type(step.kind) for step in plan.order()]
        self.assertLess(kinds.index(clustering.Clusters),
                        kinds.index(compute.Servers))
