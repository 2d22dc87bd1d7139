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

"""Small summaries of a list of seconds."""

import math
import os
import time

#: /proc's unit of CPU time (jiffies per second).
CLOCK_TICKS = os.sysconf('SC_CLK_TCK') if hasattr(os, 'sysconf') else 100


def percentile(values, pct):
    """Nearest-rank percentile (no interpolation: a value that was seen)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, int(math.ceil(pct / 100.0 * len(ordered))))
    return ordered[rank - 1]


def summary(values):
    """{n, p50, p95, min, max} in seconds, rounded to the millisecond."""
    if not values:
        return {'n': 0, 'p50': None, 'p95': None, 'min': None, 'max': None}
    return {'n': len(values),
            'p50': round(percentile(values, 50), 3),
            'p95': round(percentile(values, 95), 3),
            'min': round(min(values), 3), 'max': round(max(values), 3)}


def load_average():
    """The 1-minute load average, or None where the OS does not say."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


# A fixed piece of pure-Python work: its time says how fast this
# machine runs Python now, so that a reader can tell a slower machine (or
# a busier one) from a slower suite when two benches differ.
CALIBRATION_ROUNDS = 20_000_000


def calibrate(rounds=CALIBRATION_ROUNDS, repeat=3):
    """The quickest of ``repeat`` runs of the fixed work, by the clock
    (wall_s: 1.00 s on the 2-core machine of doc/bench.md at load 0.5,
    about 2.5 s at load 5, when it waits for a core) and by this
    process's CPU time (cpu_s: what the work costs a core of this
    machine, whatever else runs; on a quiet machine the same figure).
    cpu_s is the unit of the bench's CPU targets (targets.py)."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        sum(i * i for i in range(rounds))
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    return {'wall_s': round(min(walls), 3), 'cpu_s': round(min(cpus), 3)}


def cpu_calibration(rounds=CALIBRATION_ROUNDS, repeat=3):
    """Seconds the quickest of ``repeat`` runs of the fixed work took by
    the clock (calibrate()'s wall_s)."""
    return calibrate(rounds, repeat)['wall_s']


def cpu_times(path='/proc/stat'):
    """(busy, total) jiffies of the whole machine, every core, or None
    where the OS does not say (no /proc)."""
    try:
        with open(path) as f:
            fields = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    # user nice system idle iowait irq softirq steal (guest time is
    # already in user): idle and iowait are a core with nothing to run.
    total = sum(fields[:8])
    return total - fields[3] - fields[4], total


def busy_seconds(before, after):
    """CPU seconds the machine's cores spent busy between two
    cpu_times(), summed over the cores (2 cores busy for 1 s: 2.0)."""
    if not before or not after:
        return None
    return round((after[0] - before[0]) / float(CLOCK_TICKS), 1)


def busy_pct(before, after):
    """Per cent of the machine's cores busy between two cpu_times()."""
    if not before or not after or after[1] <= before[1]:
        return None
    return round(100.0 * (after[0] - before[0]) / (after[1] - before[1]), 1)
