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

"""Seed 001: quota usage counted from placement and the API database.

With [quota] count_usage_from_placement = True, nova counts instances from
its API database (instance mappings) and cores and RAM from placement's
/usages, so the counts agree with placement, an unscheduled server counts
as an instance but holds no cores or RAM, and a cell outage cannot make
usage disappear. [conformance] quota_usage_from_placement says which mode
the cloud claims; tests of what only the placement mode promises skip
when it claims the legacy mode, and the cell-outage test runs in both
(in the legacy mode it is expected to fail: that is the spec's point).

As a project member (no admin credentials) the usage rules are read the
way the project's own users read them: GET /limits, GET
/os-quota-sets/{own project}/detail and placement's GET /usages of the
own project (placement's default policy lets a project reader see its
project's usage). The second user of the project is Tempest's alt account
acting in it through a keystone trust (common/trusts.py), and the
unscheduled server is the one beyond the room of an anti-affinity group
in [conformance] anti_affinity_zone (an admin uses a flavor no host can
hold). Setting quotas (the per-user limit, the cell outage's limits)
needs admin; those tests say so.
"""

from tempest.common import credentials_factory
from tempest import config
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from conformance_tests.common import faults
from conformance_tests.common import outcomes
from conformance_tests.common import skips
from conformance_tests.common import trusts
from conformance_tests.scenario import base

CONF = config.CONF
MICROVERSION = '2.69'
# Nova's 403 names the resource whose limit the boot would pass.
QUOTA_EXCEEDED = 'Quota exceeded for %s'
# What every boot the usage rules count relies on.
RULE_WITHIN_QUOTA = "a boot within the project's quota is accepted"
PLACEMENT_MODE_ONLY = (
    'the cloud claims legacy quota counting ([conformance] '
    'quota_usage_from_placement = false); this seed-001 rule holds only '
    'with [quota] count_usage_from_placement = True')
NO_UNSCHEDULED_SERVER = (
    'set [conformance] anti_affinity_zone and anti_affinity_zone_hosts: '
    'without admin credentials the unscheduled server is the one beyond '
    'the room of an anti-affinity group in that zone (an admin makes a '
    'flavor no host can hold instead)')


class QuotaTestBase(base.ComputeScenarioTest):
    min_microversion = MICROVERSION
    max_microversion = MICROVERSION

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.quotas = cls.os_admin.quotas_client if cls.has_admin else None
        # Placement /usages as an admin reads them, or as the project's
        # own user (a project reader, by placement's default policy).
        cls.placement = (cls.os_admin or cls.os_primary).\
            conformance_placement_v1.UsagesClient()
        cls.flavors = cls.os_primary.flavors_client

    @classmethod
    def resource_setup(cls):
        super().resource_setup()
        cls.project_id = cls.os_primary.credentials.project_id
        cls.user_a = cls.os_primary.credentials.user_id

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

    def set_project_quota(self, rule, **limits):
        """Set the project's limits, which the admin may (``rule``: the
        rule that needs them)."""
        outcomes.must_succeed(
            self, '%s (an admin sets the project\'s limits %s)' % (
                rule, limits),
            self.quotas.update_quota_set, self.project_id, force=True,
            **limits)
        self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                        self.quotas.delete_quota_set, self.project_id)

    def quota_detail(self, user_id=None):
        """os-quota-sets detail of the project (or of a user of it): read
        by the admin, or by the project's own user (nova's default
        policy: a reader of the project)."""
        url = '/os-quota-sets/%s/detail' % self.project_id
        if user_id:
            url += '?user_id=%s' % user_id
        if self.has_admin:
            return self.admin_raw.get(url, MICROVERSION)['quota_set']
        status, body = self.raw.call('GET', url, MICROVERSION)
        if status == 403:
            self.skipTest(skips.needs_admin(
                'GET /os-quota-sets/{project_id}/detail (this cloud\'s '
                'policy refuses it to a member of the project)'))
        if status != 200:
            raise AssertionError('GET %s at %s -> %s %s' % (
                url, MICROVERSION, status, str(body)[:300]))
        return body['quota_set']

    def placement_usages(self, user_id=None):
        """Placement's /usages of the project (or of a user of it)."""
        try:
            return self.placement.usages(self.project_id, user_id)
        except lib_exc.Forbidden:
            if self.has_admin:
                raise
            self.skipTest(skips.needs_admin(
                'GET /usages (placement\'s policy refuses it to a reader '
                'of the project)'))

    def flavor(self, flavor_id):
        """A flavor as the project's user sees it (shown once per test)."""
        cache = self.__dict__.setdefault('_flavors', {})
        if flavor_id not in cache:
            cache[flavor_id] = outcomes.must_succeed(
                self, 'nova shows the flavor whose vcpus and ram a quota '
                'rule counts', self.flavors.show_flavor, flavor_id)['flavor']
        return cache[flavor_id]

    def limits_used(self):
        absolute = self.raw.get('/limits', MICROVERSION)['limits'][
            'absolute']
        return {'instances': absolute['totalInstancesUsed'],
                'cores': absolute['totalCoresUsed'],
                'ram': absolute['totalRAMUsed']}

    def assert_boot_refused(self, rule, resource='instances', **boot_args):
        """The boot is 403, and the refusal names ``resource``: a boot
        refused for another resource's limit proves nothing about this
        one."""
        refusal = outcomes.must_be_refused(self, rule, 403, self.boot,
                                           **boot_args)
        self.assertIn(QUOTA_EXCEEDED % resource, str(refusal),
                      '%s: the 403 must name the %s limit' % (rule, resource))

    def boot_within_quota(self, rule=RULE_WITHIN_QUOTA, **boot_args):
        """A boot the rule says nova accepts: a refusal is the rule's
        failed assertion, with nova's answer."""
        return outcomes.must_succeed(self, rule, self.boot, **boot_args)


class QuotaUsageTest(QuotaTestBase):
    """Two users of one project, servers of different flavors.

    Runs as a project member too: the second user is then the alt
    account, trusted with the primary's roles in its project."""

    @classmethod
    def member_credentials(cls):
        if CONF.identity_feature_enabled.trust:
            return ['primary', 'alt']
        return ['primary']

    @classmethod
    def resource_setup(cls):
        super().resource_setup()
        cls.big_flavor = None
        if cls.has_admin:
            cls.b_servers, cls.user_b = cls._second_user()
            cls.big_flavor = cls._unschedulable_flavor()
        elif CONF.identity_feature_enabled.trust:
            cls.b_servers, cls.user_b = cls._trustee()
        else:
            cls.b_servers = cls.user_b = None

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
        return (cls.client_manager(credentials=b_creds).servers_client,
                user['id'])

    @classmethod
    def _trustee(cls):
        """The alt account, acting in the primary's project through a
        trust: a second user of the project that no admin had to make."""
        provider = trusts.delegate(cls.os_primary, cls.os_alt,
                                   cls.addClassResourceCleanup)
        return (trusts.with_auth(cls.os_alt.servers_client, provider),
                cls.os_alt.credentials.user_id)

    def setUp(self):
        super().setUp()
        self.servers_by_user = {self.user_a: []}
        if self.user_b:
            self.servers_by_user[self.user_b] = []
        # What made the unscheduled server, for the messages; None: none
        # was made (the unscheduled-server test skips).
        self.unscheduled = None
        if self.has_admin:
            self._boot_with_admin()
        else:
            self._boot_as_member()

    def _settle_all(self, booted):
        for user, flavor, server_id in booted:
            self.servers_by_user[user].append(
                (self.settle(server_id), flavor))

    def _boot_with_admin(self):
        # Unlimited cores and RAM so the unschedulable flavor passes the
        # quota check and fails in the scheduler, as the rule needs.
        self.set_project_quota(RULE_WITHIN_QUOTA, instances=10, cores=-1,
                               ram=-1)
        # All four boots are asked for before any is waited for: usage
        # counts servers whatever order they settle in, so the rule needs
        # no serialising, and the boots overlap in the cloud.
        booted = [(user, flavor, self.boot_within_quota(
                      servers_client=client, flavor=flavor))
                  for user, client, flavor in (
                      (self.user_a, self.servers, CONF.compute.flavor_ref),
                      (self.user_a, self.servers,
                       CONF.compute.flavor_ref_alt),
                      (self.user_a, self.servers, self.big_flavor['id']),
                      (self.user_b, self.b_servers,
                       CONF.compute.flavor_ref))]
        self._settle_all(booted)
        self.unscheduled = 'the server of flavor %s (%d MB)' % (
            self.big_flavor['name'], self.big_flavor['ram'])

    def _boot_as_member(self):
        """The project's quota as it is (a member cannot change it). User
        A's servers of two flavors, user B's one; the unscheduled server
        is user A's beyond the room of an anti-affinity group: the
        group's first H servers (one per host of the zone's H) go
        ACTIVE, the next has no valid host."""
        zone = CONF.conformance.anti_affinity_zone
        size = 0
        if zone and CONF.conformance.anti_affinity_zone_hosts:
            size, _ = self.anti_affinity_zone_size()
        a_flavors = [CONF.compute.flavor_ref, CONF.compute.flavor_ref_alt]
        a_flavors += [CONF.compute.flavor_ref] * (size - len(a_flavors))
        # User A's first ``size`` servers fill the group, one per host.
        in_group = a_flavors[:size]
        plain = [(self.user_a, self.servers, f) for f in a_flavors[size:]]
        if self.user_b:
            plain.append((self.user_b, self.b_servers,
                          CONF.compute.flavor_ref))
        beyond_flavor = [CONF.compute.flavor_ref] if size else []
        self._skip_unless_quota_room(
            in_group + [f for _, _, f in plain] + beyond_flavor)
        # The servers outside the group are asked for at once. The
        # group's are placed one after another: boots racing for a
        # group's last room may lose (seed 000's overflow rule allows
        # it), and these must not.
        booted = [(user, flavor, self.boot_within_quota(
                      servers_client=client, flavor=flavor))
                  for user, client, flavor in plain]
        if size:
            group = self.os_primary.server_groups_client.create_server_group(
                name=self.name('sg'), policy='anti-affinity')['server_group']
            self.addCleanup(
                test_utils.call_and_ignore_notfound_exc,
                self.os_primary.server_groups_client.delete_server_group,
                group['id'])
            for n, flavor in enumerate(in_group + beyond_flavor):
                server = self.settle(self.boot_within_quota(
                    zone=zone, group=group, flavor=flavor))
                self.servers_by_user[self.user_a].append((server, flavor))
                if n < size and server['status'] != 'ACTIVE':
                    raise lib_exc.InvalidConfiguration(
                        'server %d of an anti-affinity group went %s, but '
                        '%d fit on the %d hosts of zone %s ([conformance] '
                        'anti_affinity_zone_hosts): %s' % (
                            n + 1, server['status'], size, size, zone,
                            server.get('fault')))
            if server['status'] != 'ERROR':
                raise lib_exc.InvalidConfiguration(
                    'server %d of an anti-affinity group in zone %s, of %d '
                    'hosts ([conformance] anti_affinity_zone_hosts), went '
                    '%s: the zone has more hosts than configured, or '
                    'anti-affinity (seed 000) does not hold' % (
                        size + 1, zone, size, server['status']))
            self.unscheduled = (
                'server %s, beyond the room of an anti-affinity group in '
                'zone %s (%d MB)' % (server['id'], zone, self.flavor(
                    CONF.compute.flavor_ref)['ram']))
        self._settle_all(booted)

    def _skip_unless_quota_room(self, flavor_ids):
        """A member cannot raise the project's quota: skip, naming what to
        raise, unless GET /limits leaves room for these boots."""
        absolute = self.raw.get('/limits', MICROVERSION)['limits'][
            'absolute']
        needed = {'instances': len(flavor_ids),
                  'cores': sum(self.flavor(f)['vcpus'] for f in flavor_ids),
                  'ram': sum(self.flavor(f)['ram'] for f in flavor_ids)}
        short = []
        for what, limit, used in (
                ('instances', 'maxTotalInstances', 'totalInstancesUsed'),
                ('cores', 'maxTotalCores', 'totalCoresUsed'),
                ('ram', 'maxTotalRAMSize', 'totalRAMUsed')):
            room = absolute[limit] - absolute[used]
            if absolute[limit] >= 0 and room < needed[what]:
                short.append('%s: %d free, %d needed' % (
                    what, room, needed[what]))
        if short:
            self.skipTest(
                'raise the quota of the test accounts\' projects (%s): '
                'without admin credentials the test boots within the '
                'project\'s quota as it is' % ', '.join(short))

    def _expected(self, user_id=None):
        """Usage the rule predicts, from the servers and their flavors."""
        users = [user_id] if user_id else list(self.servers_by_user)
        booted = [b for u in users for b in self.servers_by_user[u]]
        cores = ram = 0
        for server, flavor_id in booted:
            if server['status'] != 'ACTIVE':
                continue  # unscheduled: no allocation in placement
            flavor = self.flavor(flavor_id)
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
        if self.user_b is None:
            self.skipTest(skips.needs_admin(
                'POST /v3/users and a role assignment (a second user of '
                'the project: [identity-feature-enabled] trust is false, '
                'so no other account can be trusted into it)'))
        rule = ('quota usage is counted from placement and the API '
                'database: in_use equals placement /usages (cores=VCPU, '
                'ram=MEMORY_MB) and the instance count')
        self._assert_usage_agrees(rule)

        # A deleted server holds nothing: its instance mapping is queued
        # for deletion and its allocation is gone before the server is
        # (nova removes the allocation, then the instance), so the usage
        # is due the moment the server is 404.
        rule = ('%s; a deleted server counts in none of them' % rule)
        active = [(s, f) for s, f in self.servers_by_user[self.user_a]
                  if s['status'] == 'ACTIVE']
        self.assertNotEqual([], active, '%s: user A has an ACTIVE server to '
                            'delete' % RULE_WITHIN_QUOTA)
        server, flavor = active[-1]
        outcomes.must_succeed(self, rule, self.delete_server, server['id'])
        self.servers_by_user[self.user_a].remove((server, flavor))
        self._assert_usage_agrees('%s (%s deleted)' % (rule, server['id']))

    def _assert_usage_agrees(self, rule):
        for scope, user in (('project', None), ('user A', self.user_a),
                            ('user B', self.user_b)):
            detail = self.quota_detail(user)
            in_use = {k: detail[k]['in_use']
                      for k in ('instances', 'cores', 'ram')}
            usages = self.placement_usages(user)
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
        if self.unscheduled is None:
            self.skipTest(NO_UNSCHEDULED_SERVER)
        rule = ('an unscheduled ERROR server counts toward instances but '
                'not toward cores or RAM (it has no placement allocation)')
        unscheduled = [s for s, _ in self.servers_by_user[self.user_a]
                       if s['status'] == 'ERROR']
        self.assertEqual(1, len(unscheduled), '%s: %s must fail to '
                         'schedule, and only it' % (rule, self.unscheduled))
        detail = self.quota_detail()
        expected = self._expected()
        self.assertEqual(expected['instances'],
                         detail['instances']['in_use'],
                         '%s: instances in_use' % rule)
        self.assertEqual((expected['cores'], expected['ram']),
                         (detail['cores']['in_use'], detail['ram']['in_use']),
                         '%s: cores/ram in_use must leave out %s' % (
                             rule, self.unscheduled))

    @decorators.idempotent_id('0e2a4c6d-8f1b-4c3d-a5e7-0b1c2d3e4f59')
    @decorators.attr(type=['slow'])
    @skips.admin_only('PUT /os-quota-sets/{project_id}?user_id={user_id} '
                      '(a per-user instance limit)')
    def test_per_user_instance_limit_spares_other_users(self):
        """A per-user instance limit stops that user only."""
        rule = ('a per-user instance limit is enforced for that user, and '
                'another user of the same project is unaffected')
        a_count = len(self.servers_by_user[self.user_a])
        outcomes.must_succeed(
            self, '%s (an admin sets user A\'s instance limit to %d)' % (
                rule, a_count),
            self.quotas.update_quota_set, self.project_id,
            user_id=self.user_a, force=True, instances=a_count)
        self.addCleanup(self.admin_raw.call, 'DELETE',
                        '/os-quota-sets/%s?user_id=%s' % (
                            self.project_id, self.user_a), MICROVERSION)
        self.assert_boot_refused('%s (user A at its limit of %d)' % (
            rule, a_count))
        b_server = self.settle(self.boot_within_quota(
            '%s (user B boots while user A is at its limit)' % rule,
            servers_client=self.b_servers))
        self.assertEqual('ACTIVE', b_server['status'],
                         '%s: user B boots while user A is at its limit' %
                         rule)

    @decorators.idempotent_id('9add6534-f3dd-4c2b-91ea-1e4f30eb9db7')
    @decorators.attr(type=['slow'])
    @skips.admin_only('PUT /os-quota-sets/{project_id}?user_id={user_id} '
                      '(per-user cores and RAM limits)')
    def test_per_user_cores_and_ram_limits_count_the_users_own_usage(self):
        """A per-user cores or RAM limit is held against that user's own
        usage (the seed's second call, /usages?project_id&user_id)."""
        flavor = self.flavor(CONF.compute.flavor_ref)
        for resource, size in (('cores', flavor['vcpus']),
                               ('ram', flavor['ram'])):
            rule = ('a per-user %s limit is enforced against that user\'s '
                    'own usage, not the project\'s' % resource)
            # Usage as nova reports it (legacy counting also counts the
            # unscheduled server's cores and RAM; usage-agreement judges
            # the numbers). User B's ACTIVE server makes the project's
            # larger than user A's, so a limit held against the project's
            # usage refuses the first boot below; only the user's own
            # lets it pass.
            own = self.quota_detail(self.user_a)[resource]['in_use']
            project = self.quota_detail()[resource]['in_use']
            self.assertLess(own, project, '%s: user A\'s %s in use must '
                            'leave out user B\'s server' % (rule, resource))
            limit = own + size
            limits = {'cores': -1, 'ram': -1, resource: limit}
            outcomes.must_succeed(
                self, '%s (an admin sets user A\'s limits %s)' % (
                    rule, limits),
                self.quotas.update_quota_set, self.project_id,
                user_id=self.user_a, force=True, **limits)
            self.addCleanup(self.admin_raw.call, 'DELETE',
                            '/os-quota-sets/%s?user_id=%s' % (
                                self.project_id, self.user_a), MICROVERSION)
            server = self.settle(self.boot_within_quota(
                '%s (user A uses %d of its %d, the project %d: a boot of '
                '%d more fits the user\'s limit)' % (
                    rule, own, limit, project, size)))
            # ACTIVE: its allocation is in placement, so the next boot's
            # check counts it.
            self.assertEqual('ACTIVE', server['status'], '%s: user A\'s '
                             'boot within its limit' % rule)
            self.servers_by_user[self.user_a].append(
                (server, CONF.compute.flavor_ref))
            self.assert_boot_refused(
                '%s (user A at its limit of %d)' % (rule, limit),
                resource=resource)


@decorators.serial
class QuotaCellOutageTest(QuotaTestBase):
    """Disruptive: takes [conformance] cell_down_name down, always back.

    @serial: no other test class runs while the cell is down.
    """

    needs_admin = ('PUT /os-quota-sets/{project_id} (the project held at '
                   'its instances, cores and RAM in use), GET '
                   '/os-availability-zone/detail (the hosts of '
                   'cell_down_zone) and GET /os-services (the cell of the '
                   'host a server lands on)')

    def _statuses(self, ids):
        """/servers/detail has a status for normal and down-cell entries."""
        listed = {s['id']: s['status'] for s in self.raw.get(
            '/servers/detail', MICROVERSION)['servers']}
        return {i: listed.get(i) for i in ids}

    def _all_shown_as(self, ids, status):
        return set(self._statuses(ids).values()) == {status}

    @decorators.idempotent_id('5b7d9f1a-3c2e-4d4f-b6a8-1c2d3e4f5a60')
    @decorators.attr(type=['disruptive', 'slow'])
    def test_usage_survives_a_cell_outage(self):
        cell = CONF.conformance.cell_down_name
        zone = CONF.conformance.cell_down_zone
        down_hosts = self.zone_hosts(zone)
        self.assertNotEqual([], down_hosts, '[conformance] cell_down_zone '
                            '%s has no available host' % zone)
        self.set_project_quota('the project held at 3 instances',
                               instances=3, cores=-1, ram=-1)
        in_cell = [self.boot_within_quota(zone=zone) for _ in range(3)]
        for server_id in in_cell:
            self.assertEqual('ACTIVE', self.settle(server_id)['status'])
            self.wait_until_built(server_id, MICROVERSION)
        flavor = self.flavor(CONF.compute.flavor_ref)
        held = {'instances': 3, 'cores': 3 * flavor['vcpus'],
                'ram': 3 * flavor['ram']}

        # The back end's confirmation that the cell's database is
        # unreachable is the signal: nothing here waits on a view of nova
        # (the 2.69 records are another capability's rule).
        fault, cell = faults.take_cell_down(self, CONF)

        rule = ('with cell %s down, quota usage still counts its 3 servers'
                % cell)
        detail = self.quota_detail()
        limits_used = self.limits_used()
        self.assertEqual(3, detail['instances']['in_use'],
                         '%s (os-quota-sets detail)' % rule)
        self.assertEqual(3, limits_used['instances'], '%s (GET /limits)' %
                         rule)
        # The seed's point: cores and RAM too, which the legacy count
        # reads from the cells' databases.
        rule = ('with cell %s down, cores and RAM in use still hold its 3 '
                'servers\' %d cores and %d MB' % (
                    cell, held['cores'], held['ram']))
        cores_ram = {'cores': held['cores'], 'ram': held['ram']}
        self.assertEqual(cores_ram, {k: detail[k]['in_use'] for k in
                                     cores_ram},
                         '%s (os-quota-sets detail)' % rule)
        self.assertEqual(cores_ram, {k: limits_used[k] for k in cores_ram},
                         '%s (GET /limits)' % rule)
        for resource in ('instances', 'cores', 'ram'):
            rule = ('with cell %s down and %d of %d %s used, a boot is '
                    'refused (it would pass only if the down cell were '
                    'forgotten)' % (cell, held[resource], held[resource],
                                    resource))
            limits = dict({k: -1 for k in held}, **{resource: held[resource]})
            self.set_project_quota(rule, **limits)
            self.assert_boot_refused(rule, resource=resource)

        # The control: one flavor's room in each limit, and the boot goes.
        rule = 'a boot within quota still succeeds in a cell that is up'
        self.set_project_quota(rule, instances=4,
                               cores=held['cores'] + flavor['vcpus'],
                               ram=held['ram'] + flavor['ram'])
        elsewhere = self.settle(self.boot_within_quota(rule))
        self.assertEqual('ACTIVE', elsewhere['status'], rule)
        host = elsewhere['OS-EXT-SRV-ATTR:host']
        self.assertNotIn(host, down_hosts, '%s: it landed on %s, in the down '
                         'cell\'s zone %s' % (rule, host, zone))
        # The zone need not hold every host of the cell: nova itself says
        # whether the host's cell is up (its compute is a full record, not
        # 2.69's UNKNOWN one of a down cell).
        computes = [s.get('status') for s in self.admin_raw.get(
            '/os-services', MICROVERSION)['services']
            if s.get('binary') == 'nova-compute' and s.get('host') == host]
        self.assertIn(computes, (['enabled'], ['disabled']),
                      '%s: it landed on %s, whose nova-compute GET '
                      '/os-services shows as %s (UNKNOWN: its cell is down)'
                      % (rule, host, computes))

        fault.cell_up(cell)
        rule = 'after the cell comes back, usage and servers are as before'
        self.assert_within(
            rule + ' (its servers ACTIVE again at %s)' % MICROVERSION,
            lambda: self._all_shown_as(in_cell, 'ACTIVE'),
            lambda: self._statuses(in_cell))
        detail = self.quota_detail()
        self.assertEqual(
            {'instances': 4, 'cores': held['cores'] + flavor['vcpus'],
             'ram': held['ram'] + flavor['ram']},
            {k: detail[k]['in_use'] for k in held}, rule)
        listed = {s['id']: s['status'] for s in self.raw.get(
            '/servers/detail', MICROVERSION)['servers']}
        self.assertEqual({i: 'ACTIVE' for i in in_cell + [elsewhere['id']]},
                         listed, rule)


@decorators.serial
class QuotaUnmigratedUserIdTest(QuotaTestBase):
    """The legacy count while an instance mapping has no user_id.

    The embedded cloud's control endpoint leaves one mapping of the
    test's project without user_id, as a deployment has it before
    `nova-manage db online_data_migrations` runs populate_user_id, and
    then runs that migration (cloud/services/nova/faults.py). Elsewhere
    the suite cannot shape a cloud's data that way: not-applicable.

    @serial: while a mapping is unmigrated nova counts every project's
    server group members the legacy way too; no other test class meets
    that.
    """

    needs_admin = ('PUT /os-quota-sets/{project_id} (cores and RAM '
                   'unlimited, so a flavor no host holds fails in the '
                   'scheduler) and POST /flavors (that flavor)')

    @classmethod
    def skip_checks(cls):
        super().skip_checks()
        skips.skip_if(cls, faults.control_skip_reason(
            CONF, faults.USER_ID_MIGRATION_CANNOT_SHOW))
        if not CONF.conformance.quota_usage_from_placement:
            raise cls.skipException(PLACEMENT_MODE_ONLY)

    def usage_views(self):
        """(os-quota-sets detail in_use, GET /limits totals)."""
        detail = self.quota_detail()
        in_use = {k: detail[k]['in_use'] for k in ('instances', 'cores',
                                                   'ram')}
        return in_use, self.limits_used()

    @decorators.idempotent_id('b80855b2-28bf-4f68-8d30-c8a6f618533e')
    @decorators.attr(type=['slow'])
    def test_legacy_count_until_user_id_is_migrated(self):
        rule = ('while an instance mapping of the project has no user_id '
                '(populate_user_id has not run) nova counts instances, cores '
                'and RAM the legacy way, from the cell databases, and from '
                'placement again once the migration has run')
        self.set_project_quota(RULE_WITHIN_QUOTA, instances=10, cores=-1,
                               ram=-1)
        big = self._unschedulable_flavor()
        active = self.boot_within_quota(flavor=CONF.compute.flavor_ref)
        unscheduled = self.boot_within_quota(flavor=big['id'])
        self.assertEqual(
            ('ACTIVE', 'ERROR'),
            (self.settle(active)['status'],
             self.settle(unscheduled)['status']),
            '%s: a server of flavor %s must go ACTIVE and one of flavor %s '
            '(%d MB) fail to schedule' % (rule, CONF.compute.flavor_ref,
                                          big['name'], big['ram']))
        flavor = self.flavor(CONF.compute.flavor_ref)
        # Placement holds no allocation of the unscheduled server; its
        # cell0 record has the flavor's vcpus and memory_mb.
        from_placement = {'instances': 2, 'cores': flavor['vcpus'],
                          'ram': flavor['ram']}
        from_cells = {'instances': 2, 'cores': flavor['vcpus'] + big['vcpus'],
                      'ram': flavor['ram'] + big['ram']}
        # The control: migrated, the usage is placement's.
        self.assertEqual((from_placement, from_placement),
                         self.usage_views(),
                         '%s: with every mapping migrated, usage (detail, '
                         '/limits) leaves out the unscheduled server\'s '
                         'cores and RAM' % rule)

        fault = faults.backend(CONF)
        # Registered first: nothing stays unmigrated, whatever happens.
        self.addCleanup(fault.populate_user_id)
        fault.unmigrate_user_id(active)
        self.assertEqual((from_cells, from_cells), self.usage_views(),
                         '%s: with server %s\'s mapping unmigrated, usage '
                         '(detail, /limits) is the cell databases\', which '
                         'count the unscheduled server\'s cores and RAM' % (
                             rule, active))

        migrated = fault.populate_user_id()
        self.assertGreaterEqual(migrated.get('done', 0), 1,
                                '%s: populate_user_id migrated nothing: %s'
                                % (rule, migrated))
        self.assertEqual((from_placement, from_placement),
                         self.usage_views(),
                         '%s: once populate_user_id has run, usage (detail, '
                         '/limits) is placement\'s again' % rule)
