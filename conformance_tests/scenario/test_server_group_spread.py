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

"""Seed 000, scheduling: anti-affinity with max_server_per_host.

The spec: an anti-affinity group with rule max_server_per_host=K lets at
most K of its servers share a host; without the rule K is 1; a server
that cannot be placed fails to schedule (and remains a member); the
affinity policy still packs a group onto one host.

The hosts come from config: [conformance] anti_affinity_zone names an
availability zone whose H hosts these tests may fill with up to 3*H+1
small servers. On a cloud with thousands of hosts, point it at a zone (or
an aggregate exposed as a zone) of a few.

A project member can show every rule: servers of one project on one
host share a ``hostId`` (an opaque hash of host and project) and servers
on different hosts have different ones, so servers per host are counted
by ``hostId``. Only H needs more: an admin lists the zone's hosts, a
member takes H from [conformance] anti_affinity_zone_hosts. With admin
the host names are checked too (no host above the limit, none outside
the zone).
"""

import collections
import threading

from tempest import config
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from conformance_tests.common import outcomes
from conformance_tests.common import skips
from conformance_tests.common import waiters
from conformance_tests.scenario import base
from conformance_tests.services.compute.v2 import server_groups

CONF = config.CONF
MICROVERSION = '2.64'
NO_VALID_HOST = 'No valid host was found'
# A boot that races past the scheduler is caught by the compute's late
# check and rescheduled; when no host is left its fault says this.
RETRIES_EXCEEDED = 'Exceeded maximum number of retries'
# A forced host has no alternate: the late check's refusal is the fault.
LATE_CHECK_REFUSED = 'Anti-affinity instance group policy was violated'


class ServerGroupSpreadTest(base.ComputeScenarioTest):
    """Boots real servers, only in the configured zone."""

    min_microversion = MICROVERSION
    max_microversion = MICROVERSION

    @classmethod
    def member_credentials(cls):
        return ['primary']

    @classmethod
    def skip_checks(cls):
        super().skip_checks()
        if not CONF.conformance.anti_affinity_zone:
            raise cls.skipException(
                'set [conformance] anti_affinity_zone to an availability '
                'zone of a few hosts that these tests may fill with up to '
                '3 servers per host plus one')
        if not cls.has_admin and not CONF.conformance.anti_affinity_zone_hosts:
            # An option the vendor sets: the capability is partial, not
            # not-applicable.
            raise cls.skipException(
                'set [conformance] anti_affinity_zone_hosts to the number '
                'of available compute hosts in zone %s: without admin '
                'credentials these tests cannot list a zone\'s hosts (GET '
                '/os-availability-zone/detail is admin-only)' %
                CONF.conformance.anti_affinity_zone)

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.groups = cls.os_primary.server_groups_client

    def setUp(self):
        super().setUp()
        self.zone = CONF.conformance.anti_affinity_zone
        # H, and the host names when an admin can list them (else None)
        self.host_count, self.hosts = self.anti_affinity_zone_size()

    # -- helpers --------------------------------------------------------
    def _create_group(self, policy, rules=None, admin=False):
        """A group of the primary's project, or with ``admin`` of the
        admin's (whose servers an admin may force onto a host)."""
        body = {'name': self.name('sg'), 'policy': policy}
        if rules is not None:
            body['rules'] = rules
        groups = self.os_admin.server_groups_client if admin else self.groups
        # Before the POST: a group nova made, whose answer then failed the
        # view check below, goes too.
        self.addCleanup(self._delete_groups_named, body['name'],
                        self.admin_raw if admin else self.raw, groups)
        try:
            group = outcomes.must_succeed(
                self, 'at %s a group with a policy%s is accepted' % (
                    MICROVERSION, ' and rules %s' % rules
                    if rules is not None else ''),
                groups.create_server_group, **body)['server_group']
        except lib_exc.InvalidHTTPResponseBody as e:
            # The cloud answered, with a group that is not the 2.64 view
            # these tests speak (nova's: a policy string and a rules
            # object): a verdict on the cloud, not an error of the run.
            self.fail('POST /os-server-groups at %s with %s answered a '
                      'group that is not 2.64 as nova merged it (policy a '
                      'string, rules an object): %s' % (
                          MICROVERSION, body, str(e)[:600]))
        return group

    def _delete_groups_named(self, name, raw, groups):
        server_groups.delete_matching(raw, groups,
                                      lambda found: found == name)

    def _boot(self, group, name=None, **extra):
        """A boot into the group, which the API accepts (202): where it
        goes, or that it fails to schedule, is the rule's to judge."""
        return self.boot_accepted(
            'every boot request into a group is accepted (202); '
            'scheduling decides', zone=self.zone, group=group, name=name,
            **extra)

    def _settle(self, server_id):
        return self.settle(server_id)

    def _boot_settled(self, group):
        return self._settle(self._boot(group))

    def _boot_reported(self, group):
        """Boot into ``group``; once ACTIVE, wait until its build event
        has finished, so the next boot meets a scheduler that knows it.

        Why: the filter counts the group's servers from the scheduler's
        own view of each host, which the compute updates with a message
        sent after the server is shown ACTIVE and before its build event
        finishes. A boot sent between the two is judged on a host that
        looks one server short (the compute's late check then refuses
        it), so "ACTIVE" alone would make the verdict depend on which of
        two things ended first."""
        server = self._boot_settled(group)
        if server['status'] == 'ACTIVE':
            self.wait_until_built(server['id'], MICROVERSION)
        return server

    def _members(self, rule, group):
        """The group's members as its project sees them; a refused show
        is ``rule``'s failed assertion (the rule is about membership)."""
        return outcomes.must_succeed(
            self, '%s (its group is shown)' % rule,
            self.groups.show_server_group,
            group['id'])['server_group']['members']

    def _per_host(self, rule, active):
        """Servers per host as their project sees it: per ``hostId``."""
        missing = [s['id'] for s in active if not s.get('hostId')]
        self.assertEqual([], missing, '%s: an ACTIVE server shows the '
                         'hostId of its host' % rule)
        return collections.Counter(s['hostId'] for s in active)

    def _assert_within_limit(self, rule, active, limit):
        """No host above ``limit``, no more hosts than the zone has;
        returns the servers per hostId. With admin, by host name too, and
        none outside the zone."""
        per_host = self._per_host(rule, active)
        over = {h: n for h, n in per_host.items() if n > limit}
        self.assertEqual({}, over, '%s: hosts (by hostId) above the limit '
                         'of %d: %s (servers per hostId: %s)' % (
                             rule, limit, over, dict(per_host)))
        self.assertLessEqual(
            len(per_host), self.host_count, '%s: servers on %d hosts (by '
            'hostId), zone %s has %d' % (rule, len(per_host), self.zone,
                                         self.host_count))
        if self.hosts is not None:
            by_name = collections.Counter(
                s['OS-EXT-SRV-ATTR:host'] for s in active)
            over = {h: n for h, n in by_name.items() if n > limit}
            self.assertEqual({}, over, '%s: hosts above the limit of %d: '
                             '%s (servers per host: %s)' % (
                                 rule, limit, over, dict(by_name)))
            outside = set(by_name) - set(self.hosts)
            self.assertEqual(set(), outside, '%s: servers outside zone %s '
                             '(hosts %s) on %s' % (
                                 rule, self.zone, self.hosts,
                                 sorted(outside)))
        return per_host

    def _assert_unschedulable(self, rule, server, group, faults):
        fault = (server.get('fault') or {}).get('message', '')
        self.assertEqual(
            'ERROR', server['status'], '%s: a server beyond the limit '
            'must fail to schedule; it went %s on %s' % (
                rule, server['status'], server.get(
                    'OS-EXT-SRV-ATTR:host') or 'hostId %s' % server.get(
                        'hostId')))
        self.assertTrue(any(f in fault for f in faults),
                        '%s: fault of %s should say %s; it says %r' % (
                            rule, server['id'], ' or '.join(faults), fault))
        self.assertIn(server['id'], self._members(rule, group),
                      '%s: a server that failed to schedule stays a member '
                      'of its group' % rule)

    def _neighbour_on_every_host(self, rule):
        """One server of another anti-affinity group on each of the H
        hosts, and one server of no group in the zone: servers that are
        not the tested group's, which its limit must not count (the
        ungrouped one's host holds two such). Returns the ungrouped
        server's id: the caller removes it once the group is placed, so
        that the zone never holds more than 3*H+1 of these servers."""
        rule = ('%s (one server of another group on each host and one of '
                'no group in the zone first)' % rule)
        loner = self._boot_reported(None)
        self.assertEqual('ACTIVE', loner['status'], '%s: a server of no '
                         'group goes ACTIVE in zone %s (fault: %s)' % (
                             rule, self.zone, loner.get('fault')))
        group = self._create_group('anti-affinity')
        placed = [self._boot_reported(group) for _ in range(self.host_count)]
        self.assertEqual(['ACTIVE'] * self.host_count,
                         [s['status'] for s in placed],
                         '%s: %d servers of a group without rules fit on '
                         '%d hosts' % (rule, self.host_count,
                                       self.host_count))
        per_host = self._assert_within_limit(rule, placed, 1)
        self.assertEqual(self.host_count, len(per_host),
                         '%s: they must use all %d hosts (servers per '
                         'hostId: %s)' % (rule, self.host_count,
                                          dict(per_host)))
        return loner['id']

    def _fill_then_overflow(self, limit, rules, neighbours=False):
        rule = ('anti-affinity with %s: at most %d server(s) of the group '
                'per host' % (
                    'max_server_per_host=%d' % limit if rules
                    else 'no rules (default max_server_per_host=1)', limit))
        if neighbours:
            # The filter compares the group's servers on a host with the
            # limit, not every server there.
            rule += (', counting only the group\'s servers on a host (one '
                     'of another group already on each, one of no group '
                     'on one)')
            loner = self._neighbour_on_every_host(rule)
        group = self._create_group('anti-affinity', rules)
        if rules:
            self.assertEqual(rules, group['rules'],
                             '%s: rules shown as created' % rule)
        capacity = limit * self.host_count
        placed = [self._boot_reported(group) for _ in range(capacity)]
        not_active = [(s['id'], s['status'], s.get('fault'))
                      for s in placed if s['status'] != 'ACTIVE']
        self.assertEqual([], not_active, '%s: %d servers fit on the %d '
                         'hosts of zone %s, all must go ACTIVE' % (
                             rule, capacity, self.host_count, self.zone))
        per_host = self._assert_within_limit(rule, placed, limit)
        self.assertEqual(self.host_count, len(per_host),
                         '%s: %d servers must use all %d hosts, used %d '
                         '(servers per hostId: %s)' % (
                             rule, capacity, self.host_count, len(per_host),
                             dict(per_host)))
        if neighbours:
            # Placed beside it; gone before the overflow, which it does
            # not change, so the project's instance quota needs 3*H+1.
            waiters.remove_servers([(self.servers, loner)])
        extra = self._boot_settled(group)
        self._assert_unschedulable(rule, extra, group, [NO_VALID_HOST])

    # -- tests ------------------------------------------------------------
    @decorators.idempotent_id('3f0c2a71-5d4e-4f6b-9a8c-1b2d3e4f5a60')
    @decorators.attr(type=['slow'])
    def test_default_limit_is_one_server_per_host(self):
        """No rules: H servers on H hosts, the next one has no valid host."""
        self._fill_then_overflow(1, None)

    @decorators.idempotent_id('8a4d6c2e-1f3b-4d5a-b7c9-2e3f4a5b6c71')
    @decorators.attr(type=['slow'])
    def test_max_server_per_host_2(self):
        """max_server_per_host=2 beside another group's server on each
        host and a server of no group: 2*H servers, no host above 2 of
        the group, then one more has no valid host."""
        self._fill_then_overflow(2, {'max_server_per_host': 2},
                                 neighbours=True)

    @decorators.idempotent_id('c5e7a9b1-3d2f-4e6a-8b0c-3f4a5b6c7d82')
    @decorators.attr(type=['slow'])
    def test_max_server_per_host_3(self):
        """max_server_per_host=3: 3*H servers, no host above 3, then one
        more has no valid host."""
        self._fill_then_overflow(3, {'max_server_per_host': 3})

    @decorators.idempotent_id('1b3d5f7a-9c2e-4a6b-8d0f-4a5b6c7d8e93')
    @decorators.attr(type=['slow'])
    def test_multi_create_respects_the_limit(self):
        """One request for H servers fills the zone one per host; one
        request for H+1 cannot be placed and none of it goes ACTIVE."""
        rule = ('anti-affinity, multi-create: one request may not put more '
                'than max_server_per_host=1 servers of the group on a host')
        hosts = self.host_count
        for count, fits in ((hosts, True), (hosts + 1, False)):
            group = self._create_group('anti-affinity')
            name = self.name('multi')
            self._boot(group, name=name, min_count=count, max_count=count)
            found = outcomes.must_succeed(
                self, rule, self.servers.list_servers, detail=True,
                name='^%s' % name)['servers']
            for server in found:
                self.remove_server_later(server['id'])
            self.assertEqual(count, len(found), '%s: one request for %d '
                             'servers made %d' % (rule, count, len(found)))
            settled = [self._settle(s['id']) for s in found]
            if fits:
                self.assertEqual(['ACTIVE'] * count,
                                 [s['status'] for s in settled],
                                 '%s: %d servers fit on %d hosts' % (
                                     rule, count, hosts))
                self._assert_within_limit(rule, settled, 1)
            else:
                for server in settled:
                    self._assert_unschedulable(rule, server, group,
                                               [NO_VALID_HOST])

    @decorators.idempotent_id('6d8f0b2c-4e3a-4b7c-9d1e-5b6c7d8e9fa4')
    @decorators.attr(type=['slow'])
    def test_concurrent_boots_never_exceed_the_limit(self):
        """2*H+2 boots at once with max_server_per_host=2: whichever
        servers lose the race fail; no host ever holds more than 2."""
        rule = ('anti-affinity with max_server_per_host=2 under concurrent '
                'boots: never more than 2 servers of the group on a host')
        group = self._create_group('anti-affinity',
                                   {'max_server_per_host': 2})
        capacity = 2 * self.host_count
        ids, errors = [], []

        def boot():
            # Raw: each thread's answer is judged below, not in the
            # thread (a failed assertion there would be lost).
            try:
                ids.append(self.boot(zone=self.zone, group=group))
            except Exception as e:  # reported below
                errors.append(e)

        threads = [threading.Thread(target=boot)
                   for _ in range(capacity + 2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        # A refusal (an HTTP answer other than 202) breaks the rule; no
        # answer at all (a timeout, a dropped connection) is an error of
        # the run, never a verdict on the cloud, so it is raised as such.
        answered = (lib_exc.ClientRestClientException,
                    lib_exc.ServerRestClientException)
        unanswered = [e for e in errors if not isinstance(e, answered)]
        if unanswered:
            raise unanswered[0]
        self.assertEqual([], errors, '%s: every boot request is accepted '
                         '(202); scheduling decides' % rule)
        settled = [self._settle(i) for i in ids]
        active = [s for s in settled if s['status'] == 'ACTIVE']
        failed = [s for s in settled if s['status'] != 'ACTIVE']
        self._assert_within_limit(rule, active, 2)
        # A boot loses only to a host already holding 2 of the group, so
        # at least one host's worth per host goes ACTIVE whatever the
        # order: "every boot failed" is no spread.
        self.assertGreaterEqual(len(active), self.host_count, '%s: %d boots '
                                'into room for %d: at least %d (one per '
                                'host) must go ACTIVE, %d did' % (
                                    rule, capacity + 2, capacity,
                                    self.host_count, len(active)))
        self.assertGreaterEqual(len(failed), 2, '%s: %d boots into room '
                                'for %d: at least 2 must fail, %d did' % (
                                    rule, capacity + 2, capacity,
                                    len(failed)))
        for server in failed:
            self._assert_unschedulable(rule, server, group,
                                       [NO_VALID_HOST, RETRIES_EXCEEDED])

    @decorators.idempotent_id('d370544b-3ed3-49c4-a65d-4609bae79523')
    @decorators.attr(type=['slow'])
    @skips.admin_only('POST /servers with availability_zone zone:host (a '
                      'host forced past the scheduler\'s filters, so only '
                      'the compute\'s late check can refuse)')
    def test_late_check_refuses_a_forced_server_beyond_the_limit(self):
        """max_server_per_host=2: two servers forced onto one host go
        ACTIVE; a third forced there (a forced host skips the scheduler's
        filters) is refused by the compute's late check."""
        rule = ('the compute\'s late check holds max_server_per_host=2: a '
                'server of the group forced onto a host that has 2 of it '
                'fails to build there')
        group = self._create_group('anti-affinity',
                                   {'max_server_per_host': 2}, admin=True)
        host = self.hosts[0]

        def forced():
            return self.settle(self.boot_accepted(
                '%s (an admin\'s boot onto %s is accepted)' % (rule, host),
                zone='%s:%s' % (self.zone, host), group=group,
                servers_client=self.admin_servers))

        placed = [forced() for _ in range(2)]
        self.assertEqual(
            [('ACTIVE', host)] * 2,
            [(s['status'], s['OS-EXT-SRV-ATTR:host']) for s in placed],
            '%s: the first 2, within the limit, go ACTIVE on %s' % (
                rule, host))
        extra = forced()
        fault = (extra.get('fault') or {}).get('message', '')
        self.assertEqual(
            ('ERROR', None), (extra['status'],
                              extra.get('OS-EXT-SRV-ATTR:host')),
            '%s: the third went %s on %s' % (
                rule, extra['status'], extra.get('OS-EXT-SRV-ATTR:host')))
        self.assertIn(LATE_CHECK_REFUSED, fault, '%s: the fault of %s '
                      'says the late check refused it; it says %r' % (
                          rule, extra['id'], fault))
        members = outcomes.must_succeed(
            self, '%s (its group is shown)' % rule,
            self.os_admin.server_groups_client.show_server_group,
            group['id'])['server_group']['members']
        self.assertEqual(sorted(s['id'] for s in placed + [extra]),
                         sorted(members), '%s: every server stays a '
                         'member of its group' % rule)

    @decorators.idempotent_id('9f1b3d5e-7a2c-4d8e-a0b1-6c7d8e9fa0b5')
    @decorators.attr(type=['slow'])
    def test_affinity_still_packs_onto_one_host(self):
        """The affinity policy (no rules) puts the group on one host."""
        rule = 'affinity: every server of the group on the same host'
        group = self._create_group('affinity')
        settled = [self._boot_settled(group) for _ in range(3)]
        self.assertEqual(['ACTIVE'] * 3, [s['status'] for s in settled],
                         '%s: 3 servers fit on one host' % rule)
        per_host = self._per_host(rule, settled)
        self.assertEqual(1, len(per_host), '%s: spread over %d hosts (by '
                         'hostId: %s)' % (rule, len(per_host),
                                          dict(per_host)))
        if self.hosts is not None:
            hosts = set(s['OS-EXT-SRV-ATTR:host'] for s in settled)
            self.assertEqual(1, len(hosts), '%s: spread over %s' % (
                rule, sorted(hosts)))
