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

"""runner/tempest_runner.py: selection, discovery and the runs' arguments,
without Tempest runs."""

import os
import re
import sys

import fixtures
import testtools
import yaml

from conformance_tests.runner import tempest_runner
from conformance_tests.services.reservation.v1 import enrolment

A = '5b1f0c3e-6f1e-4a8e-9c51-0d2b7e3f9a11'
B = '0c7e2d9a-3b4f-4c61-8e2a-6f5d1a9b8c22'


class SelectionTest(testtools.TestCase):

    def test_regex_selects_exactly_the_ids(self):
        regex = re.compile(tempest_runner.selection_regex([A]))
        self.assertTrue(regex.search(
            'conformance_tests.api.placement.test_x.T.test_y[id-%s]' % A))
        self.assertTrue(regex.search(
            'conformance_tests.scenario.t.T.test_y[id-%s,slow]' % A))
        self.assertFalse(regex.search(
            'conformance_tests.api.placement.test_x.T.test_y[id-%s]' % B))
        self.assertFalse(regex.search('tempest.api.x.T.test[id-%s]' % A))

    def test_empty_selection_is_refused(self):
        self.assertRaises(tempest_runner.RunError,
                          tempest_runner.selection_regex, [])


class DiscoveryTest(testtools.TestCase):

    def _conf_after(self, **kwargs):
        workspace = self.useFixture(fixtures.TempDir()).path
        with open(os.path.join(workspace, '.stestr.conf'), 'w') as f:
            f.write('[DEFAULT]\ntest_path=/elsewhere/.tox/other/tempest/'
                    'test_discover\ntop_dir=/elsewhere\n')
        tempest_runner.point_discovery_here(workspace, **kwargs)
        with open(os.path.join(workspace, '.stestr.conf')) as f:
            return dict(line.split('=', 1) for line in f.read().splitlines()
                        if line.startswith(('test_path=', 'top_dir=')))

    def test_suite_discovers_only_this_plugins_tests(self):
        from conformance_tests import plugin
        conf = self._conf_after()
        test_dir, top = plugin.ConformancePlugin().load_tests()
        # The top Tempest gives the plugin: the same test ids.
        self.assertEqual({'test_path': test_dir, 'top_dir': top}, conf)

    def test_upstream_tests_are_discovered_by_this_interpreters_tempest(self):
        import tempest
        conf = self._conf_after(conformance_only=False)
        top = os.path.dirname(os.path.dirname(tempest.__file__))
        self.assertEqual({'test_path': os.path.join(top, 'tempest',
                                                    'test_discover'),
                          'top_dir': top}, conf)

    def test_error_line_is_the_last_line_never_a_question_mark(self):
        self.assertEqual('ImportError: module incorrectly imported',
                         tempest_runner._last_error_line(
                             'Traceback...\n  x\nImportError: module '
                             'incorrectly imported\n\n'))
        self.assertNotEqual('?', tempest_runner._last_error_line(''))

    def test_discovery_error_names_the_module_and_exception(self):
        text = ('--- import errors ---\nFailed to import test module: '
                'conformance_tests.api.x\nTraceback (most recent call '
                'last):\n  File "y"\nImportError: module incorrectly '
                'imported\n\n====\nThe above traceback was encountered '
                'during test discovery.\n')
        line = tempest_runner._last_error_line(text)
        self.assertIn('conformance_tests.api.x', line)
        self.assertIn('ImportError: module incorrectly imported', line)


class ListingTest(testtools.TestCase):

    def test_tempest_lists_once_and_each_regex_filters_the_list(self):
        asked = []
        listed = ['conformance_tests.api.a.T.test_a[id-%s]' % A,
                  'conformance_tests.api.b.T.test_b[id-%s,smoke]' % B]

        def fake_list(workspace, regex=tempest_runner.TEST_REGEX):
            asked.append((workspace, regex))
            return listed

        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.runner.tempest_runner.list_tests', fake_list))
        listing = tempest_runner.Listing()
        self.assertEqual(listed[1:], listing.select(
            'ws', tempest_runner.selection_regex([B])))
        self.assertEqual(listed, listing.select(
            'ws', tempest_runner.selection_regex([A, B])))
        self.assertEqual([], listing.select(
            'ws', tempest_runner.selection_regex(['0' * 8])))
        self.assertEqual([('ws', tempest_runner.TEST_REGEX)], asked)


DOWN = ('conformance_tests.scenario.test_down_cell_views.DownCellViewsTest.'
        'test_down[id-%s]' % A)
QUOTA = 'conformance_tests.scenario.test_quota_from_placement.'
USAGE = QUOTA + 'QuotaUsageTest.test_usage[id-%s,slow]' % B
OUTAGE = QUOTA + 'QuotaCellOutageTest.test_outage[id-%s]' % A
OTHER = 'conformance_tests.api.compute.test_x.OtherTest.test_y[id-%s]' % B


class SerialScheduleTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.workspace = self.useFixture(fixtures.TempDir()).path

    def _listed(self, args):
        path = args[args.index('--load-list') + 1]
        with open(path) as f:
            return f.read().split()

    def test_serial_classes_are_read_from_the_real_source(self):
        self.assertEqual(
            {'conformance_tests.scenario.test_down_cell_views.'
             'DownCellViewsTest', QUOTA + 'QuotaCellOutageTest'},
            tempest_runner.serial_classes([DOWN, USAGE, OUTAGE]))

    def test_only_the_drs_zone_move_is_serial_among_placement_tests(self):
        # It moves the DRS host between zones, which nova refuses while
        # another class's server runs there; the rest of the module may
        # share the cloud.
        module = 'conformance_tests.api.clustering.test_affinity_placement.'
        zone = (module + 'DrsAvailabilityZoneTest.'
                'test_drs_zone_with_availability_zone[id-%s,slow]' % A)
        data = module + 'AffinityPlacementTest.test_drs_zone[id-%s,slow]' % B
        self.assertEqual({module + 'DrsAvailabilityZoneTest'},
                         tempest_runner.serial_classes([zone, data]))

    def _found_in_probe(self, module, head, finder):
        """What ``finder`` reads in a module of ``head`` then class A (the
        head's decorator or bases complete it), B(A) and C(object)."""
        path = self.useFixture(fixtures.TempDir()).path
        with open(os.path.join(path, module + '.py'), 'w') as f:
            f.write(head + '    pass\n\nclass B(A):\n    pass\n\n'
                    'class C(object):\n    pass\n')
        self.useFixture(fixtures.MonkeyPatch('sys.path',
                                             [path] + sys.path))
        return finder(['%s.%s.test_t[id-%s]' % (module, c, A)
                       for c in 'ABC'])

    def test_a_subclass_of_a_serial_class_is_serial(self):
        self.assertEqual(
            {'serial_probe_mod.A', 'serial_probe_mod.B'},
            self._found_in_probe(
                'serial_probe_mod', 'from tempest.lib import decorators\n\n'
                '@decorators.serial\nclass A(object):\n',
                tempest_runner.serial_classes))

    def test_preemptible_host_classes_are_read_from_the_real_source(self):
        module = 'conformance_tests.scenario.test_preemptible_instances.'
        used = {module + c for c in (
            'PreemptibleSchedulingTest', 'PreemptibleQuotaTest',
            'PreemptibleLeaseTest', 'PreemptibleFreepoolFullTest')} | {
            'conformance_tests.api.reservation.test_leases_api.LeaseAPITest',
            'conformance_tests.api.reservation.test_lease_cli.LeaseCLITest'}
        names = ['%s.test_t[id-%s]' % (c, A) for c in sorted(used)]
        self.assertEqual(used, tempest_runner.preemptible_host_classes(
            names + [DOWN, USAGE, OTHER]))
        self.assertEqual(enrolment.PreemptibleHostsMixin.__name__,
                         tempest_runner.PREEMPTIBLE_HOSTS_MIXIN)

    def test_a_subclass_of_a_preemptible_hosts_class_uses_them(self):
        self.assertEqual(
            {'hosts_probe_mod.A', 'hosts_probe_mod.B'},
            self._found_in_probe(
                'hosts_probe_mod', 'from conformance_tests.services.'
                'reservation.v1 import enrolment\n\n'
                'class A(enrolment.PreemptibleHostsMixin, object):\n',
                tempest_runner.preemptible_host_classes))

    def _workers(self, args):
        path = args[args.index('--worker-file') + 1]
        with open(path) as f:
            return [w['worker'] for w in yaml.safe_load(f)]

    def test_serial_classes_get_a_worker_of_their_own(self):
        args = tempest_runner.tempest_run_args(
            self.workspace, [DOWN, USAGE, OTHER], 2)
        self.assertNotIn('--regex', args)
        self.assertEqual(sorted([DOWN, USAGE, OTHER]),
                         sorted(self._listed(args)))
        workers = [[re.compile(r) for r in w] for w in self._workers(args)]
        self.assertEqual(3, len(workers))

        def runs_on(test):
            return [i for i, w in enumerate(workers)
                    if any(r.search(test) for r in w)]
        # One worker each; the serial class alone on the last.
        self.assertEqual([[0], [1], [2]],
                         sorted([runs_on(USAGE), runs_on(OTHER)])
                         + [runs_on(DOWN)])

    def test_one_class_is_one_worker_without_a_worker_file(self):
        args = tempest_runner.tempest_run_args(self.workspace, [OTHER], 2)
        self.assertNotIn('--worker-file', args)
        self.assertEqual(['--concurrency', '1'], args[-2:])
        self.assertEqual([OTHER], self._listed(args))

    def test_serial_tests_alone_are_one_worker(self):
        args = tempest_runner.tempest_run_args(
            self.workspace, [DOWN, OUTAGE], 2)
        self.assertNotIn('--worker-file', args)
        self.assertEqual(sorted([DOWN, OUTAGE]), sorted(self._listed(args)))

    def test_concurrency_one_is_one_worker_for_every_class(self):
        args = tempest_runner.tempest_run_args(
            self.workspace, [DOWN, USAGE, OTHER], 1)
        self.assertNotIn('--worker-file', args)
        self.assertEqual(['--concurrency', '1'], args[-2:])
        self.assertEqual(3, len(self._listed(args)))


class PrefetchTest(testtools.TestCase):

    def test_a_listing_error_is_kept_for_select(self):
        calls = []

        def failing_list(workspace, regex=tempest_runner.TEST_REGEX):
            calls.append(workspace)
            raise tempest_runner.RunError('import error')

        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.runner.tempest_runner.list_tests',
            failing_list))
        listing = tempest_runner.Listing()
        listing.prefetch('ws')  # while the cloud starts: nothing raised
        self.assertRaises(tempest_runner.RunError, listing.select, 'ws',
                          tempest_runner.TEST_REGEX)
        self.assertEqual(['ws'], calls)

    def test_listing_does_not_read_the_workspace_tempest_conf(self):
        seen = {}

        def fake_run(argv, cwd, env, **kwargs):
            seen.update(env)

            class Done(object):
                returncode, stdout, stderr = 0, '', ''
            return Done()

        workspace = self.useFixture(fixtures.TempDir()).path
        self.useFixture(fixtures.MonkeyPatch(
            'conformance_tests.runner.tempest_runner.subprocess.run',
            fake_run))
        tempest_runner.list_tests(workspace)
        self.assertEqual(os.path.join(workspace, 'etc'),
                         seen['TEMPEST_CONFIG_DIR'])
        self.assertFalse(os.path.exists(os.path.join(
            seen['TEMPEST_CONFIG_DIR'], seen['TEMPEST_CONFIG'])))
        # What Tempest leaves in its temporary directory stays in the
        # workspace, not in /tmp.
        self.assertEqual(os.path.join(workspace, 'tmp'), seen['TMPDIR'])
        self.assertEqual(['.stestr.conf', 'tmp'],
                         sorted(os.listdir(workspace)))
