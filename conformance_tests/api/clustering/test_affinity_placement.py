"""Seed 002: the placement data the policy writes, and where nodes land."""

import testtools

from tempest.lib import decorators

from conformance_tests.api.clustering import base
from conformance_tests.services.compute.v2 import zones

CONF = base.CONF

RULE_PLACEMENT = ('before CLUSTER_SCALE_OUT (count N), a growing '
                  'CLUSTER_RESIZE and NODE_CREATE the action data carries '
                  'placement: {count: N, placements: [{servergroup: ID}] x N}')
RULE_SHRINK = ('a CLUSTER_RESIZE that removes nodes is not blocked and '
               'carries no placement')
RULE_MEMBERS = ('the nodes\' servers are members of the group and, '
                'anti-affinity, on distinct hosts; a node more than hosts '
                'fails')
RULE_ZONE = ('availability_zone set: every placement carries that zone and '
             'the servers land in it')
RULE_DRS = ('DRS extension: every placement\'s zone is "<availability_zone '
            'or nova>:<host of the first hypervisor whose hostname contains '
            'drs>" and the servers land there')


def placement_of(action):
    return (action.get('data') or {}).get('placement')


# Alone (Tempest's lock): test_anti_affinity_members_in_zone counts the
# zone's hosts and then needs the node past them to fail. With seed 000's
# and 001's zone scenarios booting beside it, that node was once seen to
# succeed on the vendor-like cloud (1 of 5 such runs; 0 of 3 alone); until
# the cause is found its verdict must not depend on what runs beside it.
@decorators.serial
class AffinityPlacementTest(base.AffinityPolicyTest):

    def assert_placement(self, action, count, group_id, zone=None,
                         rule=RULE_PLACEMENT):
        entry = {'servergroup': group_id}
        if zone:
            entry['zone'] = zone
        self.assertEqual({'count': count, 'placements': [entry] * count},
                         placement_of(action), '%s: %s data %s' % (
                             rule, action.get('action'), action.get('data')))

    @decorators.idempotent_id('5384a3bb-c538-4f3f-b44f-49a110bf701f')
    @decorators.attr(type=['slow'])
    def test_placement_data(self):
        cluster = self.cluster(self.profile())
        policy = self.policy(base.affinity_spec(servergroup={
            'name': self.name('group'), 'policies': 'soft-anti-affinity'}))
        group_id = self.attach(cluster, policy,
                               RULE_PLACEMENT)['servergroup_id']

        scale = self.act(self.clustering.scale_out(cluster['id'], 2),
                         'CLUSTER_SCALE_OUT')
        self.assert_succeeded(scale, RULE_PLACEMENT)
        self.assert_placement(scale, 2, group_id)

        grow = self.act(self.clustering.resize(cluster['id'], 3),
                        'CLUSTER_RESIZE')
        self.assert_succeeded(grow, RULE_PLACEMENT)
        self.assert_placement(grow, 1, group_id)

        node, action = self.clustering.create_node(
            self.name('node'), cluster['profile_id'], cluster['id'])
        create = self.act(action, 'NODE_CREATE')
        self.assert_succeeded(create, RULE_PLACEMENT)
        self.assert_placement(create, 1, group_id)

        shrink = self.act(self.clustering.resize(cluster['id'], 1),
                          'CLUSTER_RESIZE')
        self.assert_succeeded(shrink, RULE_SHRINK)
        self.assertIsNone(placement_of(shrink), '%s: data %s' % (
            RULE_SHRINK, shrink.get('data')))

    @decorators.idempotent_id('88a46be6-8172-410d-b6ee-048e1770fb23')
    @decorators.attr(type=['slow'])
    @testtools.skipUnless(CONF.conformance.anti_affinity_zone,
                          'set [conformance] anti_affinity_zone to a zone '
                          'whose hosts the affinity scenarios may fill')
    def test_anti_affinity_members_in_zone(self):
        zone = CONF.conformance.anti_affinity_zone
        hosts = self.zone_hosts(zone)
        self.assertTrue(hosts, 'zone %s has no available compute' % zone)
        cluster = self.cluster(self.profile())
        policy = self.policy(base.affinity_spec(
            servergroup={'name': self.name('group')},
            availability_zone=zone))
        group_id = self.attach(cluster, policy,
                               RULE_MEMBERS)['servergroup_id']

        # One node at a time: nova settles concurrent anti-affinity boots
        # by rescheduling within a cell, which is nova's business, not
        # the policy's; one by one every node must find a free host.
        for _ in hosts:
            scale = self.act(self.clustering.scale_out(cluster['id'], 1),
                             'CLUSTER_SCALE_OUT')
            self.assert_succeeded(scale, RULE_MEMBERS)
            self.assert_placement(scale, 1, group_id, zone, RULE_ZONE)
        servers = self.node_servers(cluster)
        self.assertEqual(len(hosts), len(servers), RULE_MEMBERS)
        members = self.groups.show_server_group(group_id)['server_group'][
            'members']
        placed = {}
        for server in servers.values():
            self.assertIn(server['id'], members, '%s: server %s is not in '
                          'group %s' % (RULE_MEMBERS, server['id'], group_id))
            self.assertEqual(zone, server['OS-EXT-AZ:availability_zone'],
                             '%s: server %s' % (RULE_ZONE, server['id']))
            placed.setdefault(server['OS-EXT-SRV-ATTR:host'], []).append(
                server['id'])
        self.assertEqual(sorted(hosts), sorted(placed), '%s: servers by '
                         'host %s' % (RULE_MEMBERS, placed))

        extra = self.act(self.clustering.scale_out(cluster['id'], 1),
                         'CLUSTER_SCALE_OUT')
        where = {}
        if extra['status'] != 'FAILED':
            # Where the nodes' servers went tells a zone escape from a
            # shared host.
            where = {s['id']: (s['OS-EXT-SRV-ATTR:host'],
                               s['OS-EXT-AZ:availability_zone'])
                     for s in self.node_servers(cluster).values()}
        self.assertEqual('FAILED', extra['status'], '%s: node %d of %d '
                         'hosts: %s; servers (host, zone): %s' % (
                             RULE_MEMBERS, len(hosts) + 1, len(hosts),
                             extra['status'], where))

    @decorators.idempotent_id('cd4e4c6a-d608-4dc4-9f3f-3beddbab3e32')
    @decorators.attr(type=['slow'])
    @testtools.skipUnless(CONF.conformance.senlin_drs_hypervisor,
                          'set [conformance] senlin_drs_hypervisor to the '
                          'hypervisor hostname (containing "drs") senlin '
                          'must pick')
    def test_drs_zone(self):
        admin = self.admin_clustering
        hypervisor = CONF.conformance.senlin_drs_hypervisor
        cluster = self.cluster(self.profile(client=admin), client=admin)
        policy = self.policy(base.affinity_spec(
            servergroup={'name': self.name('group'),
                         'policies': 'soft-anti-affinity'},
            enable_drs_extension=True), client=admin)
        group_id = self.attach(cluster, policy, RULE_DRS,
                               client=admin)['servergroup_id']
        host = self.drs_host(hypervisor)
        scale = self.act(admin.scale_out(cluster['id'], 2),
                         'CLUSTER_SCALE_OUT', admin)
        # The policy's own words on a failed check are in the action's
        # status_reason and data (GET /v1/actions/{id}).
        self.assertEqual('SUCCEEDED', scale['status'], '%s: scale-out by 2 '
                         'with hypervisor %s: CLUSTER_SCALE_OUT %s, '
                         'status_reason: %s; data %s (action %s)' % (
                             RULE_DRS, hypervisor, scale['status'],
                             scale.get('status_reason'), scale.get('data'),
                             scale.get('id')))
        self.assert_placement(scale, 2, group_id, 'nova:%s' % host,
                              RULE_DRS)
        servers = self.node_servers(cluster, admin)
        self.assertEqual(2, len(servers), '%s: a scale-out by 2 left the '
                         'cluster the servers %s' % (RULE_DRS, servers))
        for server in servers.values():
            self.assertEqual(host, server['OS-EXT-SRV-ATTR:host'],
                             '%s: server %s' % (RULE_DRS, server['id']))

    def drs_host(self, hostname):
        hypervisors = self.os_admin.hypervisor_client.list_hypervisors(
            detail=True)['hypervisors']
        for hv in hypervisors:
            if hv['hypervisor_hostname'] == hostname:
                return hv['service']['host']
        self.fail('[conformance] senlin_drs_hypervisor %s: no such '
                  'hypervisor' % hostname)

    def zone_hosts(self, zone):
        return zones.available_hosts(
            self.os_admin.availability_zone_client, zone)
