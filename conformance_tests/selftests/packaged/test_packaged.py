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

"""The packaged cloud's parts that need no root and no chroot: what it
writes, how it refuses, how its command line reads
(conformance_tests/packaged/; tools/packaged_proof.py runs the rest as
root)."""

import configparser
import os
import stat
from unittest import mock

import fixtures
import testtools

from conformance_tests.cmd import main
from conformance_tests.packaged import chroot
from conformance_tests.packaged import configs
from conformance_tests.packaged import layout
from conformance_tests.packaged import processes

SECRETS = {'admin': {'username': 'admin', 'password': 'admin-pw-123'},
           'amqp': 'amqp-pw-123',
           'db': {name: 'db-%s-pw' % name for name in (
               'keystone', 'placement', 'glance', 'neutron', 'blazar',
               'nova')},
           'services': {user: '%s-pw-123' % user
                        for user in layout.SERVICE_USERS}}


def _read(path):
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read(path)
    return parser


class ConfigsTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.root = self.useFixture(fixtures.TempDir()).path
        self.written = configs.write_all(self.root, layout.Ports(),
                                         SECRETS)

    def path(self, name):
        return os.path.join(self.root, self.written[name].lstrip('/'))

    def test_every_file_is_its_owners_only(self):
        for name in self.written:
            mode = stat.S_IMODE(os.stat(self.path(name)).st_mode)
            self.assertEqual(0o600, mode, name)

    def test_each_compute_its_host_driver_state_and_cell_queue(self):
        seen = set()
        for host, cell in layout.COMPUTES:
            conf = _read(self.path('nova-%s.conf' % host))
            self.assertEqual(host, conf['DEFAULT']['host'])
            self.assertEqual('fake.FakeDriver',
                             conf['DEFAULT']['compute_driver'])
            self.assertTrue(conf['DEFAULT']['transport_url'].endswith(
                '/' + cell))
            seen.add(conf['DEFAULT']['state_path'])
        self.assertEqual(len(layout.COMPUTES), len(seen))

    def test_cell_conductors_reach_their_cell_and_the_api_database(self):
        for cell in layout.CELLS:
            conf = _read(self.path('nova-%s.conf' % cell))
            self.assertTrue(conf['database']['connection'].endswith(
                '/nova_%s?charset=utf8' % cell))
            self.assertIn('/nova_api?', conf['api_database']['connection'])

    def test_the_scheduler_runs_blazars_filter_with_preemptibles(self):
        conf = _read(self.path('nova.conf'))
        self.assertIn('BlazarFilter',
                      conf['filter_scheduler']['enabled_filters'])
        self.assertNotIn('AvailabilityZoneFilter',
                         conf['filter_scheduler']['enabled_filters'])
        self.assertEqual('True',
                         conf['blazar:physical:host']['allow_preemptibles'])
        self.assertEqual('True',
                         conf['quota']['count_usage_from_placement'])

    def test_ports_come_from_the_base(self):
        ports = layout.Ports(20000)
        self.assertEqual(20000, ports.mysql)
        self.assertEqual(20010, ports.keystone)
        self.assertEqual(len(layout.PORTS), len(set(ports.all().values())))


class RefusalsTest(testtools.TestCase):

    def test_not_root_is_one_line_naming_root(self):
        with mock.patch.object(os, 'geteuid', return_value=1000):
            e = self.assertRaises(chroot.PackagedError, chroot.require_root)
        self.assertIn('needs root', str(e))

    def test_the_mirror_override_wins(self):
        with mock.patch.dict(os.environ, {
                'CONFORMANCE_DEBIAN_MIRROR': 'http://127.0.0.1:9/d'}):
            self.assertEqual('http://127.0.0.1:9/d', chroot.mirror())

    def test_a_dir_with_no_mount_has_none(self):
        self.assertEqual([], chroot.mounts_under(
            self.useFixture(fixtures.TempDir()).path))

    def test_a_failed_wait_names_the_log(self):
        e = self.assertRaises(
            chroot.PackagedError, processes.wait_for, 'thing',
            lambda: False, 0, log='/x/thing.log')
        self.assertIn('/x/thing.log', str(e))


class CommandLineTest(testtools.TestCase):

    def test_each_action_parses(self):
        parser = main.build_parser()
        for argv in (['packaged', 'up'], ['packaged', 'down'],
                     ['packaged', 'status', '--port-base', '19700'],
                     ['packaged', 'run', '--seed', '004', '--keep']):
            args = parser.parse_args(argv)
            self.assertEqual(argv[1], args.action)

    def test_run_takes_seeds(self):
        args = main.build_parser().parse_args(
            ['packaged', 'run', '--seed', '000', '--seed', '003'])
        self.assertEqual(['000', '003'], args.seed)


class UnexpectedTest(testtools.TestCase):
    """A run not as expected names each capability and why, last, where a
    CI log that keeps only its tail still shows it."""

    def test_each_unexpected_capability_is_a_line(self):
        from conformance_tests.report import build
        report = {'capabilities': [
            {'id': 'a.ok', 'status': 'pass', 'expected': 'pass',
             'as_expected': True, 'explanation': ''},
            {'id': 'b.race', 'status': 'partial', 'expected':
             'expected-fail', 'as_expected': False,
             'explanation': 'test_race skipped: no racing boot\nmore'},
            {'id': 'c.quiet', 'status': 'fail', 'expected': 'pass',
             'as_expected': False, 'explanation': None}]}
        self.assertEqual(
            ['b.race is partial, expected expected-fail: test_race '
             'skipped: no racing boot',
             'c.quiet is fail, expected pass'],
            build.not_as_expected(report))
