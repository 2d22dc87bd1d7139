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

"""Senlin: clusters (with their nodes and servers), policies, profiles.

Everything seed 002 makes in senlin carries the run's prefix, so a
senlin object is the run's only by name. Order matters to senlin: a
cluster's policies are detached and the cluster deleted (senlin deletes
its nodes' servers) before the policies and profiles it used can go.
The server groups senlin made for a policy are named by the policy and
go with nova's server groups.
"""

from conformance_tests.cleanup import kinds


def _named(ctx, records):
    return [kinds.Item(r['id'], '%s (%s)' % (r['name'], r['id']), r)
            for r in records if ctx.names.made(r.get('name'))]


class Clusters(kinds.Kind):
    singular, plural = 'cluster', 'clusters'

    def find(self, ctx):
        return _named(ctx, ctx.clustering_client.list_clusters(
            global_project=True))

    def remove_one(self, ctx, item):
        # A stuck action holding the cluster is force-cancelled first
        # (senlin's own force cancel); a delete senlin's status check
        # refuses is forced.
        done, cancelled = ctx.clustering_client.delete_cluster_and_wait(
            item.id)
        if done['status'] != 'SUCCEEDED':
            raise RuntimeError('CLUSTER_DELETE %s: %s%s' % (
                done['status'], done.get('status_reason'),
                '; force-cancelled first: ' + '; '.join(cancelled)
                if cancelled else ''))


class Policies(kinds.Kind):
    singular, plural = 'clustering policy', 'clustering policies'

    def find(self, ctx):
        return _named(ctx, ctx.clustering_client.list_policies(
            global_project=True))

    def remove_one(self, ctx, item):
        ctx.clustering_client.delete_policy(item.id)


class Profiles(kinds.Kind):
    singular, plural = 'clustering profile', 'clustering profiles'

    def find(self, ctx):
        return _named(ctx, ctx.clustering_client.list_profiles(
            global_project=True))

    def remove_one(self, ctx, item):
        ctx.clustering_client.delete_profile(item.id)
