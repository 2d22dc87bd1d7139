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

"""The clean run: `conformance run --seed N` for each seed (each starts
and stops its own cloud, as a user's run does), then one run of seeds
000, 001 and 003, then one of every seed, and that run again at
concurrency 4. Each run's subunit is kept: gabbi_cost reads seed 003's.

Besides its wall time, each run records its CPU, which the targets
judge it by (targets.py), not its seconds:

- the machine's busy CPU seconds while it ran (/proc/stat, every core,
  everything on the machine) and their share of the cores: a run's
  wall time over that CPU divided by the cores (the least wall time
  that much work could take) says how long it waited, on the services'
  clocks, its polls or one busy process, with cores idle;
- its own CPU seconds, every process it started, its cloud's too
  (children.DescendantsCPU), with a CPU calibration taken just before
  it (stats.calibrate) and the capabilities in scope in its report:
  its CPU per capability in units of the calibration's says whether the
  work grew, on a machine of any speed.
"""

import json
import os

from conformance_tests.bench import children
from conformance_tests.bench import stats
from conformance_tests.bench import subunit_times


def seeds():
    from conformance_tests.report import guidelines
    return sorted({guidelines.seed_number(c) for c in guidelines.load_all()})


# The seeds of the run of three (the three without a senlin or blazar
# scenario).
TARGET_SEEDS = ('000', '001', '003')


# `conformance run`'s default --concurrency, and the one the run of
# every seed is measured at besides it.
DEFAULT_CONCURRENCY = 2
WIDE_CONCURRENCY = 4


def run_key(seeds, concurrency=DEFAULT_CONCURRENCY):
    """'003', '000+001+003', or 'all' for no --seed; '-c4' follows a
    concurrency other than the default."""
    key = '+'.join(seeds) if seeds else 'all'
    if concurrency != DEFAULT_CONCURRENCY:
        key += '-c%d' % concurrency
    return key


def one_run(workdir, port_base, seeds=(), concurrency=DEFAULT_CONCURRENCY):
    key = run_key(seeds, concurrency)
    name = 'run-seed-%s' % key if seeds else 'run-%s' % key
    run_dir = os.path.join(workdir, name)
    args = ['run', '--workdir', run_dir, '--port-base', str(port_base),
            '--concurrency', str(concurrency)]
    for seed in seeds:
        args += ['--seed', seed]
    calibration = stats.calibrate()
    with children.DescendantsCPU() as own:
        cpu_before = stats.cpu_times()
        code, seconds = children.conformance(
            args, os.path.join(workdir, '%s.log' % name))
        cpu_after = stats.cpu_times()
    subunit = os.path.join(run_dir, 'results.subunit')
    times = (subunit_times.read_file(subunit)
             if os.path.exists(subunit) else {})
    return {'seed': key, 'wall_s': round(seconds, 1),
            'concurrency': concurrency,
            'cpu_busy_pct': stats.busy_pct(cpu_before, cpu_after),
            'cpu_busy_s': stats.busy_seconds(cpu_before, cpu_after),
            'cpu_run_s': own.seconds, 'still_running': own.running,
            'calibration_cpu_s': calibration['cpu_s'],
            'calibration_wall_s': calibration['wall_s'],
            'in_scope': in_scope(run_dir),
            'exit_code': code, 'tests': len(times),
            'tests_span_s': round(subunit_times.span(times), 1),
            'classes': subunit_times.class_spans(times),
            'subunit': subunit, 'log': os.path.join(workdir, '%s.log' % name)}


def in_scope(run_dir):
    """The capabilities in scope of the run's report (its seeds'), or
    None when it wrote no report."""
    try:
        with open(os.path.join(run_dir, 'report.json')) as f:
            return json.load(f)['summary']['in_scope']
    except (OSError, ValueError, KeyError, TypeError):
        return None
