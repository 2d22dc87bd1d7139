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

"""The scenarios as a project member: credentials without admin, the
zone's size without listing its hosts, servers per host by hostId, and
skips that say what to set or what needs admin. Fake clients and
config; no cloud."""

import types

import fixtures
from tempest.lib import exceptions as lib_exc
import testtools

from conformance_tests.report import applicability
from conformance_tests.scenario import base
from conformance_tests.scenario import test_down_cell_views
from conformance_tests.scenario import test_quota_from_placement as quota
from conformance_tests.scenario import test_server_group_spread as spread


class Skipped(Exception):
    pass


def fake_conf(zone='zone-a', zone_hosts=0, nova=True):
    return types.SimpleNamespace(
        conformance=types.SimpleNamespace(
            anti_affinity_zone=zone, anti_affinity_zone_hosts=zone_hosts),
        service_available=types.SimpleNamespace(nova=nova))


class _AZClient(object):
    def __init__(self, zones):
        self.zones = zones  # {name: {host: available}}

    def list_availability_zones(self, detail=False):
        info = []
        for name, hosts in self.zones.items():
            entry = {'zoneName': name, 'zoneState': {'available': True},
                     'hosts': None}
            if detail:
                entry['hosts'] = {h: {'nova-compute': {'available': up}}
                                  for h, up in hosts.items()}
            info.append(entry)
        return {'availabilityZoneInfo': info}


class CredentialsTest(testtools.TestCase):
    """use_member_credentials_without_admin, on copies of real classes."""

    def use(self, admin, nova=True):
        self.useFixture(fixtures.MockPatch(
            'tempest.common.credentials_factory.is_admin_available',
            return_value=admin))
        self.useFixture(fixtures.MockPatchObject(base, 'CONF',
                                                 fake_conf(nova=nova)))

    def copy(self, cls):
        # A subclass, so the class attributes set are the copy's alone.
        return type(cls.__name__, (cls,), {'skipException': Skipped})

    def test_with_admin_nothing_changes(self):
        self.use(admin=True)
        for cls in (spread.ServerGroupSpreadTest, quota.QuotaCellOutageTest):
            copy = self.copy(cls)
            copy.use_member_credentials_without_admin()
            self.assertTrue(copy.has_admin)
            self.assertEqual(['primary', 'admin'], copy.credentials)

    def test_a_member_class_runs_with_member_credentials(self):
        self.use(admin=False)
        copy = self.copy(spread.ServerGroupSpreadTest)
        copy.use_member_credentials_without_admin()
        self.assertFalse(copy.has_admin)
        self.assertEqual(['primary'], copy.credentials)
        # The class it came from is untouched.
        self.assertEqual(['primary', 'admin'],
                         spread.ServerGroupSpreadTest.credentials)

    def test_the_quota_usage_class_takes_alt_for_its_second_user(self):
        self.use(admin=False)
        for trust, wanted in ((True, ['primary', 'alt']),
                              (False, ['primary'])):
            self.useFixture(fixtures.MockPatchObject(
                quota, 'CONF', types.SimpleNamespace(
                    identity_feature_enabled=types.SimpleNamespace(
                        trust=trust))))
            copy = self.copy(quota.QuotaUsageTest)
            copy.use_member_credentials_without_admin()
            self.assertEqual(wanted, copy.credentials)

    def test_an_admin_class_says_which_calls_need_admin(self):
        self.use(admin=False)
        for cls in (quota.QuotaCellOutageTest,
                    test_down_cell_views.DownCellViewsTest):
            e = self.assertRaises(
                Skipped, self.copy(cls).use_member_credentials_without_admin)
            kind, reason = applicability.reason(str(e))
            self.assertEqual(applicability.ADMIN, kind)
            self.assertIn('GET /os-availability-zone/detail', reason)

    def test_without_nova_the_service_is_the_reason(self):
        self.use(admin=False, nova=False)
        outage = self.copy(quota.QuotaCellOutageTest)
        e = self.assertRaises(Skipped,
                              outage.use_member_credentials_without_admin)
        self.assertEqual(applicability.SERVICE,
                         applicability.reason(str(e))[0])


class _Zones(base.ServersMixin):
    def __init__(self, has_admin, zones):
        self.has_admin = has_admin
        client = _AZClient(zones)
        self.os_admin = types.SimpleNamespace(availability_zone_client=client)
        self.os_primary = types.SimpleNamespace(
            availability_zone_client=client)


class ZoneSizeTest(testtools.TestCase):
    ZONES = {'zone-a': {'h1': True, 'h2': True, 'h3': False},
             'other': {'h4': True}}

    def conf(self, **kwargs):
        self.useFixture(fixtures.MockPatchObject(base, 'CONF',
                                                 fake_conf(**kwargs)))

    def test_an_admin_lists_the_available_hosts(self):
        self.conf()
        self.assertEqual((2, ['h1', 'h2']),
                         _Zones(True, self.ZONES).anti_affinity_zone_size())

    def test_an_admin_checks_the_configured_count(self):
        self.conf(zone_hosts=2)
        self.assertEqual(2, _Zones(True, self.ZONES).anti_affinity_zone_size(
        )[0])
        self.conf(zone_hosts=3)
        e = self.assertRaises(lib_exc.InvalidConfiguration,
                              _Zones(True, self.ZONES).anti_affinity_zone_size)
        self.assertIn('anti_affinity_zone_hosts = 3', str(e))

    def test_an_admin_refuses_a_zone_without_hosts(self):
        self.conf(zone='nowhere')
        self.assertRaises(lib_exc.InvalidConfiguration,
                          _Zones(True, self.ZONES).anti_affinity_zone_size)

    def test_a_member_takes_the_configured_count(self):
        self.conf(zone_hosts=2)
        self.assertEqual((2, None),
                         _Zones(False, self.ZONES).anti_affinity_zone_size())

    def test_a_member_refuses_a_zone_not_listed(self):
        self.conf(zone='nowhere', zone_hosts=2)
        zones = _Zones(False, self.ZONES)
        e = self.assertRaises(lib_exc.InvalidConfiguration,
                              zones.anti_affinity_zone_size)
        self.assertIn('other, zone-a', str(e))


def server(host_id, host=None):
    record = {'id': 'id-%s' % host_id, 'status': 'ACTIVE', 'hostId': host_id}
    if host:
        record['OS-EXT-SRV-ATTR:host'] = host
    return record


class SpreadCountingTest(testtools.TestCase):
    """ServerGroupSpreadTest's checks, on records as a member or an admin
    sees them."""

    def case(self, host_count, hosts=None):
        test = spread.ServerGroupSpreadTest(
            'test_affinity_still_packs_onto_one_host')
        test.zone, test.host_count, test.hosts = 'zone-a', host_count, hosts
        return test

    def test_a_member_counts_servers_per_host_by_host_id(self):
        test = self.case(2)
        self.assertEqual(
            {'a': 2, 'b': 1},
            dict(test._assert_within_limit(
                'rule', [server('a'), server('a'), server('b')], 2)))

    def test_a_member_sees_a_host_above_the_limit(self):
        e = self.assertRaises(
            AssertionError, self.case(2)._assert_within_limit, 'RULE',
            [server('a'), server('a'), server('b')], 1)
        self.assertIn('RULE: hosts (by hostId) above the limit of 1', str(e))

    def test_a_member_sees_more_hosts_than_the_zone_has(self):
        e = self.assertRaises(
            AssertionError, self.case(2)._assert_within_limit, 'RULE',
            [server('a'), server('b'), server('c')], 1)
        self.assertIn('servers on 3 hosts (by hostId), zone zone-a has 2',
                      str(e))

    def test_an_active_server_without_host_id_is_a_failure(self):
        self.assertRaises(AssertionError, self.case(2)._assert_within_limit,
                          'RULE', [server('')], 1)

    def test_an_admin_checks_host_names_too(self):
        test = self.case(2, hosts=['h1', 'h2'])
        e = self.assertRaises(
            AssertionError, test._assert_within_limit, 'RULE',
            [server('a', 'h1'), server('b', 'h9')], 1)
        self.assertIn('servers outside zone zone-a', str(e))
        test._assert_within_limit('RULE', [server('a', 'h1'),
                                           server('b', 'h2')], 1)


class _Raw(object):
    def __init__(self, absolute):
        self.absolute = absolute

    def get(self, url, microversion):
        assert url == '/limits'
        return {'limits': {'absolute': self.absolute}}


class QuotaRoomTest(testtools.TestCase):
    """A member cannot raise its project's quota: without room the usage
    test skips, naming what to raise (an option of the cloud: partial)."""

    FLAVORS = {'1': {'vcpus': 1, 'ram': 512}, '2': {'vcpus': 1, 'ram': 2048}}

    def case(self, **absolute):
        limits = dict(maxTotalInstances=10, totalInstancesUsed=0,
                      maxTotalCores=20, totalCoresUsed=0,
                      maxTotalRAMSize=51200, totalRAMUsed=0)
        limits.update(absolute)
        test = quota.QuotaUsageTest('test_quota_usage_equals_placement_usage')
        test.raw = _Raw(limits)
        test._flavors = dict(self.FLAVORS)
        return test

    def test_room_enough(self):
        self.case()._skip_unless_quota_room(['1', '2', '1'])
        self.case(maxTotalRAMSize=-1, totalRAMUsed=10 ** 6)\
            ._skip_unless_quota_room(['2'])

    def test_no_room_names_what_to_raise(self):
        test = self.case(maxTotalInstances=4, totalInstancesUsed=2,
                         maxTotalRAMSize=3000)
        e = self.assertRaises(test.skipException,
                              test._skip_unless_quota_room, ['1', '2', '1'])
        self.assertIn('instances: 2 free, 3 needed', str(e))
        self.assertIn('ram: 3000 free, 3072 needed', str(e))
        self.assertNotIn('cores', str(e))
        self.assertIsNone(applicability.reason(str(e)))
