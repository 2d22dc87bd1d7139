"""Seed 001: quota usage counted from placement and the API database.

With [quota] count_usage_from_placement = True, nova counts instances from
its API database (instance mappings) and cores and RAM from placement's
/usages, so the counts agree with placement, an unscheduled server counts
as an instance but holds no cores or RAM, and a cell outage cannot make
usage disappear. [conformance] quota_usage_from_placement says which mode
the cloud claims; tests of what only the placement mode promises skip
when it claims the legacy mode, and the cell-outage test runs in both
(in the legacy mode it is expected to fail: that is the spec's point).
"""

from tempest.common import credentials_factory
from tempest import config
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from conformance_tests.common import faults
from conformance_tests.scenario import base

CONF = config.CONF
MICROVERSION = '2.69'
QUOTA_EXCEEDED = 'Quota exceeded for instances'
PLACEMENT_MODE_ONLY = (
    'the cloud claims legacy quota counting ([conformance] '
    'quota_usage_from_placement = false); this seed-001 rule holds only '
    'with [quota] count_usage_from_placement = True')


class QuotaTestBase(base.ComputeScenarioTest):
    min_microversion = MICROVERSION
    max_microversion = MICROVERSION

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.quotas = cls.os_admin.quotas_client
        cls.placement = cls.os_admin.conformance_placement_v1.UsagesClient()

    @classmethod
    def resource_setup(cls):
        super().resource_setup()
        cls.project_id = cls.os_primary.credentials.project_id
        cls.user_a = cls.os_primary.credentials.user_id

    def set_project_quota(self, **limits):
        self.quotas.update_quota_set(self.project_id, force=True, **limits)
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        self.quotas.delete_quota_set, self.project_id)

    def quota_detail(self, user_id=None):
        url = '/os-quota-sets/%s/detail' % self.project_id
        if user_id:
            url += '?user_id=%s' % user_id
        return self.admin_raw.get(url, MICROVERSION)['quota_set']

    def limits_used(self):
        absolute = self.raw.get('/limits', MICROVERSION)['limits'][
            'absolute']
        return {'instances': absolute['totalInstancesUsed'],
                'cores': absolute['totalCoresUsed'],
                'ram': absolute['totalRAMUsed']}

    def assert_boot_refused(self, rule, **boot_args):
        try:
            server_id = self.boot(**boot_args)
        except lib_exc.Forbidden as e:
            self.assertIn(QUOTA_EXCEEDED, str(e), '%s: the 403 must carry '
                          'the quota message' % rule)
            return
        self.fail('%s: the boot was accepted (server %s)' % (rule, server_id))


class QuotaUsageTest(QuotaTestBase):
    """Two users of one project, servers of different flavors."""

    @classmethod
    def resource_setup(cls):
        super().resource_setup()
        cls.os_user_b, cls.user_b = cls._second_user()
        cls.big_flavor = cls._unschedulable_flavor()

    @classmethod
    def _second_user(cls):
        creds = cls.os_primary.credentials
        users = cls.os_admin.users_v3_client
        roles = cls.os_admin.roles_v3_client
        name = data_utils.rand_name(
            prefix=CONF.conformance.resource_prefix, name='user-b')
        password = data_utils.rand_password()
        user = users.create_user(
            name=name, password=password, project_id=creds.project_id,
            domain_id=creds.user_domain_id)['user']
        cls.addClassResourceCleanup(test_utils.call_and_ignore_notfound_exc,
                                    users.delete_user, user['id'])
        member = roles.list_roles(name='member')['roles'][0]
        roles.create_user_role_on_project(creds.project_id, user['id'],
                                          member['id'])
        # Tempest's helpers, so its TLS settings apply to this user too.
        b_creds = credentials_factory.get_credentials(
            fill_in=True, identity_version='v3',
            username=name, password=password, project_id=creds.project_id,
            user_domain_id=creds.user_domain_id,
            project_domain_id=creds.project_domain_id)
        return cls.client_manager(credentials=b_creds), user['id']

    @classmethod
    def _unschedulable_flavor(cls):
        """A flavor no host can hold: its server fails to schedule."""
        flavors = cls.os_admin.flavors_client
        flavor = flavors.create_flavor(
            name=data_utils.rand_name(
                prefix=CONF.conformance.resource_prefix, name='huge'),
            ram=10 ** 7, vcpus=1, disk=1)['flavor']
        cls.addClassResourceCleanup(test_utils.call_and_ignore_notfound_exc,
                                    flavors.delete_flavor, flavor['id'])
        return flavor

    def setUp(self):
        super().setUp()
        # Unlimited cores and RAM so the unschedulable flavor passes the
        # quota check and fails in the scheduler, as the rule needs.
        self.set_project_quota(instances=10, cores=-1, ram=-1)
        b_servers = self.os_user_b.servers_client
        self.servers_by_user = {self.user_a: [], self.user_b: []}
        # All four boots are asked for before any is waited for: usage
        # counts servers whatever order they settle in, so the rule needs
        # no serialising, and the boots overlap in the cloud.
        booted = [(user, flavor, self.boot(servers_client=client,
                                           flavor=flavor))
                  for user, client, flavor in (
                      (self.user_a, self.servers, CONF.compute.flavor_ref),
                      (self.user_a, self.servers,
                       CONF.compute.flavor_ref_alt),
                      (self.user_a, self.servers, self.big_flavor['id']),
                      (self.user_b, b_servers, CONF.compute.flavor_ref))]
        for user, flavor, server_id in booted:
            self.servers_by_user[user].append(
                (self.settle(server_id), flavor))

    def _expected(self, user_id=None):
        """Usage the rule predicts, from the servers and their flavors."""
        users = [user_id] if user_id else list(self.servers_by_user)
        booted = [b for u in users for b in self.servers_by_user[u]]
        cores = ram = 0
        for server, flavor_id in booted:
            if server['status'] != 'ACTIVE':
                continue  # unscheduled: no allocation in placement
            flavor = self.os_admin.flavors_client.show_flavor(
                flavor_id)['flavor']
            cores += flavor['vcpus']
            ram += flavor['ram']
        return {'instances': len(booted), 'cores': cores, 'ram': ram}

    @decorators.idempotent_id('4a6c8e0b-2d3f-4b5a-9c7e-8f9a0b1c2d37')
    @decorators.attr(type=['slow'])
    def test_quota_usage_equals_placement_usage(self):
        """os-quota-sets detail, /limits and placement /usages agree, for
        the project and for each user."""
        if not CONF.conformance.quota_usage_from_placement:
            self.skipTest(PLACEMENT_MODE_ONLY)
        rule = ('quota usage is counted from placement and the API '
                'database: in_use equals placement /usages (cores=VCPU, '
                'ram=MEMORY_MB) and the instance count')
        for scope, user in (('project', None), ('user A', self.user_a),
                            ('user B', self.user_b)):
            detail = self.quota_detail(user)
            in_use = {k: detail[k]['in_use']
                      for k in ('instances', 'cores', 'ram')}
            usages = self.placement.usages(self.project_id, user)
            from_placement = {'cores': usages.get('VCPU', 0),
                              'ram': usages.get('MEMORY_MB', 0)}
            self.assertEqual(
                from_placement, {k: in_use[k] for k in ('cores', 'ram')},
                '%s (%s): quota in_use vs placement /usages' % (rule, scope))
            self.assertEqual(self._expected(user), in_use,
                             '%s (%s): in_use vs the servers booted' % (
                                 rule, scope))
            if user is None:
                self.assertEqual(in_use, self.limits_used(),
                                 '%s: GET /limits totals vs os-quota-sets '
                                 'detail' % rule)

    @decorators.idempotent_id('7c9e1a3b-5d4f-4e6a-8b0c-9a0b1c2d3e48')
    @decorators.attr(type=['slow'])
    def test_unscheduled_server_counts_instances_not_cores_or_ram(self):
        """A server that never got a host counts as an instance and holds
        no cores or RAM."""
        if not CONF.conformance.quota_usage_from_placement:
            self.skipTest(PLACEMENT_MODE_ONLY)
        rule = ('an unscheduled ERROR server counts toward instances but '
                'not toward cores or RAM (it has no placement allocation)')
        unscheduled = [s for s, _ in self.servers_by_user[self.user_a]
                       if s['status'] == 'ERROR']
        self.assertEqual(1, len(unscheduled), '%s: the server of flavor '
                         '%s must fail to schedule' % (
                             rule, self.big_flavor['name']))
        detail = self.quota_detail()
        expected = self._expected()
        self.assertEqual(expected['instances'],
                         detail['instances']['in_use'],
                         '%s: instances in_use' % rule)
        self.assertEqual((expected['cores'], expected['ram']),
                         (detail['cores']['in_use'], detail['ram']['in_use']),
                         '%s: cores/ram in_use must leave out the %d MB of '
                         'the unscheduled server' % (
                             rule, self.big_flavor['ram']))

    @decorators.idempotent_id('0e2a4c6d-8f1b-4c3d-a5e7-0b1c2d3e4f59')
    @decorators.attr(type=['slow'])
    def test_per_user_instance_limit_spares_other_users(self):
        """A per-user instance limit stops that user only."""
        rule = ('a per-user instance limit is enforced for that user, and '
                'another user of the same project is unaffected')
        a_count = len(self.servers_by_user[self.user_a])
        self.quotas.update_quota_set(self.project_id, user_id=self.user_a,
                                     force=True, instances=a_count)
        self.addCleanup(self.admin_raw.call, 'DELETE',
                        '/os-quota-sets/%s?user_id=%s' % (
                            self.project_id, self.user_a), MICROVERSION)
        self.assert_boot_refused('%s (user A at its limit of %d)' % (
            rule, a_count))
        b_server = self.settle(self.boot(
            servers_client=self.os_user_b.servers_client))
        self.assertEqual('ACTIVE', b_server['status'],
                         '%s: user B boots while user A is at its limit' %
                         rule)


@decorators.serial
class QuotaCellOutageTest(QuotaTestBase):
    """Disruptive: takes [conformance] cell_down_name down, always back.

    @serial: no other test class runs while the cell is down.
    """

    def _all_shown_as(self, ids, status):
        """/servers/detail has a status for normal and down-cell entries."""
        listed = {s['id']: s['status'] for s in self.raw.get(
            '/servers/detail', MICROVERSION)['servers']}
        return all(listed.get(i) == status for i in ids)

    @decorators.idempotent_id('5b7d9f1a-3c2e-4d4f-b6a8-1c2d3e4f5a60')
    @decorators.attr(type=['disruptive', 'slow'])
    def test_usage_survives_a_cell_outage(self):
        cell = CONF.conformance.cell_down_name
        zone = CONF.conformance.cell_down_zone
        down_hosts = self.zone_hosts(zone)
        self.assertNotEqual([], down_hosts, '[conformance] cell_down_zone '
                            '%s has no available host' % zone)
        self.set_project_quota(instances=3, cores=-1, ram=-1)
        in_cell = [self.boot(zone=zone) for _ in range(3)]
        for server_id in in_cell:
            self.assertEqual('ACTIVE', self.settle(server_id)['status'])

        fault, cell = faults.take_cell_down(self, CONF)
        self.wait_for('cell %s to look down (its servers UNKNOWN at %s)' % (
            cell, MICROVERSION), lambda: self._all_shown_as(in_cell,
                                                            'UNKNOWN'))

        rule = ('with cell %s down, quota usage still counts its 3 servers'
                % cell)
        detail = self.quota_detail()
        self.assertEqual(3, detail['instances']['in_use'],
                         '%s (os-quota-sets detail)' % rule)
        self.assertEqual(3, self.limits_used()['instances'],
                         '%s (GET /limits)' % rule)
        self.assert_boot_refused(
            'with cell %s down and 3 of 3 instances used, a 4th boot is '
            'refused (it would pass only if the down cell were forgotten)'
            % cell)

        self.set_project_quota(instances=4, cores=-1, ram=-1)
        elsewhere = self.settle(self.boot())
        rule = 'a boot within quota still succeeds in a cell that is up'
        self.assertEqual('ACTIVE', elsewhere['status'], rule)
        self.assertNotIn(elsewhere['OS-EXT-SRV-ATTR:host'], down_hosts,
                         '%s: it landed on %s, in the down cell' % (
                             rule, elsewhere['OS-EXT-SRV-ATTR:host']))

        fault.cell_up(cell)
        self.wait_for('cell %s to be back' % cell,
                      lambda: self._all_shown_as(in_cell, 'ACTIVE'))
        rule = 'after the cell comes back, usage and servers are as before'
        self.assertEqual(4, self.quota_detail()['instances']['in_use'],
                         rule)
        listed = {s['id']: s['status'] for s in self.raw.get(
            '/servers/detail', MICROVERSION)['servers']}
        self.assertEqual({i: 'ACTIVE' for i in in_cell + [elsewhere['id']]},
                         listed, rule)
