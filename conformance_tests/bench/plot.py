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

"""bench.png: the boot-latency distribution and the scale curve."""

from conformance_tests.bench import targets

SERIES = (('active_waiter', 'ACTIVE, suite waiter'),
          ('active_tight', 'ACTIVE, 20 ms loop'),
          ('error_waiter', 'ERROR, suite waiter'),
          ('error_tight', 'ERROR, 20 ms loop'))


def write(path, figures):
    """Write the PNG; return None, or why it was not written."""
    try:
        import matplotlib
        matplotlib.use('Agg')
        from matplotlib import pyplot
    except ImportError:
        return ('matplotlib is not installed (pip install -e .[bench]); '
                'no plot')
    samples = (figures.get('boots') or {}).get('samples') or {}
    # A scenario that failed measured no fill: only passing points.
    scale = [p for p in figures.get('scale') or [] if p['status'] == 'pass']
    fig, (left, right) = pyplot.subplots(1, 2, figsize=(11, 4.2))
    data = [samples.get(k) or [0] for k, _ in SERIES]
    left.boxplot(data, whis=(5, 95), showfliers=True)
    for n, values in enumerate(data, 1):
        left.scatter([n] * len(values), values, s=10, alpha=0.5)
    left.set_xticks(range(1, len(SERIES) + 1))
    left.set_xticklabels([label for _, label in SERIES], rotation=15,
                         fontsize=8)
    left.set_ylabel('POST /servers to settled (s)')
    left.set_title('Server boot latency (whiskers: p5-p95)')
    if scale:
        hosts = [p['hosts'] for p in scale]
        right.plot(hosts, [p['seconds'] for p in scale], 'o-',
                   label='scenario time (s)')
        right.set_xlabel('hosts in the anti-affinity zone (H)')
        right.set_ylabel('seconds for 3H+1 boots')
        base = [p for p in scale if p['hosts'] == 3 and p.get('boots')]
        if base:
            # The per-boot targets: at most PER_BOOT_LIMIT times H=3's
            # seconds a boot, at every H.
            per_boot = base[0]['seconds'] / base[0]['boots']
            right.plot(hosts, [targets.PER_BOOT_LIMIT * per_boot *
                               p['boots'] for p in scale], ':',
                       color='grey', label='target: %sx H=3\'s s a boot'
                       % targets.PER_BOOT_LIMIT)
        other = right.twinx()
        other.plot(hosts, [p['boots_per_s'] or 0 for p in scale], 's--',
                   color='tab:orange', label='boots per second')
        other.set_ylabel('boots per second')
        right.legend(loc='upper left', fontsize=8)
        other.legend(loc='lower right', fontsize=8)
    right.set_title('Anti-affinity K=3 fill and overflow')
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    pyplot.close(fig)
    return None
