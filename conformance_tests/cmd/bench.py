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

"""`conformance bench`: measure the cloud and the suite (bench/measure.py)
and write bench.json, bench.md, bench.png; the targets on stdout."""

from conformance_tests.bench import measure
from conformance_tests.bench import scale
from conformance_tests.bench import soak
from conformance_tests.cmd import base
from conformance_tests.cmd import options
from conformance_tests.common import ui

STEPS = measure.STEPS


def add_parser(sub):
    bench = sub.add_parser('bench', help=(
        'measure the cloud and the suite (cold start, boot latency, runs, '
        'gabbi cost, mutants, scale); write bench.json, bench.md, '
        'bench.png'))
    options.workdir(bench)
    options.port_base(bench, default=19100, what='the bench\'s clouds use')
    bench.add_argument('--boots', type=int, default=10, metavar='N',
                       help='rounds of boot measurements; each round boots '
                            '4 servers (default: %(default)s)')
    bench.add_argument('--lease-rounds', type=int, default=2, metavar='N',
                       help='rounds of lease-start measurements per profile; '
                            'each round leases a freepool host over 0, 1 '
                            'and 3 preemptibles (default: %(default)s)')
    bench.add_argument('--soak-runs', type=int, default=10, metavar='N',
                       help='runs of the whole suite on one cloud at each '
                            'soak concurrency (%s) (default: %%(default)s)'
                            % ' then '.join(str(c) for c in
                                            soak.CONCURRENCIES))
    bench.add_argument('--mutants-json', metavar='PATH', help=(
        'read mutant times from this mutants.json (of a run just made) '
        'instead of running `conformance mutants` (the default)'))
    bench.add_argument('--scale-hosts', default=','.join(
        str(h) for h in scale.HOSTS), metavar='H,H,...', help=(
        'zone hosts of the scale step\'s clouds; 3 is measured on the '
        'cloud step\'s cloud (default: %(default)s)'))
    bench.add_argument('--steps', default=','.join(STEPS), help=(
        'comma-separated subset of %s (default: all; figures of steps '
        'left out are "not measured")' % ', '.join(STEPS)))
    bench.set_defaults(func=cmd_bench)


class Bench(base.Command):
    name = 'bench'


def cmd_bench(args):
    try:
        bench = measure.Bench(args)
    except measure.BenchError as e:
        ui.fail(str(e))
        return 2
    json_path, md_path = bench.run()
    for t in bench.figures['targets']:
        ui.say('  %-50s %s' % (t['target'], 'not measured'
                               if t['measured'] is None else '%s %s (%s %s %s)'
                               % (t['measured'], t['unit'], 'met:' if t['met']
                                  else 'NOT met:', '<=', t['limit'])))
    for f in bench.figures['informational']:
        ui.say('  %-50s %s (a figure, no limit)' % (
            f['figure'], 'not measured' if f['measured'] is None
            else '%s %s' % (f['measured'], f['unit'])))
    ui.say('bench: %s and %s (%.0f s); %d step(s) failed' % (
        json_path, md_path, bench.figures['duration_s'],
        len(bench.figures['errors'])))
    return 1 if bench.figures['errors'] else 0
