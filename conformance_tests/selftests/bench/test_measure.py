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

"""conformance_tests/bench: the figures' arithmetic and files, no cloud."""

import json
import os
import time

import fixtures
import testtools

from conformance_tests.bench import cold_start
from conformance_tests.bench import gabbi_cost
from conformance_tests.bench import measure as command
from conformance_tests.bench import mutant_runs
from conformance_tests.bench import report
from conformance_tests.bench import scale
from conformance_tests.bench import soak
from conformance_tests.bench import stats
from conformance_tests.bench import subunit_times
from conformance_tests.bench import suite_runs
from conformance_tests.bench import targets
from conformance_tests.cmd import main


class StatsTest(testtools.TestCase):

    def test_percentiles_are_values_that_were_seen(self):
        values = [0.5, 0.1, 0.4, 0.2, 0.3]
        self.assertEqual(0.3, stats.percentile(values, 50))
        self.assertEqual(0.5, stats.percentile(values, 95))
        self.assertEqual(0.1, stats.percentile(values, 1))

    def test_summary_of_nothing_says_nothing(self):
        self.assertEqual({'n': 0, 'p50': None, 'p95': None, 'min': None,
                          'max': None}, stats.summary([]))

    def test_summary_rounds_to_the_millisecond(self):
        s = stats.summary([1.23456, 0.98765])
        self.assertEqual((2, 0.988, 1.235), (s['n'], s['p50'], s['p95']))

    def test_cpu_busy_share_of_every_core(self):
        stat = self.useFixture(fixtures.TempDir()).join('stat')

        def times(*fields):
            with open(stat, 'w') as f:
                f.write('cpu  %s 0 0\ncpu0 1 2 3\n' % ' '.join(
                    str(v) for v in fields))
            return stats.cpu_times(stat)

        # user nice system idle iowait irq softirq steal
        before = times(100, 0, 50, 800, 50, 0, 0, 0)
        self.assertEqual((150, 1000), before)
        # +150 busy (user 100, system 50), +150 idle and iowait: 50%
        after = times(200, 0, 100, 900, 100, 0, 0, 0)
        self.assertEqual(50.0, stats.busy_pct(before, after))
        self.assertIsNone(stats.busy_pct(before, before))
        self.assertIsNone(stats.busy_pct(None, after))
        self.assertIsNone(stats.cpu_times(stat + '.absent'))
        # 150 jiffies busy, summed over the cores
        self.assertEqual(round(150.0 / stats.CLOCK_TICKS, 1),
                         stats.busy_seconds(before, after))
        self.assertIsNone(stats.busy_seconds(None, after))


class CalibrationTest(testtools.TestCase):

    def test_the_quickest_run_of_the_fixed_work(self):
        took = stats.cpu_calibration(rounds=200_000, repeat=2)
        self.assertGreater(took, 0)
        self.assertLess(took, 1)

    def test_the_report_gives_it_at_start_and_end(self):
        fig = {'machine': {'host': 'h', 'cores': 2, 'load_start': 0.1,
                           'cpu_calibration_start_s': 1.02,
                           'cpu_calibration_end_s': 1.31},
               'started': 'now', 'targets': []}
        text = report.markdown(fig)
        self.assertIn('1.02 s at start, 1.31 s at end', text)
        del fig['machine']['cpu_calibration_end_s']
        self.assertIn('1.02 s at start, not measured at end',
                      report.markdown(fig))


class ColdStartTest(testtools.TestCase):

    def test_ready_lines_are_kept_and_passed_on(self):
        seen = []
        ready = cold_start.ReadyLines(seen.append)
        for line in ('starting embedded cloud in /w', 'keystone ready (2.1 s)',
                     'network-stub ready (2.3 s)', 'nova ready (4.9 s)',
                     'cloud ready in 5.4 s: keystone http://x'):
            ready(line)
        self.assertEqual({'services_s': {'keystone': 2.1,
                                         'network-stub': 2.3, 'nova': 4.9},
                          'total_s': 5.4}, ready.figures())
        self.assertEqual(5, len(seen))


class GabbiCostTest(testtools.TestCase):

    def test_upstream_skips_made_no_request(self):
        text = ('....s..\n---------\nRan 1200 tests in 30.000s\n\n'
                'OK (skipped=200)\n')
        figures = gabbi_cost.parse_unittest(text)
        self.assertEqual({'requests': 1000, 'seconds': 30.0,
                          'per_request_ms': 30.0}, figures)

    def test_nothing_ran_is_none(self):
        self.assertIsNone(gabbi_cost.parse_unittest('ImportError: x\n'))

    def test_ours_per_request_and_per_http_request(self):
        times = {'a': {'seconds': 2.0, 'requests': 10,
                       'topology_requests': 30},
                 'b': {'seconds': 1.0, 'requests': 0,
                       'topology_requests': 0}}
        self.useFixture(fixtures.MockPatchObject(
            gabbi_cost.subunit_times, 'read_file', lambda path: times))
        self.assertEqual({'files': 1, 'requests': 10,
                          'topology_requests': 30, 'seconds': 2.0,
                          'per_request_ms': 200.0,
                          'per_http_request_ms': 50.0},
                         gabbi_cost.ours('run.subunit'))

    def test_ratio(self):
        self.assertEqual(1.5, gabbi_cost.compare({'per_request_ms': 30.0},
                                                 {'per_request_ms': 20.0}))
        self.assertIsNone(gabbi_cost.compare({}, {'per_request_ms': 20.0}))


class MutantsJsonTest(testtools.TestCase):

    def test_reads_each_mutant_and_the_whole_run(self):
        path = os.path.join(self.useFixture(
            fixtures.TempDir()).path, 'mutants.json')
        with open(path, 'w') as f:
            json.dump({'mutants': [
                {'name': 'm1', 'duration_s': 30.5, 'killed': True}],
                'summary': {'duration_s': 31.0, 'killed': 1,
                            'survived': []}}, f)
        figures = mutant_runs.read(path)
        self.assertEqual([{'name': 'm1', 'seconds': 30.5, 'killed': True,
                           'cloud_start_s': None, 'tests_s': None}],
                         figures['mutants'])
        self.assertEqual(31.0, figures['total_s'])

    def test_report_splits_each_mutant_into_cloud_start_and_tempest(self):
        mutants = [{'name': 'm1', 'seconds': 30.5, 'killed': True,
                    'cloud_start_s': 18.0, 'tests_s': 11.5},
                   {'name': 'm2', 'seconds': 40.0, 'killed': True,
                    'cloud_start_s': 20.0, 'tests_s': 19.0}]
        fig = {'machine': {'host': 'h', 'cores': 2, 'load_start': 0.1},
               'started': 'now', 'targets': [],
               'mutants': {'mutants': mutants, 'total_s': 71.0}}
        text = report.markdown(fig)
        self.assertIn('| m1 | 30.5 | 18.0 | 11.5 | True |', text)
        self.assertIn('38.0 s of cloud starts, 30.5 s of Tempest', text)
        self.assertIn('its start is the rest alone: median 20.0 s (18.0 to '
                      '20.0 s, 2 clouds)', text)
        mutants[1]['tests_s'] = None  # a mutants.json of before the split
        text = report.markdown(fig)
        self.assertIn('| m2 | 40.0 | 20.0 | - | True |', text)
        self.assertNotIn('s of cloud starts', text)

    def test_unreadable_file_is_one_line(self):
        e = self.assertRaises(mutant_runs.MutantsJsonError,
                              mutant_runs.read, '/nonexistent/mutants.json')
        self.assertIn('/nonexistent/mutants.json', str(e))
        self.assertEqual(1, len(str(e).splitlines()))


class ClassSpansTest(testtools.TestCase):

    def test_each_class_from_its_first_start_to_its_last_stop(self):
        times = {
            'p.m.A.test_1[id-1]': {'start': 100.0, 'stop': 104.0},
            'p.m.A.test_2[id-2]': {'start': 104.5, 'stop': 110.0},
            'p.m.B.test_1[id-3]': {'start': 101.0, 'stop': 102.5}}
        self.assertEqual(
            [{'class': 'A', 'start_s': 0.0, 'seconds': 10.0, 'tests': 2},
             {'class': 'B', 'start_s': 1.0, 'seconds': 1.5, 'tests': 1}],
            subunit_times.class_spans(times))
        self.assertEqual([], subunit_times.class_spans({}))

    def test_run_keys_name_a_concurrency_other_than_the_default(self):
        self.assertEqual(['003', '000+001+003', 'all', 'all-c4'], [
            suite_runs.run_key(('003',)),
            suite_runs.run_key(('000', '001', '003')),
            suite_runs.run_key(()), suite_runs.run_key((), 4)])

    def test_the_report_lists_the_classes_of_the_run_of_every_seed(self):
        fig = {'machine': {'host': 'h', 'cores': 2, 'load_start': 0.1},
               'started': 'now', 'targets': [], 'suite_runs': {'all': {
                   'wall_s': 200.0, 'classes': [
                       {'class': 'A', 'start_s': 0.0, 'seconds': 10.0,
                        'tests': 2}]}}}
        self.assertIn('| A | 0.0 | 10.0 | 2 |', report.markdown(fig))


class ScalePhasesTest(testtools.TestCase):

    LINE = ('2026-11-27 09:%s 7986 INFO tempest.lib.common.rest_client '
            '[req-1 req-1 ] Request (ServerGroupSpreadTest:%s): %s %s '
            'http://127.0.0.1:18203/v2.1/%s 0.2s\n')

    def _log(self, *requests):
        path = self.useFixture(fixtures.TempDir()).join('tempest.log')
        with open(path, 'w') as f:
            f.write('2026-11-27 09:00:00.000 1 INFO tempest [-] started\n')
            for when, caller, status, method, url in requests:
                f.write(self.LINE % (when, caller, status, method, url))
        return path

    def _fill_and_cleanup(self):
        test, cleanup = 'test_max_server_per_host_3', '_run_cleanups'
        return [('00:01.000', test, 202, 'POST', 'servers'),
                ('00:01.500', test, 200, 'GET', 'servers/s1'),
                ('00:03.000', test, 202, 'POST', 'servers'),
                ('00:06.000', test, 202, 'POST', 'servers?x=1'),
                ('00:07.000', test, 202, 'POST', 'os-server-groups'),
                ('00:08.000', cleanup, 204, 'DELETE', 'servers/s1'),
                ('00:20.500', cleanup, 404, 'GET', 'servers/s1')]

    def test_fill_and_cleanup_are_read_from_the_tests_requests(self):
        self.assertEqual(
            {'fill_s': 5.0, 'fill_s_per_boot': 2.5, 'cleanup_s': 12.5},
            scale.phases(self._log(*self._fill_and_cleanup()), 3))

    def test_a_phase_is_never_guessed(self):
        requests = self._fill_and_cleanup()
        # One boot request short of 3H+1: the run stopped early.
        self.assertEqual({}, scale.phases(self._log(*requests), 4))
        # No cleanup request logged.
        self.assertEqual({}, scale.phases(self._log(*requests[:5]), 3))
        self.assertEqual({}, scale.phases('/nonexistent/tempest.log', 3))

    def test_the_report_gives_the_phases_or_a_dash(self):
        figures = {'started': 'now', 'machine': {
            'host': 'h', 'cores': 2, 'load_start': 1.0, 'load_end': 2.0},
            'scale': [
            {'hosts': 3, 'boots': 10, 'seconds': 12.0, 'boots_per_s': 0.83,
             'status': 'success', 'fill_s': 6.3, 'fill_s_per_boot': 0.7,
             'cleanup_s': 4.1},
            {'hosts': 8, 'boots': 25, 'seconds': 30.0, 'boots_per_s': 0.83,
             'status': 'fail'}]}
        workdir = self.useFixture(fixtures.TempDir()).path
        with open(report.write(workdir, figures)[1]) as f:
            text = f.read()
        self.assertIn('| 3 | 10 | 12.0 | 0.83 | 6.3 | 0.7 | 4.1 | success |',
                      text)
        self.assertIn('| 8 | 25 | 30.0 | 0.83 | - | - | - | fail |', text)


class ReportTest(testtools.TestCase):

    def test_files_carry_every_section_even_unmeasured(self):
        workdir = self.useFixture(fixtures.TempDir()).path
        figures = {'started': 'now', 'machine': {
            'host': 'h', 'cores': 2, 'load_start': 1.0, 'load_end': 2.0},
            'errors': ['runs: boom'], 'notes': [], 'scale': [
                {'hosts': 3, 'boots': 10, 'seconds': 20.0,
                 'boots_per_s': 0.5, 'status': 'success'}]}
        json_path, md_path = report.write(workdir, figures)
        with open(md_path) as f:
            text = f.read()
        for heading in ('## Targets', '## Cold start', '## Server boot',
                        '## Clean run', '## Gabbi cost', '## Mutant runs',
                        '## Scale', '## Steps that failed', 'bench.png',
                        '## Lease start', '## Soak'):
            self.assertIn(heading, text)
        # A step left out says so, not a table of None.
        self.assertEqual(2, text.count(report.NOT_MEASURED % 'cloud'))
        self.assertNotIn('cloud ready** | **None', text)
        with open(json_path) as f:
            self.assertEqual(len(targets.TARGETS),
                             len(json.load(f)['targets']))


class SoakTest(testtools.TestCase):

    def _run(self, run, unexpected=(), leftovers=(), rss=100.0):
        return {'run': run, 'concurrency': 2, 'wall_s': 10.0,
                'unexpected': [{'capability': c} for c in unexpected],
                'leftovers': list(leftovers),
                'memory': {'total': {'rss_mib': rss, 'peak_mib': rss + 5}}}

    def test_summary_counts_every_run_and_the_growth(self):
        out = soak.summary([self._run(1), self._run(2, ['c.a'], ['1 x']),
                            self._run(3, rss=105.0)])
        self.assertEqual((3, 1, 1), (out['runs'], len(out['unexpected']),
                                     len(out['leftovers'])))
        self.assertEqual({'run': 2, 'concurrency': 2, 'capability': 'c.a'},
                         out['unexpected'][0])
        self.assertEqual((5.0, 110.0), (out['memory']['growth_pct'],
                                        out['memory']['peak_total_mib']))
        judged = {t['target']: t for t in targets.judge({'soak': out})}
        # memory growth first to last, run 1 to 10 (not measured in 3
        # runs), leftovers, peak, verdicts (sorted by name)
        self.assertEqual([True, None, False, True, False], [
            judged[name]['met'] for name in sorted(judged)
            if name.startswith('soak')])

    def test_leak_target_reads_run_10_not_the_last(self):
        runs = [self._run(1)] + [self._run(i, rss=101.0)
                                 for i in range(2, 10)]
        runs += [self._run(10, rss=115.0), self._run(11, rss=100.0)]
        memory = soak.summary(runs)['memory']
        self.assertEqual((115.0, 15.0, 0.0), (
            memory['rss_run10_mib'], memory['growth_run10_pct'],
            memory['growth_pct']))
        judged = {t['target']: t['met'] for t in targets.judge(
            {'soak': {'memory': memory}})}
        self.assertFalse(
            judged['soak: cloud resident memory, run 1 to run 10'])
        self.assertTrue(
            judged['soak: cloud resident memory, first run to last'])

    def test_leak_target_needs_ten_runs_of_one_concurrency(self):
        runs = [self._run(i) for i in range(1, 7)]
        runs += [dict(self._run(i, rss=150.0), concurrency=4)
                 for i in range(1, 7)]
        memory = soak.summary(runs)['memory']
        self.assertEqual((None, None, 50.0), (
            memory['rss_run10_mib'], memory['growth_run10_pct'],
            memory['growth_pct']))

    def test_memory_reads_this_process_and_skips_the_gone(self):
        found = soak.memory({'me': os.getpid(), 'gone': 2 ** 22 + 7})
        self.assertEqual({'me', 'total'}, set(found))
        self.assertGreater(found['me']['rss_mib'], 1)
        self.assertGreaterEqual(found['me']['peak_mib'],
                                found['me']['rss_mib'])
        self.assertEqual(found['me']['rss_mib'], found['total']['rss_mib'])

    def test_report_lists_each_run_and_each_unexpected_verdict(self):
        run = dict(self._run(1, ['c.a']), cpu_busy_s=30.0,
                   service_cpu_s={'nova': 12.5, 'total': 12.5}, memory={
                       'nova': {'rss_mib': 60.0, 'peak_mib': 70.0},
                       'total': {'rss_mib': 60.0, 'peak_mib': 70.0}})
        out = soak.summary([run])
        out['each'] = [run]
        text = '\n'.join(report._soak_lines(out))
        self.assertIn('1 runs of the whole suite', text)
        self.assertIn('| 1 | 2 | 10.0 | None | 30.0 | 12.5 | c.a | - | '
                      '60.0 |', text)
        self.assertIn('- run 1 (concurrency 2): c.a', text)
        self.assertIn('| nova | 60.0 | 70.0 | 60.0 | 70.0 | 12.5 | 12.5 |',
                      text)
        self.assertIn('no run 10 (the ten-run growth is not measured)', text)
        self.assertIn('busy 30.0 s, 12.5 s of it in the service processes '
                      'and 17.5 s elsewhere', text)

    def test_cpu_of_a_process_counts_from_its_start(self):
        pid = os.getpid()
        before = soak.cpu_seconds({'me': pid, 'gone': 2 ** 22 + 7})
        self.assertEqual({'me'}, set(before))
        deadline = time.process_time() + 0.05
        while time.process_time() < deadline:  # burn a little CPU
            pass
        used = soak.cpu_used(before, soak.cpu_seconds({'me': pid}))
        self.assertEqual({'me', 'total'}, set(used))
        self.assertGreaterEqual(used['me'], 0.0)
        self.assertEqual(used['me'], used['total'])
        self.assertGreater(before['me'], 0.0)

    def test_cpu_split_bounds_the_wall_time_by_the_cores(self):
        run = {'cpu_busy_s': 300.0, 'wall_s': 190.0,
               'service_cpu_s': {'nova': 150.0, 'keystone': 50.0,
                                 'total': 200.0}}
        self.assertEqual(
            {'machine_s': 300.0, 'services_s': 200.0, 'rest_s': 100.0,
             'cores': 2, 'floor_s': 150.0, 'services_floor_s': 100.0,
             'wall_s': 190.0}, soak.cpu_split(run, cores=2))
        # summary() splits the first run's, when it was measured
        self.assertNotIn('cpu_first_run', soak.summary([self._run(1)]))
        self.assertEqual(100.0, soak.summary([dict(run, **self._run(1))])[
            'cpu_first_run']['rest_s'])


class OptionsTest(testtools.TestCase):

    def _bench(self, *argv):
        return main.build_parser().parse_args(['bench'] + list(argv))

    def test_unknown_step_is_refused_in_one_line(self):
        e = self.assertRaises(command.BenchError, command.Bench,
                              self._bench('--steps', 'cloud,warp'))
        self.assertIn('warp', str(e))

    def test_missing_mutants_json_is_refused(self):
        e = self.assertRaises(command.BenchError, command.Bench,
                              self._bench('--mutants-json', '/nope.json'))
        self.assertIn('/nope.json', str(e))

    def test_no_lease_round_is_refused(self):
        e = self.assertRaises(command.BenchError, command.Bench,
                              self._bench('--lease-rounds', '0'))
        self.assertIn('--lease-rounds', str(e))

    def test_scale_hosts_are_read_and_bad_ones_refused(self):
        self.assertEqual([3, 64], command.Bench(
            self._bench('--scale-hosts', '64,3')).scale_hosts)
        self.assertEqual([3, 8, 16, 64], command.Bench(
            self._bench()).scale_hosts)
        for bad in ('3,many', '0', ','):
            e = self.assertRaises(command.BenchError, command.Bench,
                                  self._bench('--scale-hosts', bad))
            self.assertIn('--scale-hosts', str(e))

    def test_bench_uses_its_own_port_base_by_default(self):
        self.assertEqual(19100, self._bench().port_base)


class ImportFloorTest(testtools.TestCase):

    class _Done(object):
        def __init__(self, stdout):
            self.stdout = stdout

    def test_each_process_imports_its_services_modules_once(self):
        from conformance_tests.cloud.services import base

        class A(base.Service):
            process, imports = 'p1', ('a.one',)

        class B(base.Service):
            process, imports = 'p1', ('b.two',)

        class C(base.Service):
            process, imports = 'p2', ('c.three',)

        class Ours(base.Service):
            process = 'p3'  # imports nothing upstream: not timed

        calls = []

        def run(argv, **kwargs):
            calls.append(argv[3:])
            return self._Done('noise\n1.5\n' if argv[3:] == ['a.one', 'b.two']
                              else 'Traceback: ImportError\n')
        floor = cold_start.import_floor([A(), B(), C(), Ours()], run=run,
                                        python='py')
        self.assertEqual([['a.one', 'b.two'], ['c.three']], calls)
        # An import that fails is no figure, not a zero.
        self.assertEqual({'p1': 1.5, 'p2': None}, floor)

    def test_report_gives_the_floor_and_where_the_rest_goes(self):
        fig = {'machine': {'host': 'h', 'cores': 2, 'load_start': 0.1},
               'started': 'now', 'cold_start': {
                   'services_s': {'nova': 9.0}, 'total_s': 12.0,
                   'import_floor_s': {'keystone': 3.0, 'nova': 5.0}}}
        fig['targets'] = []
        text = report.markdown(fig)
        self.assertIn('keystone 3.0 s, nova 5.0 s', text)
        self.assertIn('longest import (5.0 s)', text)
        self.assertIn('over the 2 cores (4.0 s)', text)


class LeaseSectionTest(testtools.TestCase):

    def test_each_profile_and_count_is_a_row_unmeasured_said(self):
        fig = {'machine': {'host': 'h', 'cores': 2, 'load_start': 0.1},
               'started': 'now', 'targets': [], 'leases': {'default': {
                   'load_before': 1.0, 'load_after': 2.0, 'by_count': {
                       '3': {'n': 2, 'p50': 4.1, 'min': 3.9, 'max': 4.1,
                             'statuses': ['ERROR']},
                       '0': {'n': 2, 'p50': 2.5, 'min': 2.4, 'max': 2.5,
                             'statuses': ['ACTIVE']}}}}}
        text = report.markdown(fig)
        rows = [line for line in text.splitlines()
                if line.startswith(('| default', '| spec-reference'))]
        self.assertEqual(
            ['| default | 0 | 2 | ACTIVE | 2.5 | 2.4 | 2.5 | load 1.0 -> '
             '2.0 |',
             '| default | 3 | 2 | ERROR | 4.1 | 3.9 | 4.1 | load 1.0 -> '
             '2.0 |',
             '| spec-reference | - | - | not measured | - | - | - | - |'],
            rows)
