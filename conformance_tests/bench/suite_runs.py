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

"""The clean run's wall time: `conformance run --seed N` for each seed
(each starts and stops its own cloud, as a user's run does), then one
run of the three seeds the 60 s clean-run target is set for, then one of
every seed, and that run again at concurrency 4. Each run's subunit is
kept: gabbi_cost reads seed 003's.

Each run also gives the share of the machine's cores that were busy
while it ran (/proc/stat, everything on the machine): a run whose cores
are half idle waits on the services' clocks and its own polls, not on
CPU, so more workers could shorten it."""

import os

from conformance_tests.bench import children
from conformance_tests.bench import stats
from conformance_tests.bench import subunit_times


def seeds():
    from conformance_tests.report import guidelines
    return sorted({guidelines.seed_number(c) for c in guidelines.load_all()})


# The seeds the 60 s clean-run target is judged on (the three without a
# senlin or blazar scenario).
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
    cpu_before = stats.cpu_times()
    code, seconds = children.conformance(
        args, os.path.join(workdir, '%s.log' % name))
    cpu_busy = stats.busy_pct(cpu_before, stats.cpu_times())
    subunit = os.path.join(run_dir, 'results.subunit')
    times = (subunit_times.read_file(subunit)
             if os.path.exists(subunit) else {})
    return {'seed': key, 'wall_s': round(seconds, 1),
            'concurrency': concurrency, 'cpu_busy_pct': cpu_busy,
            'exit_code': code, 'tests': len(times),
            'tests_span_s': round(subunit_times.span(times), 1),
            'classes': subunit_times.class_spans(times),
            'subunit': subunit, 'log': os.path.join(workdir, '%s.log' % name)}
