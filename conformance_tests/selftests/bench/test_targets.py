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

"""bench/targets.py: each ratio held to its definition, from figures
with known numbers; a missing figure gives no verdict."""

import json
import os
import subprocess
import sys
import textwrap

import fixtures
import testtools

from conformance_tests.bench import children
from conformance_tests.bench import report
from conformance_tests.bench import stats
from conformance_tests.bench import suite_runs
from conformance_tests.bench import targets

ALL_C2 = 'clean run of every seed: wall / its CPU floor'
ALL_C4 = 'clean run of every seed at concurrency 4: wall / its CPU floor'
CPU_C2 = 'clean run of every seed: its CPU per capability in scope'
CPU_C4 = ('clean run of every seed at concurrency 4: its CPU per capability '
          'in scope')
H16 = 'seconds per boot at H=16 / at H=3'
H64 = 'seconds per boot at H=64 / at H=3'
COLD = 'cold start / its import floor'


def _run(**figures):
    run = {'wall_s': 150.0, 'cpu_busy_s': 200.0, 'cpu_run_s': 220.0,
           'calibration_cpu_s': 1.1, 'in_scope': 55, 'exit_code': 0}
    run.update(figures)
    return run


def _judged(figures):
    return {t['target']: t for t in targets.judge(figures)}


class WallOverFloorTest(testtools.TestCase):

    def test_wall_over_the_machines_cpu_over_its_cores(self):
        # 200 s of CPU on 2 cores: no less than 100 s; it took 150 s.
        self.assertEqual(1.5, targets.wall_over_floor(_run(), 2))
        # The same CPU on 4 cores: no less than 50 s.
        self.assertEqual(3.0, targets.wall_over_floor(_run(), 4))
        # Every core busy throughout: the floor itself.
        self.assertEqual(1.0, targets.wall_over_floor(
            _run(wall_s=100.0), 2))

    def test_other_work_on_the_machine_moves_it_towards_one(self):
        quiet = targets.wall_over_floor(_run(), 2)
        busy = targets.wall_over_floor(_run(cpu_busy_s=280.0), 2)
        self.assertLess(busy, quiet)
        self.assertGreaterEqual(busy, 1.0)

    def test_a_missing_figure_or_a_failed_run_is_no_figure(self):
        for run in (_run(cpu_busy_s=None), _run(wall_s=None),
                    _run(cpu_busy_s=0.0), _run(exit_code=1),
                    _run(exit_code=None), None, {}):
            self.assertIsNone(targets.wall_over_floor(run, 2), run)
        self.assertIsNone(targets.wall_over_floor(_run(), None))

    def test_each_run_of_every_seed_is_judged_on_its_own(self):
        judged = _judged({'machine': {'cores': 2}, 'suite_runs': {
            'all': _run(wall_s=200.0),                 # 200 / 100 = 2.0
            'all-c4': _run(wall_s=180.0)}})            # 180 / 100 = 1.8
        self.assertEqual((2.0, True), (judged[ALL_C2]['measured'],
                                       judged[ALL_C2]['met']))
        self.assertEqual((1.8, False), (judged[ALL_C4]['measured'],
                                        judged[ALL_C4]['met']))


class CpuPerCapabilityTest(testtools.TestCase):

    def test_own_cpu_over_the_calibration_over_the_capabilities(self):
        # 220 s / 1.1 s a calibration = 200 calibrations, over 55.
        self.assertEqual(3.64, targets.cpu_per_capability(_run()))
        self.assertEqual(4.0, targets.cpu_per_capability(
            _run(in_scope=50)))

    def test_a_slower_cpu_gives_the_same_figure(self):
        slower = _run(cpu_run_s=440.0, calibration_cpu_s=2.2)
        self.assertEqual(targets.cpu_per_capability(_run()),
                         targets.cpu_per_capability(slower))

    def test_the_machines_cpu_is_not_the_runs(self):
        # Other work on the machine is in cpu_busy_s only.
        self.assertEqual(targets.cpu_per_capability(_run()),
                         targets.cpu_per_capability(_run(cpu_busy_s=900.0)))

    def test_a_missing_figure_or_a_failed_run_is_no_figure(self):
        for run in (_run(cpu_run_s=None), _run(calibration_cpu_s=None),
                    _run(in_scope=None), _run(in_scope=0),
                    _run(calibration_cpu_s=0.0), _run(exit_code=2), None):
            self.assertIsNone(targets.cpu_per_capability(run), run)

    def test_judged_against_its_limit(self):
        judged = _judged({'suite_runs': {
            'all': _run(cpu_run_s=275.0, calibration_cpu_s=1.0),  # 5.0
            'all-c4': _run(cpu_run_s=281.6, calibration_cpu_s=1.0)}})
        self.assertEqual((5.0, True), (judged[CPU_C2]['measured'],
                                       judged[CPU_C2]['met']))
        self.assertEqual((5.12, False), (judged[CPU_C4]['measured'],
                                         judged[CPU_C4]['met']))


class JudgeTest(testtools.TestCase):

    def test_nothing_measured_is_no_verdict_not_a_pass(self):
        for t in targets.judge({}):
            self.assertEqual((None, None), (t['measured'], t['met']),
                             t['target'])

    def test_runs_without_their_cpu_are_not_judged(self):
        # A bench.json of before the CPU figures: walls only.
        judged = _judged({'machine': {'cores': 2}, 'suite_runs': {
            'all': {'wall_s': 80.0, 'exit_code': 0},
            'all-c4': {'wall_s': 70.0, 'exit_code': 0}}})
        for name in (ALL_C2, ALL_C4, CPU_C2, CPU_C4):
            self.assertIsNone(judged[name]['met'], name)

    def test_every_target_says_where_its_limit_comes_from(self):
        for t in targets.TARGETS:
            self.assertTrue(t.source, t.name)
        self.assertEqual(len(targets.TARGETS),
                         len({t.name for t in targets.TARGETS}))

    def test_no_timing_target_is_in_seconds(self):
        self.assertEqual(set(), {t.name for t in targets.TARGETS
                                 if t.unit == 's'})

    def test_scale_and_cold_start_ratios(self):
        figures = {'cold_start': {'total_s': 6.5, 'import_floor_s': {
            'nova': 4.0, 'keystone': 3.0, 'glance': 3.0}},
            'machine': {'cores': 2},
            'scale': [{'hosts': 3, 'seconds': 10.0, 'boots': 10,
                       'status': 'pass'},
                      {'hosts': 16, 'seconds': 61.25, 'boots': 49,
                       'status': 'pass'},
                      {'hosts': 64, 'seconds': 386.0, 'boots': 193,
                       'status': 'pass'}]}
        judged = _judged(figures)
        # floor: max(4.0, 10.0 / 2) = 5.0
        self.assertEqual((1.3, True), (judged[COLD]['measured'],
                                       judged[COLD]['met']))
        # 61.25 / 49 = 1.25 s a boot over 1.0
        self.assertEqual((1.25, True), (judged[H16]['measured'],
                                        judged[H16]['met']))
        self.assertEqual((2.0, False), (judged[H64]['measured'],
                                        judged[H64]['met']))

    def test_a_failed_scale_point_is_not_measured(self):
        figures = {'scale': [{'hosts': 3, 'seconds': 10.0, 'boots': 10,
                              'status': 'pass'},
                             {'hosts': 16, 'seconds': 46.0, 'boots': 49,
                              'status': 'fail'}]}
        self.assertIsNone(_judged(figures)[H16]['met'])
        seconds = {f['figure']: f['measured']
                   for f in targets.informational(figures)}
        self.assertIsNone(seconds['K=3 fill-and-overflow at H=16'])


class InformationalTest(testtools.TestCase):

    def test_seconds_are_figures_with_a_reason_and_no_verdict(self):
        figures = {'boots': {'active_waiter': {'p50': 0.45}},
                   'cold_start': {'total_s': 9.5},
                   'suite_runs': {'000+001+003': {'wall_s': 52.3},
                                  'all': {'wall_s': 166.1}},
                   'scale': [{'hosts': 16, 'seconds': 30.9,
                              'status': 'pass'}]}
        found = targets.informational(figures)
        self.assertEqual([0.45, 9.5, 52.3, 166.1, 30.9],
                         [f['measured'] for f in found])
        for f in found:
            self.assertEqual('s', f['unit'])
            self.assertTrue(f['why'])
            self.assertNotIn('met', f)

    def test_the_report_prints_targets_then_figures(self):
        fig = {'machine': {'host': 'h', 'cores': 2, 'load_start': 0.1},
               'started': 'now', 'suite_runs': {
                   'all': dict(_run(), concurrency=2, tests=300,
                               tests_span_s=140.0, cpu_busy_pct=66.7)}}
        workdir = self.useFixture(fixtures.TempDir()).path
        json_path, md_path = report.write(workdir, fig)
        with open(md_path) as f:
            text = f.read()
        self.assertIn('| %s | 2.0 x | 1.5 x | yes |' % ALL_C2, text)
        self.assertIn('| %s | 5.0 calibrations | 3.64 calibrations | yes |'
                      % CPU_C2, text)
        self.assertIn('| %s | 1.7 x | not measured | - |' % ALL_C4, text)
        self.assertIn('| clean run of every seed, cloud start included | '
                      '150.0 s |', text)
        self.assertIn('| all | 2 | 150.0 | 300 | 140.0 | 66.7 | 200.0 | '
                      '220.0 | 1.5 | 55 | 3.64 | 0 |', text)
        with open(json_path) as f:
            written = json.load(f)
        self.assertEqual(len(targets.FIGURES), len(written['informational']))


class RunCpuTest(testtools.TestCase):

    def test_calibration_by_the_clock_and_by_cpu_time(self):
        found = stats.calibrate(rounds=200_000, repeat=2)
        self.assertEqual({'wall_s', 'cpu_s'}, set(found))
        self.assertGreater(found['cpu_s'], 0)
        self.assertLess(found['cpu_s'], 1)

    def test_an_orphans_cpu_is_the_runs(self):
        # The child forks a grandchild that burns CPU after the child has
        # exited, as a cloud's service outlives the zygote that forked it.
        script = textwrap.dedent('''
            import os, time
            if os.fork() == 0:
                time.sleep(0.2)
                end = time.process_time() + 0.4
                while time.process_time() < end:
                    pass
                os._exit(0)
            os._exit(0)
            ''')
        with children.DescendantsCPU(grace=30) as own:
            subprocess.check_call([sys.executable, '-c', script])
        self.assertEqual([], own.running)
        self.assertGreaterEqual(own.seconds, 0.4)

    def test_a_descendant_still_running_leaves_no_figure(self):
        script = textwrap.dedent('''
            import os, time
            if os.fork() == 0:
                time.sleep(1)
                os._exit(0)
            os._exit(0)
            ''')
        with children.DescendantsCPU(grace=0.2) as own:
            subprocess.check_call([sys.executable, '-c', script])
        self.assertEqual(1, len(own.running))
        self.assertIsNone(own.seconds)
        os.waitpid(own.running[0], 0)  # ours now: reap it

    def test_in_scope_is_the_reports(self):
        run_dir = self.useFixture(fixtures.TempDir()).path
        self.assertIsNone(suite_runs.in_scope(run_dir))
        with open(os.path.join(run_dir, 'report.json'), 'w') as f:
            json.dump({'capabilities': [], 'summary': {'in_scope': 9}}, f)
        self.assertEqual(9, suite_runs.in_scope(run_dir))
