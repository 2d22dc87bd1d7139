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

"""What `conformance bench` (cmd/bench.py) measures, then writes:
bench.json, bench.md, bench.png.

Steps, one cloud at a time on --port-base: the cloud with today's
layout (cold start, boot latency, the scale point H=3), the clouds of
the other scale points, the clean runs, the gabbi comparison, the mutant
run. A step that fails is recorded (its error in bench.json and bench.md)
and the next one runs; the bench exits 1 if any did, 0 otherwise. A
target not met is a figure, not a failure.
"""

import datetime
import json
import os
import socket
import subprocess
import sys
import time

from conformance_tests.bench import children
from conformance_tests.bench import cold_start
from conformance_tests.bench import gabbi_cost
from conformance_tests.bench import leases as lease_meter
from conformance_tests.bench import mutant_runs
from conformance_tests.bench import plot
from conformance_tests.bench import report
from conformance_tests.bench import scale
from conformance_tests.bench import soak
from conformance_tests.bench import stats
from conformance_tests.bench import suite_runs
from conformance_tests.bench import targets
from conformance_tests.cloud import launcher
from conformance_tests.cloud import profiles
from conformance_tests.cloud import services
from conformance_tests.common import ui

STEPS = ('cloud', 'leases', 'scale', 'runs', 'gabbi', 'mutants', 'soak')
BOOT_KEYS = ('active_waiter', 'active_tight', 'error_waiter', 'error_tight')


class BenchError(Exception):
    """Bad options; one line saying what to fix."""


def parse_hosts(text):
    """'3,8,64' -> [3, 8, 64]; one line saying what to fix otherwise."""
    try:
        hosts = sorted({int(h) for h in text.split(',') if h.strip()})
    except ValueError:
        raise BenchError('--scale-hosts: %r is not a comma-separated list '
                         'of host counts (e.g. 3,8,16,64)' % text)
    if not hosts or hosts[0] < 1:
        raise BenchError('--scale-hosts: give at least one count, each at '
                         'least 1')
    return hosts


class Bench(object):
    def __init__(self, args):
        self.workdir = os.path.abspath(args.workdir)
        self.files = os.path.join(self.workdir, 'bench')
        self.port_base = args.port_base
        self.boots = args.boots
        self.lease_rounds = args.lease_rounds
        self.mutants_json = args.mutants_json
        self.soak_runs = args.soak_runs
        self.steps = [s.strip() for s in args.steps.split(',') if s.strip()]
        unknown = sorted(set(self.steps) - set(STEPS))
        if unknown:
            raise BenchError('--steps: unknown step(s) %s (known: %s)' % (
                ', '.join(unknown), ', '.join(STEPS)))
        self.scale_hosts = parse_hosts(args.scale_hosts)
        if self.boots < 1:
            raise BenchError('--boots must be at least 1')
        if self.soak_runs < 1:
            raise BenchError('--soak-runs must be at least 1')
        if self.lease_rounds < 1:
            raise BenchError('--lease-rounds must be at least 1')
        if self.mutants_json and not os.path.isfile(self.mutants_json):
            raise BenchError('--mutants-json %s: no such file' %
                             self.mutants_json)
        self.started = time.monotonic()
        self.figures = {
            'started': datetime.datetime.now(datetime.timezone.utc)
            .strftime('%Y-%m-%d %H:%M:%S UTC'),
            'machine': {'host': socket.gethostname(),
                        'cores': os.cpu_count(),
                        'python': sys.version.split()[0],
                        'load_start': stats.load_average()},
            'steps': self.steps, 'errors': [], 'notes': [], 'scale': []}

    def progress(self, line):
        ui.say('bench [%4.0f s, load %s] %s' % (
            time.monotonic() - self.started, stats.load_average(), line))

    def step(self, name, action):
        """Run one step, recording its load; a failure is recorded and
        the bench goes on."""
        load = stats.load_average()
        try:
            result = action()
        except Exception as e:  # every step failure goes into the report
            message = '%s: %s' % (name, str(e).splitlines()[0] if str(e)
                                  else type(e).__name__)
            self.figures['errors'].append(message)
            self.progress('FAILED ' + message)
            return None
        if isinstance(result, dict):
            result.setdefault('load_before', load)
            result.setdefault('load_after', stats.load_average())
        return result

    # -- steps -------------------------------------------------------------
    def cloud_steps(self):
        """Today's layout: cold start, boots, and the scale point H=3."""
        ready = cold_start.ReadyLines(self.progress)
        self.progress('starting the embedded cloud (today\'s layout)')
        cloud = launcher.EmbeddedCloud(
            os.path.join(self.files, 'cloud-h3'), port_base=self.port_base,
            say=ready)
        cloud.up()
        try:
            self.figures['cold_start'] = dict(
                ready.figures(), load_before=self.figures['machine'][
                    'load_start'], load_after=stats.load_average(),
                other_layouts=[])
            if 'cloud' in self.steps:
                self.figures['boots'] = self.step(
                    'boots', lambda: self.boot_latency(cloud))
            if 'leases' in self.steps:
                self.figures['leases'] = {'default': self.step(
                    'leases (default)',
                    lambda: self.lease_starts(cloud, profiles.DEFAULT))}
            if 'scale' in self.steps and 3 in self.scale_hosts:
                self.scale_point(cloud, 3)
        finally:
            cloud.down(quiet=True)
        if 'cloud' in self.steps:
            # After the cloud is down, so nothing else competes for a core.
            self.progress('timing each service process\'s imports alone')
            floor = self.step('import floor', lambda: {
                'import_floor_s': cold_start.import_floor(services.all())})
            if floor:
                self.figures['cold_start'].update(floor)

    def measure_child(self, name, cloud, count, log_name=None):
        """The JSON figures of ``python -m conformance_tests.bench.<name>``
        run on ``cloud`` (measure_child.py)."""
        out = subprocess.run(
            [sys.executable, '-m', 'conformance_tests.bench.' + name,
             cloud.workspace, str(count)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=1800)
        if out.returncode:
            log = os.path.join(self.files, (log_name or name) + '.log')
            with open(log, 'wb') as f:
                f.write(out.stdout + b'\n' + out.stderr)
            raise children.ChildError('%s measurement exited %d; see %s'
                                      % (name, out.returncode, log))
        return json.loads(out.stdout)

    def boot_latency(self, cloud):
        self.progress('boot latency: %d rounds of 4 boots' % self.boots)
        raw = self.measure_child('boots', cloud, self.boots)
        figures = {k: v for k, v in raw.items() if k != 'samples'}
        figures['samples'] = raw['samples']
        for key in BOOT_KEYS:
            figures[key] = stats.summary(raw['samples'][key])
        self.progress('boot p50: ACTIVE %s s (waiter) / %s s (20 ms loop); '
                      'ERROR %s s / %s s' % tuple(
                          figures[k]['p50'] for k in BOOT_KEYS))
        return figures

    def lease_starts(self, cloud, profile):
        """Lease from `now` to a stable status over 0, 1 and 3
        preemptibles (leases.py), on a cloud of ``profile``."""
        counts = ', '.join(str(k) for k in lease_meter.PREEMPTIBLES)
        self.progress('lease start (%s profile): %d rounds of leases over '
                      '%s preemptibles' % (profile, self.lease_rounds,
                                           counts))
        raw = self.measure_child('leases', cloud, self.lease_rounds,
                                 log_name='leases-' + profile)
        figures = dict(raw, profile=profile, by_count={})
        for count, samples in sorted(raw['samples'].items()):
            statuses = sorted({s['status'] for s in samples})
            figures['by_count'][count] = dict(
                stats.summary([s['seconds'] for s in samples]),
                statuses=statuses)
            self.progress('  %s preemptible(s): %s in %s s (p50)' % (
                count, '/'.join(statuses),
                figures['by_count'][count]['p50']))
        return figures

    def scale_point(self, cloud, hosts):
        self.progress('scale: K=3 fill and overflow at H=%d' % hosts)
        point = self.step('scale H=%d' % hosts, lambda: scale.measure(
            cloud, hosts, self.files, self.progress))
        if point:
            self.figures['scale'].append(point)
            if point['status'] != 'pass':
                self.figures['errors'].append(
                    'scale H=%d: the scenario ended %s; see %s' % (
                        hosts, point['status'], os.path.join(
                            self.files, 'scale-h%d.subunit' % hosts)))
            self.progress('  H=%d: %s s, %s boots/s (%s)%s' % (
                hosts, point['seconds'], point['boots_per_s'],
                point['status'], '; fill %s s a boot, cleanup %s s' % (
                    point['fill_s_per_boot'], point['cleanup_s'])
                if 'fill_s' in point else ''))

    def reference_leases(self):
        """The lease starts again on a cloud with the spec references
        (blazar waits for the evicted servers to be gone)."""
        profile = 'spec-reference'
        self.progress('starting the embedded cloud (--profile %s)' % profile)
        cloud = launcher.EmbeddedCloud(
            os.path.join(self.files, 'cloud-reference'),
            port_base=self.port_base, say=lambda line: None,
            **profiles.settings(profile))
        cloud.up()
        try:
            return self.lease_starts(cloud, profile)
        finally:
            cloud.down(quiet=True)

    def other_scale_points(self):
        for hosts in self.scale_hosts:
            if hosts == 3:
                continue
            ready = cold_start.ReadyLines(lambda line: None)
            self.progress('starting a cloud with %d zone hosts' % hosts)
            cloud = self.step('cloud with %d hosts' % hosts,
                              lambda: scale.start_cloud(
                                  self.files, self.port_base, hosts, ready))
            if cloud is None:
                continue
            try:
                self.figures.setdefault('cold_start', {}).setdefault(
                    'other_layouts', []).append(
                        {'hosts': hosts, 'total_s': ready.total})
                self.scale_point(cloud, hosts)
            finally:
                cloud.down(quiet=True)

    def clean_runs(self):
        runs = {}
        default = suite_runs.DEFAULT_CONCURRENCY
        plan = ([((seed,), default) for seed in suite_runs.seeds()] +
                [(suite_runs.TARGET_SEEDS, default), ((), default),
                 ((), suite_runs.WIDE_CONCURRENCY)])
        for seeds, concurrency in plan:
            key = suite_runs.run_key(seeds, concurrency)
            self.progress('clean run %s%s' % (
                ' '.join('--seed %s' % s for s in seeds) if seeds
                else 'of every seed', '' if concurrency == default
                else ' at concurrency %d' % concurrency))
            result = self.step('clean run %s' % key,
                               lambda: suite_runs.one_run(
                                   self.files, self.port_base, seeds,
                                   concurrency))
            if result:
                runs[result['seed']] = result
                self.progress(
                    '  %s s wall, %d tests, exit %d, cores %s%% busy; wall '
                    '/ CPU floor %s, CPU a capability %s calibrations' % (
                        result['wall_s'], result['tests'],
                        result['exit_code'], result['cpu_busy_pct'],
                        targets.wall_over_floor(
                            result, self.figures['machine']['cores']),
                        targets.cpu_per_capability(result)))
                if result['exit_code']:
                    self.figures['errors'].append(
                        'clean run %s exited %d; see %s' % (
                            result['seed'], result['exit_code'],
                            result['log']))
        self.figures['suite_runs'] = runs

    def gabbi(self):
        run = self.figures.get('suite_runs', {}).get('003')
        if not run or not os.path.exists(run['subunit']):
            raise children.ChildError(
                'no seed 003 run to read our gabbi times from (step runs)')
        ours = gabbi_cost.ours(run['subunit'])
        self.progress('upstream placement gabbits (%s)' %
                      gabbi_cost.UPSTREAM_MODULE)
        upstream = gabbi_cost.upstream(self.files)
        if 'error' in upstream:
            raise children.ChildError(upstream['error'])
        ratio = gabbi_cost.compare(ours, upstream)
        self.progress('gabbi per request: ours %s ms, upstream %s ms '
                      '(x%s)' % (ours['per_request_ms'],
                                 upstream['per_request_ms'], ratio))
        return {'ours': ours, 'upstream': upstream, 'ratio': ratio,
                'how': gabbi_cost.__doc__.split('\n\n', 1)[1].replace(
                    '\n', ' ').strip()}

    def mutants(self):
        if self.mutants_json:
            self.progress('mutant times from %s' % self.mutants_json)
            return mutant_runs.read(self.mutants_json)
        self.progress('mutant run (`conformance mutants`)')
        figures = mutant_runs.run(self.files, self.port_base)
        self.progress('  %s mutants in %s s' % (
            len(figures['mutants']), figures['total_s']))
        return figures

    def soak(self):
        """soak.py: the suite soak_runs times at each concurrency on one
        cloud, as a vendor runs it."""
        self.progress('soak: starting one embedded cloud for every run')
        cloud = launcher.EmbeddedCloud(
            os.path.join(self.files, 'cloud-soak'), port_base=self.port_base,
            say=lambda line: None)
        cloud.up()
        conf = os.path.join(cloud.workspace, 'etc', 'tempest.conf')
        pids = {n: p.pid for n, p in cloud.processes.items()}
        runs = []
        total = self.soak_runs * len(soak.CONCURRENCIES)
        try:
            for concurrency in soak.CONCURRENCIES:
                for index in range(1, self.soak_runs + 1):
                    load = stats.load_average()
                    cpu_before = soak.cpu_seconds(pids)
                    result = soak.one_run(conf, self.files, concurrency,
                                          index)
                    result['service_cpu_s'] = soak.cpu_used(
                        cpu_before, soak.cpu_seconds(pids))
                    result['memory'] = soak.memory(pids)
                    result['load_before'] = load
                    result['load_after'] = stats.load_average()
                    runs.append(result)
                    self.progress(
                        'soak run %d of %d (concurrency %d): %s s, %s; %s; '
                        'cloud resident %s MiB' % (
                            len(runs), total, concurrency, result['wall_s'],
                            '%d not as expected' % len(result['unexpected'])
                            if result['unexpected'] else 'as expected',
                            'left behind %s' % ', '.join(result['leftovers'])
                            if result['leftovers'] else 'nothing left',
                            result['memory']['total']['rss_mib']))
        finally:
            cloud.down(quiet=True)
        figures = soak.summary(runs)
        figures['each'] = runs
        return figures

    def calibrate(self, when):
        """The CPU calibration (stats.calibrate), by the clock and by CPU
        time, into the machine's figures."""
        found = stats.calibrate()
        self.figures['machine']['cpu_calibration_%s_s' % when] = (
            found['wall_s'])
        self.figures['machine']['cpu_calibration_%s_cpu_s' % when] = (
            found['cpu_s'])

    # -- all -------------------------------------------------------------
    def run(self):
        os.makedirs(self.files, exist_ok=True)
        self.calibrate('start')
        if {'cloud', 'leases', 'scale'} & set(self.steps):
            self.step('cloud', self.cloud_steps)
        if 'leases' in self.steps:
            self.figures.setdefault('leases', {})['spec-reference'] = (
                self.step('leases (spec-reference)', self.reference_leases))
        if 'scale' in self.steps:
            self.other_scale_points()
        if 'runs' in self.steps or 'gabbi' in self.steps:
            self.clean_runs()
        if 'gabbi' in self.steps:
            self.figures['gabbi'] = self.step('gabbi', self.gabbi)
        if 'mutants' in self.steps:
            self.figures['mutants'] = self.step('mutants', self.mutants)
        if 'soak' in self.steps:
            self.figures['soak'] = self.step('soak', self.soak)
        self.figures['machine']['load_end'] = stats.load_average()
        self.calibrate('end')
        self.figures['duration_s'] = round(time.monotonic() - self.started,
                                           1)
        why_not = plot.write(os.path.join(self.workdir, 'bench.png'),
                             self.figures)
        if why_not:
            self.figures['notes'].append(why_not)
        return report.write(self.workdir, self.figures)
