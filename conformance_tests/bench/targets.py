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
figures."""

from conformance_tests.bench import cold_start
from conformance_tests.bench import suite_runs


def _get(figures, *path):
    for key in path:
        if not isinstance(figures, dict) or figures.get(key) is None:
            return None
        figures = figures[key]
    return figures


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
        if not point.get('seconds') or not point.get('boots'):
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


# (name, limit, unit, how to read the figure)
TARGETS = (
    ('boot p50 (suite waiter, POST to ACTIVE)', 0.5, 's',
     lambda f: _get(f, 'boots', 'active_waiter', 'p50')),
    ('clean run of seeds 000, 001, 003 (the target\'s), cloud start '
     'included', 60, 's',
     lambda f: _get(f, 'suite_runs', suite_runs.run_key(
         suite_runs.TARGET_SEEDS), 'wall_s')),
    ('clean run of every seed, cloud start included', 90, 's',
     lambda f: _get(f, 'suite_runs', 'all', 'wall_s')),
    ('cold start to ready', 5, 's',
     lambda f: _get(f, 'cold_start', 'total_s')),
    ('cold start / its import floor', 1.3, 'x', lambda f: _cold_ratio(f)),
    ('K=3 fill-and-overflow at H=16', 60, 's',
     lambda f: _scale_at(f, 16)),
    ('seconds per boot at H=64 / at H=3', 1.3, 'x',
     lambda f: _per_boot_ratio(f, 64, 3)),
    ('our gabbi cost per request / upstream\'s', 1.5, 'x',
     lambda f: _get(f, 'gabbi', 'ratio')),
    # The soak (soak.py): every run on one cloud, concurrency 2 then 4.
    ('soak: verdicts not as expected, every run', 0, 'verdicts',
     lambda f: _count(f, 'unexpected')),
    ('soak: objects left behind, every run', 0, 'objects',
     lambda f: _count(f, 'leftovers')),
    ('soak: cloud resident memory, run 1 to run 10', 10, '%',
     lambda f: _get(f, 'soak', 'memory', 'growth_run10_pct')),
    ('soak: cloud resident memory, first run to last', 10, '%',
     lambda f: _get(f, 'soak', 'memory', 'growth_pct')),
    ('soak: sum of the service processes\' peak resident memory', 1536,
     'MiB', lambda f: _get(f, 'soak', 'memory', 'peak_total_mib')),
)


def _count(figures, key):
    found = _get(figures, 'soak', key)
    return None if found is None else len(found)


def judge(figures):
    """[{target, limit, unit, measured, met}] (met None: not measured)."""
    out = []
    for name, limit, unit, read in TARGETS:
        value = read(figures)
        out.append({'target': name, 'limit': limit, 'unit': unit,
                    'measured': value,
                    'met': None if value is None else value <= limit})
    return out
