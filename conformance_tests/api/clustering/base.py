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

"""What the seed-002 tests share: senlin objects made and always removed.

Everything a test makes carries [conformance] resource_prefix (profiles,
policies, clusters, the servers' names through the profile, server
groups through the policy or the test) and its removal is registered
before it exists, so it goes away also when the test fails.

Cleanups run last registered first, and senlin refuses (409) to delete a
policy still attached to a cluster: so every attach, also one a test
expects to fail, registers its detach before it is asked for (``attach``,
``try_attach``), after the policy's and the cluster's removal, and the
detach runs first.
"""

from tempest.common import credentials_factory
from tempest import config
from tempest.lib.common import api_microversion_fixture
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import exceptions as lib_exc
from tempest import test

from conformance_tests.common import outcomes
from conformance_tests.common import skips
from conformance_tests.common import waiters
from conformance_tests.services.clustering.v1 import clustering_client

CONF = config.CONF
AFFINITY_TYPE = 'senlin.policy.affinity'
NOVA_SERVER_TYPE = 'os.nova.server'
# The group API's policies field the tests read (2.64 has `policy`).
COMPUTE_MICROVERSION = '2.15'


def affinity_data(binding):
    """The affinity policy's data in a cluster-policy binding."""
    return ((binding.get('data') or {}).get('AffinityPolicy') or {}).get(
        'data') or {}


def affinity_version(binding):
    """The version the affinity policy's binding data carries ('1.0' as
    senlin stores it; the seed writes 1.0)."""
    return ((binding.get('data') or {}).get('AffinityPolicy') or {}).get(
        'version')


def affinity_spec(**properties):
    properties.setdefault('servergroup', {})
    return {'type': AFFINITY_TYPE, 'version': '1.0',
            'properties': properties}


class AffinityPolicyTest(test.BaseTestCase):
    """A project user driving senlin; an admin reading nova's hosts.

    Without admin credentials (a vendor's member accounts) the class runs
    with the project user alone (``has_admin`` False, ``os_admin``,
    ``admin_clustering`` and ``admin_servers`` None): only the DRS
    extension needs admin by the seed ("retrieving hypervisor list is an
    admin-only API"), and its tests, marked @skips.admin_only(call), skip
    alone as not-applicable. The others read what a member sees: a
    server's zone, and its ``hostId`` for its host.
    """

    credentials = ['primary', 'admin']
    has_admin = True

    @classmethod
    def skip_checks(cls):
        # Before Tempest's own checks (admin credentials): on a cloud
        # without senlin, that is the reason to report.
        skips.require_service(cls, CONF, 'senlin', 'seed 002')
        cls.has_admin = credentials_factory.is_admin_available(
            identity_version=cls.get_identity_version())
        if not cls.has_admin:
            cls.credentials = ['primary']
        super().skip_checks()

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.clustering = (
            cls.os_primary.conformance_clustering_v1.ClusteringClient())
        cls.groups = cls.os_primary.server_groups_client
        cls.servers = cls.os_primary.servers_client
        if cls.has_admin:
            cls.admin_clustering = (
                cls.os_admin.conformance_clustering_v1.ClusteringClient())
            cls.admin_servers = cls.os_admin.servers_client
        else:
            cls.os_admin = cls.admin_clustering = cls.admin_servers = None

    def setUp(self):
        super().setUp()
        # A test marked @skips.admin_only(call), as a member: skipped
        # before it makes anything.
        reason = skips.admin_only_reason(self, self.has_admin)
        if reason:
            self.skipTest(reason)
        self.useFixture(api_microversion_fixture.APIMicroversionFixture(
            compute_microversion=COMPUTE_MICROVERSION))

    def name(self, what):
        return data_utils.rand_name(
            prefix=CONF.conformance.resource_prefix, name=what)

    # -- things made ------------------------------------------------------
    def profile(self, client=None, **properties):
        """A nova-server profile booting Tempest's image and flavor; its
        servers are named with the prefix."""
        client = client or self.clustering
        # networks: [] is "no port of senlin's making" (nova gives the
        # server its default network); senlin 16's profile validation
        # iterates the property and refuses it left out.
        props = {'flavor': CONF.compute.flavor_ref,
                 'image': CONF.compute.image_ref,
                 'name': self.name('node'),
                 'networks': []}
        props.update(properties)
        profile = outcomes.must_succeed(
            self, 'senlin stores a %s profile (properties %s)' % (
                NOVA_SERVER_TYPE, sorted(props)),
            client.create_profile, self.name('profile'), {
                'type': NOVA_SERVER_TYPE, 'version': '1.0',
                'properties': props})
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        client.delete_profile, profile['id'])
        return profile

    def policy(self, spec, client=None):
        """A policy senlin must accept: every spec the tests make is
        valid by the spec; a refusal is a failed assertion."""
        client = client or self.clustering
        policy = outcomes.must_succeed(
            self, 'senlin accepts a valid policy spec %s' % spec,
            client.create_policy, self.name('affinity'), spec)
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        client.delete_policy, policy['id'])
        return policy

    def cluster(self, profile, client=None, size=0):
        """A cluster of ``size`` nodes; deleted with its nodes (and their
        servers) at cleanup, after its policies are detached."""
        client = client or self.clustering
        cluster, action = outcomes.must_succeed(
            self, 'senlin accepts a cluster of %d nodes' % size,
            client.create_cluster, self.name('cluster'), profile['id'],
            desired_capacity=size)
        self.addCleanup(self._delete_cluster, client, cluster['id'])
        rule = 'senlin makes a cluster of %d nodes' % size
        self.assert_succeeded(self.act(action, 'CLUSTER_CREATE', client),
                              rule)
        return outcomes.must_succeed(self, rule, client.show_cluster,
                                     cluster['id'])

    def _delete_cluster(self, client, cluster_id):
        try:
            client.show_cluster(cluster_id)
        except lib_exc.NotFound:
            return
        # An action senlin left stuck is force-cancelled first (the
        # client's release_cluster): it holds the cluster's lock.
        done, cancelled = client.delete_cluster_and_wait(cluster_id)
        if done['status'] != 'SUCCEEDED':
            raise RuntimeError('deleting cluster %s at cleanup: %s %s%s' % (
                cluster_id, done['status'], done.get('status_reason'),
                '; force-cancelled first: ' + '; '.join(cancelled)
                if cancelled else ''))

    def server_group(self, policy):
        group = outcomes.must_succeed(
            self, 'nova makes the %s group a profile names' % policy,
            self.groups.create_server_group, name=self.name('group'),
            policies=[policy])['server_group']
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        self.groups.delete_server_group, group['id'])
        return group

    # -- actions and what they leave ---------------------------------------
    def act_on(self, rule, what, call, *args, client=None):
        """Ask senlin for an action, which it must accept (a refusal is
        ``rule``'s failed assertion with senlin's answer), and wait for it
        as act() does."""
        action_id = outcomes.must_succeed(
            self, '%s (senlin accepts the %s request)' % (rule, what), call,
            *args)
        return self.act(action_id, what, client)

    def act(self, action_id, what, client=None):
        """Wait for a senlin action; return it, whatever its end. One
        senlin left stuck is returned as it stands (WAITING), its
        status_reason saying why, for the rule's assertion to judge: the
        action did not end as the rule says, and its cluster's cleanup
        force-cancels it. A refused read of the action is a failed
        assertion: the rule is about how the action ends."""
        try:
            return outcomes.must_succeed(
                self, 'senlin reports how the %s action %s ends' % (
                    what, action_id),
                (client or self.clustering).wait_for_action, action_id,
                what)
        except clustering_client.ActionStuck as e:
            return dict(e.action, status_reason='stuck: %s' % e.detail)

    def assert_succeeded(self, action, rule):
        self.assertEqual('SUCCEEDED', action['status'],
                         '%s: %s %s: %s' % (rule, action.get('action'),
                                            action['status'],
                                            action.get('status_reason')))

    def attach(self, cluster, policy, rule, client=None):
        """Attach, which must succeed; return the binding data."""
        client = client or self.clustering
        action = self.try_attach(cluster, policy, client)
        self.assert_succeeded(action, rule)
        return self.binding_data(cluster, policy, client, rule)

    def try_attach(self, cluster, policy, client=None):
        """Ask for the attach and return its action, whatever its end.
        Whatever it binds is detached at cleanup, before the policy's own
        cleanup deletes it (LIFO): registered first, so it runs also when
        the test fails, or the wait for the action does."""
        client = client or self.clustering
        self.addCleanup(self._detach_if_bound, client, cluster['id'],
                        policy['id'])
        # The request itself is accepted whatever the policy says: its
        # verdict is the action's.
        return self.act_on('an attach request', 'POLICY_ATTACH',
                           client.attach_policy, cluster['id'],
                           policy['id'], client=client)

    def _detach_if_bound(self, client, cluster_id, policy_id):
        try:
            bound = [b['policy_id'] for b in client.list_bindings(cluster_id)]
        except lib_exc.NotFound:
            return
        if policy_id in bound:
            # A stuck action holds the cluster's lock: force-cancel it
            # first, or every detach is refused until build_timeout.
            cancelled = client.release_cluster(cluster_id)
            done = client.wait_for_action(client.detach_policy(
                cluster_id, policy_id), 'POLICY_DETACH')
            if done['status'] != 'SUCCEEDED':
                # Said here: the policy's deletion would only say 409.
                raise RuntimeError('detaching policy %s from cluster %s at '
                                   'cleanup: %s %s%s' % (
                                       policy_id, cluster_id, done['status'],
                                       done.get('status_reason'),
                                       '; force-cancelled first: ' +
                                       '; '.join(cancelled)
                                       if cancelled else ''))

    def detach(self, cluster, policy, rule, client=None):
        client = client or self.clustering
        action = self.act_on(rule, 'POLICY_DETACH', client.detach_policy,
                             cluster['id'], policy['id'], client=client)
        self.assert_succeeded(action, rule)

    def binding_data(self, cluster, policy, client=None,
                     rule='senlin shows the binding of an attached policy'):
        """The affinity policy's binding data for the cluster; a refused
        read is ``rule``'s failed assertion."""
        return affinity_data(outcomes.must_succeed(
            self, rule, (client or self.clustering).show_binding,
            cluster['id'], policy['id']))

    def group_exists(self, group_id, rule):
        """Whether nova still has the group; an answer other than the
        group or 404 is ``rule``'s failed assertion."""
        return not outcomes.must_succeed(
            self, rule, waiters.gone, self.groups.show_server_group,
            group_id)

    @property
    def server_reader(self):
        """The servers client that reads a node's server: the admin view
        with admin credentials, else the project user's (the servers are
        the cluster owner's)."""
        return self.admin_servers if self.has_admin else self.servers

    def node_servers(self, cluster, rule, client=None):
        """{node id: server record} of the cluster's nodes, read by
        server_reader after the actions ``rule`` says made them: an action
        that ended SUCCEEDED is judged by its outcome, so every node must
        be ACTIVE with a server that is ACTIVE (senlin waits for its
        server's ACTIVE before it records a node ACTIVE). A refused read is
        ``rule``'s failed assertion too."""
        client = client or self.clustering
        servers = {}
        for node in outcomes.must_succeed(
                self, '%s (the cluster\'s nodes)' % rule, client.list_nodes,
                cluster['id']):
            self.assertTrue(
                node['status'] == 'ACTIVE' and node.get('physical_id'),
                '%s: node %s is %s with server %s, not ACTIVE with one '
                '(status_reason: %s)' % (rule, node['id'], node['status'],
                                         node.get('physical_id'),
                                         node.get('status_reason')))
            server = outcomes.must_succeed(
                self, '%s (node %s\'s server)' % (rule, node['id']),
                self.server_reader.show_server, node['physical_id'])['server']
            self.assertEqual('ACTIVE', server['status'],
                             '%s: node %s is ACTIVE but its server %s is %s'
                             % (rule, node['id'], server['id'],
                                server['status']))
            servers[node['id']] = server
        return servers

    def servers_in_group(self, cluster, group_id, count, rule, client=None):
        """{node id: server} of the cluster after the actions ``rule``
        says made its nodes: exactly ``count`` nodes, each ACTIVE with an
        ACTIVE server (node_servers), and every server a member of group
        ``group_id``, the group the policy placed them in. An action's
        SUCCEEDED and its data are the policy's word; this is what it
        did."""
        servers = self.node_servers(cluster, rule, client)
        self.assertEqual(count, len(servers), '%s: the cluster has %d '
                         'node(s) with a server, expected %d: %s' % (
                             rule, len(servers), count, sorted(servers)))
        members = outcomes.must_succeed(
            self, '%s (group %s is shown)' % (rule, group_id),
            self.groups.show_server_group,
            group_id)['server_group']['members']
        for node, server in sorted(servers.items()):
            self.assertIn(server['id'], members, '%s: node %s\'s server %s '
                          'is not a member of group %s (members: %s)' % (
                              rule, node, server['id'], group_id, members))
        return servers

    def host_of(self, server):
        """The server's host as this account can tell hosts apart: its
        name (admin), else its ``hostId`` (a hash of host and project:
        one project's servers share it exactly when they share a host)."""
        if self.has_admin:
            return server['OS-EXT-SRV-ATTR:host']
        return server['hostId']
