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

"""The bench's targets (issues 9 and 27), each read from bench.json's
figures.

Timing goals live here, never in timed assertions, and on 2 cores they
are ratios, not seconds: a figure over a floor measured in the same
bench on the same machine, so that neither a slower machine nor a busier
one moves the verdict. Where no sound floor is measured, the seconds are
a figure without a limit (FIGURES), printed beside the targets.

Each limit says where it comes from: a goal the issues set (kept as
set, met or not), or the figures measured on this project's 2-core
machine with a stated margin, so that a miss means the suite changed.
"""

import collections

from conformance_tests.bench import cold_start
from conformance_tests.bench import suite_runs

#: name, limit, unit, read (figures -> value or None), where the limit
#: comes from.
Target = collections.namedtuple('Target', 'name limit unit read source')

#: name, unit, read, why it has no limit.
Figure = collections.namedtuple('Figure', 'name unit read why')


def _get(figures, *path):
    for key in path:
        if not isinstance(figures, dict) or figures.get(key) is None:
            return None
        figures = figures[key]
    return figures


def _positive(*values):
    return all(isinstance(v, (int, float)) and v > 0 for v in values)


def _scale_point(figures, hosts):
    for point in figures.get('scale') or []:
        # A scenario that failed filled nothing: its time is no figure.
        if point.get('hosts') == hosts and point.get('status') == 'pass':
            return point
    return None


def _scale_at(figures, hosts):
    return (_scale_point(figures, hosts) or {}).get('seconds')


def _per_boot_ratio(figures, hosts, base):
    """A boot's cost at ``hosts`` over its cost at ``base`` (each point's
    time over the boots it made)."""
    per_boot = []
    for h in (hosts, base):
        point = _scale_point(figures, h) or {}
        if not _positive(point.get('seconds'), point.get('boots')):
            return None
        per_boot.append(point['seconds'] / point['boots'])
    return round(per_boot[0] / per_boot[1], 2)


def _cold_ratio(figures):
    cold = figures.get('cold_start') or {}
    floor = cold_start.floor_bound(
        cold.get('import_floor_s'),
        (figures.get('machine') or {}).get('cores'))
    total = cold.get('total_s')
    if not floor or total is None:
        return None
    return round(total / floor, 2)


def _good_run(figures, key):
    """The clean run ``key`` if it ended as expected (exit 0): a run that
    did not is no good run's figure."""
    run = _get(figures, 'suite_runs', key)
    if not isinstance(run, dict) or run.get('exit_code') != 0:
        return None
    return run


def wall_over_floor(run, cores):
    """A run's wall time over its CPU floor: the machine's busy CPU
    seconds during the run (every process, every core) divided by the
    cores, the least wall time that work could take. 1.0: every core
    busy throughout; 2.0 on 2 cores: one core's worth idle throughout,
    the run waiting. CPU that other work took counts as busy, so a busy
    machine moves the figure towards 1, never past the limit. None when
    a figure is missing or the run did not end as expected."""
    if not run or run.get('exit_code') != 0:
        return None
    wall, busy = run.get('wall_s'), run.get('cpu_busy_s')
    if not _positive(wall, busy, cores):
        return None
    return round(wall / (busy / float(cores)), 2)


def cpu_per_capability(run):
    """A run's own CPU seconds (every process it started, its cloud's
    included) per capability in its scope, in units of the CPU
    calibration taken just before it (stats.calibrate's cpu_s: the CPU
    time a fixed pure-Python sum takes on this machine), so that a
    slower CPU, which takes longer for both, gives the same figure.
    None when a figure is missing or the run did not end as expected."""
    if not run or run.get('exit_code') != 0:
        return None
    own, unit, scope = (run.get('cpu_run_s'), run.get('calibration_cpu_s'),
                        run.get('in_scope'))
    if not _positive(own, unit, scope):
        return None
    return round(own / unit / scope, 2)


def _run_wall_over_floor(key):
    return lambda f: wall_over_floor(_good_run(f, key),
                                     _get(f, 'machine', 'cores'))


def _run_cpu_per_capability(key):
    return lambda f: cpu_per_capability(_good_run(f, key))


#: A boot at H hosts against one at H=3 (the issues' goal for H=64).
PER_BOOT_LIMIT = 1.3

ALL = suite_runs.run_key(())
ALL_WIDE = suite_runs.run_key((), suite_runs.WIDE_CONCURRENCY)
THREE = suite_runs.run_key(suite_runs.TARGET_SEEDS)

# Measured wall / CPU floor of the run of every seed on this project's
# 2-core machine (its cores' busy share, /proc/stat, in the bench's runs
# step and the soak's runs of every seed, over the trees of the last
# months): 1.51-1.76 at concurrency 2, 1.29-1.49 at 4.
_FLOOR_SOURCE = ('measured %s on 2 cores (cores %s busy); limit about 15%% '
                 'over the highest')
# Measured CPU of the run of every seed: the machine's 212.1-216.0 s (the
# soak's runs on a running cloud, both concurrencies) plus a cold start's
# 16 s, over its 55 capabilities, at a calibration of 1.00-1.15 s: 3.6 to
# 4.2 calibrations a capability. The machine's CPU is an upper bound of
# the run's own.
_CPU_SOURCE = ('measured 3.6-4.2 (the machine\'s 212-216 s of CPU for a run '
               'plus a cold start\'s 16 s, 55 capabilities, calibration '
               '1.00-1.15 s); limit about 20% over the highest')

TARGETS = (
    Target('clean run of every seed: wall / its CPU floor', 2.0, 'x',
           _run_wall_over_floor(ALL),
           _FLOOR_SOURCE % ('1.51-1.76', '57-66%')),
    Target('clean run of every seed at concurrency 4: wall / its CPU '
           'floor', 1.7, 'x', _run_wall_over_floor(ALL_WIDE),
           _FLOOR_SOURCE % ('1.29-1.49', '67-78%')),
    Target('clean run of every seed: its CPU per capability in scope',
           5.0, 'calibrations', _run_cpu_per_capability(ALL), _CPU_SOURCE),
    Target('clean run of every seed at concurrency 4: its CPU per '
           'capability in scope', 5.0, 'calibrations',
           _run_cpu_per_capability(ALL_WIDE), _CPU_SOURCE),
    Target('cold start / its import floor', 1.3, 'x', _cold_ratio,
           'the issues\' goal, kept; measured 2.1-3.0'),
    Target('seconds per boot at H=16 / at H=3', PER_BOOT_LIMIT, 'x',
           lambda f: _per_boot_ratio(f, 16, 3),
           'measured 0.97 and 1.05; the H=64 goal\'s limit, about 24% '
           'over the highest'),
    Target('seconds per boot at H=64 / at H=3', PER_BOOT_LIMIT, 'x',
           lambda f: _per_boot_ratio(f, 64, 3),
           'the issues\' goal, kept; measured 1.64 at best'),
    Target('our gabbi cost per request / upstream\'s', 1.5, 'x',
           lambda f: _get(f, 'gabbi', 'ratio'),
           'the issues\' goal, kept; measured 4.93 (1.03 per HTTP '
           'request)'),
    # The soak (soak.py): every run on one cloud, concurrency 2 then 4.
    # Counts and memory, not time.
    Target('soak: verdicts not as expected, every run', 0, 'verdicts',
           lambda f: _count(f, 'unexpected'), 'none: a flaky test'),
    Target('soak: objects left behind, every run', 0, 'objects',
           lambda f: _count(f, 'leftovers'),
           'none: a run leaves the cloud as it found it'),
    Target('soak: cloud resident memory, run 1 to run 10', 10, '%',
           lambda f: _get(f, 'soak', 'memory', 'growth_run10_pct'),
           'the issues\' leak goal; measured 7.9-8.5'),
    Target('soak: cloud resident memory, first run to last', 10, '%',
           lambda f: _get(f, 'soak', 'memory', 'growth_pct'),
           'the issues\' leak goal; measured 11.2-11.5 over 20 runs'),
    Target('soak: sum of the service processes\' peak resident memory',
           1536, 'MiB', lambda f: _get(f, 'soak', 'memory',
                                       'peak_total_mib'),
           'the issues\' goal; measured 968-1019'),
)

# Seconds with no sound floor measured beside them: figures of this
# machine on this day, printed, never judged.
FIGURES = (
    Figure('boot p50 (suite waiter, POST to ACTIVE)', 's',
           lambda f: _get(f, 'boots', 'active_waiter', 'p50'),
           'no floor is measured: the 20 ms loop polls the nova process '
           'that boots the server and so slows the boot it times, and '
           'the waiter\'s figure falls on its back-off\'s poll times'),
    Figure('cold start to ready', 's',
           lambda f: _get(f, 'cold_start', 'total_s'),
           'judged against its import floor'),
    Figure('clean run of seeds 000, 001, 003, cloud start included', 's',
           lambda f: _get(f, 'suite_runs', THREE, 'wall_s'),
           'its wall / CPU floor and CPU per capability are in the clean '
           'run\'s table'),
    Figure('clean run of every seed, cloud start included', 's',
           lambda f: _get(f, 'suite_runs', ALL, 'wall_s'),
           'judged as wall / CPU floor and CPU per capability'),
    Figure('K=3 fill-and-overflow at H=16', 's', lambda f: _scale_at(f, 16),
           'judged per boot against H=3'),
)


def _count(figures, key):
    found = _get(figures, 'soak', key)
    return None if found is None else len(found)


def judge(figures):
    """[{target, limit, unit, measured, met, source}] (met None: not
    measured, which is no verdict)."""
    out = []
    for target in TARGETS:
        value = target.read(figures)
        out.append({'target': target.name, 'limit': target.limit,
                    'unit': target.unit, 'measured': value,
                    'met': None if value is None else value <= target.limit,
                    'source': target.source})
    return out


def informational(figures):
    """[{figure, unit, measured, why}]: the seconds without a limit."""
    return [{'figure': f.name, 'unit': f.unit, 'measured': f.read(figures),
             'why': f.why} for f in FIGURES]
