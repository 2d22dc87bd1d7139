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

"""bench.json and bench.md from the figures of one run."""

import json
import os

from conformance_tests.bench import cold_start
from conformance_tests.bench import gabbi_cost
from conformance_tests.bench import soak as soak_mod
from conformance_tests.bench import targets


def write(workdir, figures):
    figures['targets'] = targets.judge(figures)
    figures['informational'] = targets.informational(figures)
    json_path = os.path.join(workdir, 'bench.json')
    with open(json_path, 'w') as f:
        json.dump(figures, f, indent=2, sort_keys=True)
    md_path = os.path.join(workdir, 'bench.md')
    with open(md_path, 'w') as f:
        f.write(markdown(figures))
    return json_path, md_path


def _s(value, unit='s'):
    return 'not measured' if value is None else '%s %s' % (value, unit)


def _or_dash(value):
    return '-' if value is None else value


def _warm_starts(mutants):
    """(median, min, max, count) of the mutant clouds' starts, or None."""
    starts = sorted(m['cloud_start_s'] for m in mutants
                    if m.get('cloud_start_s') is not None)
    if not starts:
        return None
    return (starts[len(starts) // 2], starts[0], starts[-1], len(starts))


def _phase_sums(mutants):
    """Seconds of all mutants' cloud starts and of all their Tempest runs,
    or None where a mutant did not record them."""
    starts = [m.get('cloud_start_s') for m in mutants]
    tests = [m.get('tests_s') for m in mutants]
    if not mutants or None in starts or None in tests:
        return None
    return round(sum(starts), 1), round(sum(tests), 1)


def _load(step):
    return 'load %s -> %s' % (step.get('load_before'), step.get('load_after'))


def _lease_lines(leases):
    lines = ['## Lease start (seed 004)', '',
             'A host lease starting `now`, from POST /leases to the first '
             'show (every 0.1 s) of ACTIVE, ERROR or TERMINATED, over 0, 1 '
             'and 3 preemptible servers on the leased freepool host. '
             'Upstream blazar 18 moves the host on while nova still deletes '
             'its servers, so a lease over preemptibles goes ERROR; the '
             'spec reference waits until they are gone.', '',
             '| profile | preemptibles | n | status | p50 (s) | min | max '
             '| load |', '|---|---|---|---|---|---|---|---|']
    for profile in ('default', 'spec-reference'):
        step = leases.get(profile) or {}
        for count, s in sorted((step.get('by_count') or {}).items(),
                               key=lambda kv: int(kv[0])):
            lines.append('| %s | %s | %s | %s | %s | %s | %s | %s |' % (
                profile, count, s.get('n'), '/'.join(s.get('statuses', [])),
                s.get('p50'), s.get('min'), s.get('max'), _load(step)))
        if not step.get('by_count'):
            lines.append('| %s | - | - | not measured | - | - | - | - |'
                         % profile)
    return lines + ['']


def _calibration_line(machine):
    return ('CPU calibration (the quickest of three runs of a fixed '
            'pure-Python sum, `bench/stats.py`; 1.00 s on this project\'s '
            '2-core machine at load 0.5): %s at start, %s at end by the '
            'clock; by CPU time, the unit of the CPU targets, %s at start, '
            '%s at end. Compare two benches\' seconds only with theirs.' % (
                _s(machine.get('cpu_calibration_start_s')),
                _s(machine.get('cpu_calibration_end_s')),
                _s(machine.get('cpu_calibration_start_cpu_s')),
                _s(machine.get('cpu_calibration_end_cpu_s'))))


VERDICT = {True: 'yes', False: '**no**', None: '-'}


def _target_lines(fig):
    lines = ['## Targets', '',
             'Time is judged by ratios to a floor measured in this '
             'bench, so neither a slower machine nor a busier one moves '
             'the verdict (`bench/targets.py` says where each limit comes '
             'from). A target whose figure is missing has no verdict.', '',
             '| target | limit | measured | met |', '|---|---|---|---|']
    for t in fig['targets']:
        lines.append('| %s | %s %s | %s | %s |' % (
            t['target'], t['limit'], t['unit'], _s(t['measured'], t['unit']),
            VERDICT[t['met']]))
    lines += ['', '"calibrations": CPU seconds in units of the CPU time '
              'of the calibration taken before the run. Seconds without '
              'a sound floor are figures, not targets:', '',
              '| figure | measured | why no limit |', '|---|---|---|']
    for f in fig.get('informational') or []:
        lines.append('| %s | %s | %s |' % (
            f['figure'], _s(f['measured'], f['unit']), f['why']))
    return lines


def markdown(fig):
    lines = ['# Benchmark of the suite and its embedded cloud', '',
             'One run of `conformance bench` on %s (%s cores), started %s, '
             '%.0f s in all. Load average (1 min) at start %s, at end %s; '
             'each section gives its own.' % (
                 fig['machine']['host'], fig['machine']['cores'],
                 fig['started'], fig.get('duration_s') or 0,
                 fig['machine']['load_start'], fig['machine'].get('load_end')),
             '', _calibration_line(fig['machine']),
             '', 'Plot: ![bench](bench.png)', '']
    lines += _target_lines(fig)
    lines += ['', '`.ci/run` as a whole is not run by the bench: it is the '
              'sum of its steps (self-tests, pep8, the clean run, the peer '
              'check, the legacy-quota run, the mutant run below, the '
              'cleanup proof).', '']
    cold = fig.get('cold_start') or {}
    lines += ['## Cold start', '']
    lines += _cold_lines(fig, cold)
    boots = fig.get('boots') or {}
    lines += ['', '## Server boot latency', '']
    lines += _boot_lines(boots)
    lines += _lease_lines(fig.get('leases') or {})
    return '\n'.join(lines + _later_sections(fig)) + '\n'


NOT_MEASURED = 'Not measured: the `%s` step was left out (`--steps`).'


def _cold_lines(fig, cold):
    if not cold:
        # The mutant clouds' starts below still bound the rest.
        return [NOT_MEASURED % 'cloud', ''] + _warm_lines(fig)
    lines = [_load(cold), '', '| service | ready after (s) |', '|---|---|']
    for name, sec in sorted((cold.get('services_s') or {}).items(),
                            key=lambda kv: kv[1]):
        lines.append('| %s | %s |' % (name, sec))
    lines += ['| **cloud ready** | **%s** |' % cold.get('total_s'), '',
              'Times are the launcher\'s own "X ready (t s)" lines: seconds '
              'from the start of `cloud up` until the service answered '
              '(services start in parallel processes).', '']
    floor = cold.get('import_floor_s') or {}
    if floor:
        known = [s for s in floor.values() if s is not None]
        cores = fig['machine']['cores'] or 1
        lines += ['Where the time goes: importing each process\'s upstream '
                  'modules alone, in a fresh interpreter, one at a time, '
                  'with the cloud down: %s. The processes start together, '
                  'so no cold start here can be shorter than the longest '
                  'import '
                  '(%s s) nor than their sum over the %s cores (%s s): the '
                  'import floor is %s s, the start %s s. The rest is '
                  'migrations, bootstrap, nova\'s computes '
                  'and the launcher\'s zones and images.' % (
                      ', '.join('%s %s s' % kv for kv in sorted(
                          floor.items())),
                      max(known) if known else None, cores,
                      round(sum(known) / cores, 1) if known else None,
                      cold_start.floor_bound(floor, cores),
                      cold.get('total_s')), '']
    lines += _warm_lines(fig)
    for extra in cold.get('other_layouts', []):
        lines.append('- with %d zone hosts: cloud ready in %s s' % (
            extra['hosts'], extra['total_s']))
    return lines


def _warm_lines(fig):
    lines = []
    warm = _warm_starts((fig.get('mutants') or {}).get('mutants') or [])
    if warm:
        lines += ['What is not importing: each mutant cloud below forks '
                  'from zygotes that imported once for the whole mutant '
                  'run, so its start is the rest alone: median %s s '
                  '(%s to %s s, %d clouds). Mutant clouds run side by '
                  'side, one per core by default, so these starts shared '
                  'the cores with another mutant\'s cloud: a bound from '
                  'above. That rest is a chain: keystone answers, the '
                  'launcher registers the catalog, nova starts its '
                  'services and computes, then blazar enrols its freepool '
                  'hosts.' % warm, '']
    return lines


def _boot_lines(boots):
    if not boots:
        return [NOT_MEASURED % 'cloud', '']
    lines = [_load(boots), '',
             'POST /servers until a poll sees ACTIVE or ERROR. Suite '
             'waiter: [conformance] poll_interval = %s s with x1.5 back-off '
             'up to build_interval = %s s. Tight loop: shows the server '
             'every %s s, nothing else. Its polls are requests to the nova '
             'process that boots the server, so on a quick cloud they slow '
             'the boot they time: no floor, a bound on what polling costs.'
             % (
                 boots.get('poll_interval'), boots.get('build_interval'),
                 boots.get('tight_poll')), '',
             '| boot | measured by | n | p50 (s) | p95 (s) | min | max |',
             '|---|---|---|---|---|---|---|']
    for key in ('active_waiter', 'active_tight', 'error_waiter',
                'error_tight'):
        s = boots.get(key) or {}
        kind, how = key.split('_')
        lines.append('| %s | %s | %s | %s | %s | %s | %s |' % (
            kind.upper(), 'suite waiter' if how == 'waiter' else '20 ms loop',
            s.get('n'), s.get('p50'), s.get('p95'), s.get('min'),
            s.get('max')))
    return lines + [
        '', 'The ERROR boot is refused by the scheduler: hints ask for '
        'the same host as, and a different host from, one anchor server.',
        '']


def _later_sections(fig):
    lines = []
    runs = fig.get('suite_runs') or {}
    cores = (fig.get('machine') or {}).get('cores')
    lines += ['## Clean run (`conformance run`)', '',
              '| seed | concurrency | wall (s), cloud start included | '
              'tests | tests\' span (s) | cores busy (%) | CPU, machine '
              '(s) | CPU, the run\'s (s) | wall / CPU floor | '
              'capabilities | CPU a capability (calibrations) | exit | '
              'load |', '|---|---|---|---|---|---|---|---|---|---|---|---|'
              '---|']
    for key in sorted(runs):
        r = runs[key]
        lines.append('| %s |' % ' | '.join(str(_or_dash(v)) for v in (
            key, r.get('concurrency', 2), r.get('wall_s'), r.get('tests'),
            r.get('tests_span_s'), r.get('cpu_busy_pct'),
            r.get('cpu_busy_s'), r.get('cpu_run_s'),
            targets.wall_over_floor(r, cores), r.get('in_scope'),
            targets.cpu_per_capability(r), r.get('exit_code'), _load(r))))
    lines += ['', '"cores busy": the share of all the machine\'s cores '
              'busy while the run ran (/proc/stat); well under 100 means '
              'the run waits on the services\' clocks and its polls, not '
              'on CPU. "wall / CPU floor": the wall time over the '
              'machine\'s busy CPU seconds divided by its %s cores, the '
              'least wall time that work could take. "CPU, the run\'s": '
              'every process the run started, its cloud\'s included; '
              '"CPU a capability": that over the capabilities in scope, '
              'in units of the CPU calibration taken before the run. A '
              'run that did not exit 0 gives neither ratio.' % cores]
    classes = (runs.get('all') or {}).get('classes')
    if classes:
        lines += ['', 'Where the run of every seed spends its tests\' '
                  'span, class by class (from the first test\'s start; '
                  'the @serial classes run alone, the others on two '
                  'workers):', '', '| class | starts at (s) | seconds | '
                  'tests |', '|---|---|---|---|']
        lines += ['| %(class)s | %(start_s)s | %(seconds)s | %(tests)s |' % c
                  for c in classes]
    gabbi = fig.get('gabbi') or {}
    ours, up = gabbi.get('ours') or {}, gabbi.get('upstream') or {}
    lines += ['', '## Gabbi cost per request', '', _load(gabbi), '',
              '| YAML | requests | seconds | per request (ms) |',
              '|---|---|---|---|',
              '| ours (gabbits/placement, seed 003 run, via Tempest over '
              'HTTP) | %s | %s | %s |' % (ours.get('requests'),
                                          ours.get('seconds'),
                                          ours.get('per_request_ms')),
              '| upstream placement\'s own gabbits (in-process, its '
              'fixtures) | %s | %s | %s |' % (
                  up.get('requests'), up.get('seconds'),
                  up.get('per_request_ms')),
              '', 'Ratio ours / upstream: **%s**. %s' % (
                  gabbi.get('ratio'), gabbi.get('how', '')), '']
    if ours.get('topology_requests'):
        lines += ['Where our time goes: besides their %s requests, the '
                  'files sent %s to build and remove their topologies '
                  '(providers, inventories, aggregates, traits, resource '
                  'classes). Over all %s HTTP requests the same %s s are '
                  '%s ms per request, %s x upstream\'s per request.' % (
                      ours.get('requests'), ours['topology_requests'],
                      ours['requests'] + ours['topology_requests'],
                      ours.get('seconds'), ours.get('per_http_request_ms'),
                      gabbi_cost.compare(ours, up, 'per_http_request_ms')),
                  '']
    mut = fig.get('mutants') or {}
    lines += ['## Mutant runs', '']
    if mut:
        sums = _phase_sums(mut.get('mutants') or [])
        lines += ['Source: %s. Whole run: %s s (%s killed, survived: %s). '
                  '%s' % (mut.get('source'), mut.get('total_s'),
                          mut.get('killed'), mut.get('survived') or 'none',
                          _load(mut)), '',
                  'Each mutant\'s wall time is its cloud\'s start (with '
                  'the mutant), then Tempest (start, listing and its '
                  'targets\' tests), then the stop.%s' % (
                      ' In all: %s s of cloud starts, %s s of Tempest.' %
                      sums if sums else ''), '',
                  '| mutant | wall (s) | cloud start (s) | Tempest (s) | '
                  'killed |', '|---|---|---|---|---|']
    else:
        lines.append('Not measured (see "Steps that failed", or --steps).')
    for m in mut.get('mutants') or []:
        lines.append('| %s | %s | %s | %s | %s |' % (
            m['name'], m['seconds'], _or_dash(m.get('cloud_start_s')),
            _or_dash(m.get('tests_s')), m['killed']))
    lines += _soak_lines(fig.get('soak') or {})
    lines += ['', '## Scale: anti-affinity K=3 fill and overflow', '',
              'Seconds are the test\'s, its cleanup included; the fill is '
              'its first to its last boot request (s a boot over the 3H '
              'boots between them), the cleanup its cleanups\' first to '
              'last request (deleting 3H servers side by side).', '',
              '| hosts H | boots (3H+1) | seconds | boots/s | fill (s) | '
              'fill, s a boot | cleanup (s) | test | load |',
              '|---|---|---|---|---|---|---|---|---|']
    for p in fig.get('scale') or []:
        lines.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            p['hosts'], p['boots'], p['seconds'], p['boots_per_s'],
            _or_dash(p.get('fill_s')), _or_dash(p.get('fill_s_per_boot')),
            _or_dash(p.get('cleanup_s')), p['status'], _load(p)))
    if fig.get('errors'):
        lines += ['', '## Steps that failed', '']
        lines += ['- %s' % e for e in fig['errors']]
    if fig.get('notes'):
        lines += ['', '## Notes', '']
        lines += ['- %s' % n for n in fig['notes']]
    return lines


def _soak_lines(soak):
    lines = ['', '## Soak', '']
    if not soak:
        return lines + ['Not measured (see "Steps that failed", or '
                        '--steps).']
    mem = soak.get('memory') or {}
    lines += ['%s runs of the whole suite on one cloud (concurrency 2, then '
              '4), %s s in all: %d verdicts not as expected, %d objects '
              'left behind. Cloud resident memory after the first run %s '
              'MiB, %s, after the last %s MiB (%s%%); the sum of the '
              'service processes\' peaks %s MiB.' % (
                  soak['runs'], soak['wall_s'], len(soak['unexpected']),
                  len(soak['leftovers']), mem.get('rss_first_mib'),
                  'after run %d %s MiB (%s%%)' % (
                      soak_mod.LEAK_RUNS, mem['rss_run10_mib'],
                      mem.get('growth_run10_pct'))
                  if mem.get('rss_run10_mib') is not None else
                  'no run %d (the ten-run growth is not measured)' %
                  soak_mod.LEAK_RUNS,
                  mem.get('rss_last_mib'), mem.get('growth_pct'),
                  mem.get('peak_total_mib')), '',
              '| run | concurrency | wall (s) | cores busy (%) | CPU, '
              'machine (s) | CPU, services (s) | not as expected | left '
              'behind | resident (MiB) | load |',
              '|---|---|---|---|---|---|---|---|---|---|']
    for r in soak.get('each') or []:
        lines.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            r['run'], r['concurrency'], r['wall_s'], r.get('cpu_busy_pct'),
            r.get('cpu_busy_s'), (r.get('service_cpu_s') or {}).get('total'),
            ', '.join(u['capability'] for u in r['unexpected']) or '-',
            ', '.join(r['leftovers']) or '-',
            (r.get('memory') or {}).get('total', {}).get('rss_mib'),
            _load(r)))
    for u in soak['unexpected']:
        lines.append('- run %s (concurrency %s): %s %s, expected %s: %s' % (
            u['run'], u['concurrency'], u['capability'], u.get('status'),
            u.get('expected'), u.get('explanation')))
    split = soak.get('cpu_first_run')
    if split:
        lines += ['', 'CPU of the first run: the machine\'s cores were '
                  'busy %s s, %s s of it in the service processes and %s s '
                  'elsewhere (Tempest, its workers, the CLIs, the runner). '
                  'On %s cores no schedule runs that in less than %s s '
                  '(the services\' part alone: %s s); it took %s s.' % (
                      split['machine_s'], split['services_s'],
                      split['rest_s'], split['cores'], split['floor_s'],
                      split['services_floor_s'], split['wall_s'])]
    each = soak.get('each') or [{}]
    first = each[0].get('memory') or {}
    last = each[-1].get('memory') or {}
    if last:
        # The first run is a clean run of every seed on a fresh cloud:
        # the peaks after it are that run's.
        cpu_first = each[0].get('service_cpu_s') or {}
        cpu_last = each[-1].get('service_cpu_s') or {}
        lines += ['', 'Resident memory (MiB) by service process, and its '
                  'peak, after the first run (a clean run of every seed '
                  'on a fresh cloud) and after the last; and the CPU '
                  'seconds it used during each of the two.', '',
                  '| service process | resident, run 1 | peak, run 1 | '
                  'resident, last run | peak, last run | CPU, run 1 (s) | '
                  'CPU, last run (s) |',
                  '|---|---|---|---|---|---|---|']
        for name, m in sorted(last.items()):
            f = first.get(name) or {}
            lines.append('| %s | %s | %s | %s | %s | %s | %s |' % (
                name, f.get('rss_mib'), f.get('peak_mib'), m['rss_mib'],
                m['peak_mib'], cpu_first.get(name), cpu_last.get(name)))
    return lines
