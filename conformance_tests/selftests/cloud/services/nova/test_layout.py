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

"""`cloud up --computes N`: the anti-affinity zone grows, nothing moves."""

import io

import fixtures
import testtools

from conformance_tests.cloud.services import nova
from conformance_tests.cloud.services.nova import layout as compute_layout
from conformance_tests.cmd import main
from conformance_tests.selftests.cloud import (
    test_client_files as test_cloud_files)


class LayoutTest(testtools.TestCase):

    def test_default_is_todays_layout(self):
        self.assertEqual(compute_layout.HOSTS, compute_layout.hosts())
        self.assertEqual(compute_layout.ZONES, compute_layout.zones())

    def test_existing_hosts_keep_their_cells_and_zones(self):
        hosts = compute_layout.hosts(16)
        zones = compute_layout.zones(16)
        self.assertEqual(compute_layout.HOSTS, hosts[:4])
        self.assertEqual(16, len(zones[compute_layout.ZONE]))
        self.assertEqual(compute_layout.ZONE_HOSTS,
                         zones[compute_layout.ZONE][:3])
        self.assertEqual(('host4',), zones[compute_layout.DOWN_CELL_ZONE])
        self.assertNotIn('host4', zones[compute_layout.ZONE])

    def test_added_hosts_alternate_cells_and_names_are_unique(self):
        hosts = compute_layout.hosts(8)
        self.assertEqual([('host5', 'cell1'), ('host6', 'cell2')],
                         list(hosts[4:6]))
        names = [h for h, _ in hosts]
        self.assertEqual(len(names), len(set(names)))

    def test_too_few_or_too_many_hosts_say_the_range(self):
        for n in (2, compute_layout.MAX_ZONE_COMPUTES + 1):
            e = self.assertRaises(compute_layout.LayoutError,
                                  compute_layout.hosts, n)
            self.assertIn('from 3', str(e))


class NovaDescriptorTest(testtools.TestCase):

    def test_nova_starts_the_layout_of_the_setting(self):
        ctx = test_cloud_files.fake_launch_context(zone_computes=8)
        config = nova.nova_config(ctx)
        self.assertEqual([list(h) for h in compute_layout.hosts(8)],
                         config['computes'])
        conf = nova.SERVICE.tempest_conf(ctx)
        self.assertEqual('9', conf['compute']['min_compute_nodes'])

    def test_default_cloud_is_unchanged(self):
        ctx = test_cloud_files.fake_launch_context()
        config = nova.nova_config(ctx)
        self.assertEqual([list(h) for h in compute_layout.HOSTS],
                         config['computes'])
        self.assertEqual({'count_usage_from_placement': True},
                         config['flags']['quota'])

    def test_a_grown_zone_can_be_filled_by_one_project(self):
        ctx = test_cloud_files.fake_launch_context(zone_computes=16)
        quota = nova.nova_config(ctx)['flags']['quota']
        self.assertGreaterEqual(quota['instances'], 3 * 16 + 1)
        self.assertGreaterEqual(quota['cores'], 3 * 16 + 1)
        self.assertGreaterEqual(quota['server_group_members'], 3 * 16 + 1)

    def test_the_largest_zone_has_ram_quota_for_its_fill(self):
        # nova's default 51200 MB held 100 servers of 512 MB: the H=64
        # scale point (193 boots) was refused "Quota exceeded for ram".
        ctx = test_cloud_files.fake_launch_context(
            zone_computes=compute_layout.MAX_ZONE_COMPUTES)
        quota = nova.nova_config(ctx)['flags']['quota']
        fill = 3 * compute_layout.MAX_ZONE_COMPUTES + 1
        self.assertGreaterEqual(quota['ram'],
                                fill * compute_layout.FLAVOR_RAM_MB)
        self.assertGreaterEqual(quota['instances'], fill)


class ComputesOptionTest(testtools.TestCase):

    def test_parsed_as_a_number_of_hosts(self):
        args = main.build_parser().parse_args(
            ['cloud', 'up', '--computes', '16'])
        self.assertEqual(16, args.computes)

    def test_bad_values_are_usage_errors(self):
        self.useFixture(fixtures.MonkeyPatch('sys.stderr', io.StringIO()))
        for bad in ('two', '1'):
            self.assertRaises(SystemExit, main.build_parser().parse_args,
                              ['cloud', 'up', '--computes', bad])
