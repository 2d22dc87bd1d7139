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

"""The soak: the whole suite N times in a row on one cloud, at
concurrency 2 then 4, as a vendor runs it (`conformance run
--tempest-conf --inventory`). Each run names every verdict that was not
as expected, with its explanation (a flake shows here, and is fixed in
the test or the wait it relies on, never by a retry), and what it left
behind (its inventory before and after). After each run the cloud's
service processes are measured: resident memory now and at its peak
(VmRSS, VmHWM), so growth from the first run to the last shows a leak,
and the CPU seconds each used during the run beside the machine's: what
the services spend on the suite's requests against what the suite
itself (Tempest, its workers, the CLIs) spends, which bounds how short a
run can be on this machine's cores.
"""

import json
import os

from conformance_tests.bench import children
from conformance_tests.bench import stats

CONCURRENCIES = (2, 4)


def memory(processes):
    """{service process: {'rss_mib', 'peak_mib'}} from /proc, for the
    processes still alive; and their totals under 'total'."""
    out = {}
    for name, pid in sorted(processes.items()):
        fields = _proc_status(pid)
        if 'VmRSS' in fields:
            out[name] = {'rss_mib': _mib(fields['VmRSS']),
                         'peak_mib': _mib(fields.get('VmHWM',
                                                     fields['VmRSS']))}
    out['total'] = {key: round(sum(v[key] for v in out.values()), 1)
                    for key in ('rss_mib', 'peak_mib')}
    return out


def cpu_seconds(processes):
    """{service process: CPU seconds it has used since it started (user
    and system, its waited-for children's included)}, for the processes
    still alive."""
    out = {}
    for name, pid in processes.items():
        try:
            with open('/proc/%d/stat' % pid) as f:
                # Fields after the command name, which may hold spaces:
                # utime stime cutime cstime are the 12th to 15th.
                fields = f.read().rsplit(')', 1)[1].split()
        except (OSError, IndexError):
            continue
        out[name] = sum(int(v) for v in fields[11:15]) / float(
            stats.CLOCK_TICKS)
    return out


def cpu_used(before, after):
    """{service process: CPU seconds used between two cpu_seconds()} for
    the processes in both, and their sum under 'total'."""
    out = {name: round(after[name] - before[name], 1)
           for name in sorted(after) if name in before}
    out['total'] = round(sum(out.values()), 1)
    return out


def _proc_status(pid):
    try:
        with open('/proc/%d/status' % pid) as f:
            return dict(line.split(':', 1) for line in f if ':' in line)
    except OSError:
        return {}


def _mib(value):
    """'123456 kB' -> MiB."""
    return round(int(value.split()[0]) / 1024.0, 1)


def one_run(tempest_conf, workdir, concurrency, index):
    """One `conformance run` against the soaked cloud: its wall time,
    exit code, the capabilities not as expected and the leftovers."""
    name = 'soak-c%d-%02d' % (concurrency, index)
    run_dir = os.path.join(workdir, name)
    log = os.path.join(workdir, '%s.log' % name)
    cpu_before = stats.cpu_times()
    code, seconds = children.conformance(
        ['run', '--tempest-conf', tempest_conf, '--workdir', run_dir,
         '--concurrency', str(concurrency), '--inventory'], log)
    cpu_after = stats.cpu_times()
    result = {'concurrency': concurrency, 'run': index,
              'wall_s': round(seconds, 1), 'exit_code': code, 'log': log,
              'cpu_busy_pct': stats.busy_pct(cpu_before, cpu_after),
              'cpu_busy_s': stats.busy_seconds(cpu_before, cpu_after)}
    report = os.path.join(run_dir, 'report.json')
    if not os.path.exists(report):
        result['unexpected'] = [{'capability': '(no report)',
                                 'explanation': 'the run wrote no report; '
                                                'see %s' % log}]
        result['leftovers'] = []
        return result
    with open(report) as f:
        data = json.load(f)
    result['unexpected'] = [
        {'capability': c['id'], 'status': c['status'],
         'expected': c['expected'],
         'explanation': (c.get('explanation') or '')[:400]}
        for c in data['capabilities'] if not c['as_expected']]
    result['leftovers'] = list(
        data['summary'].get('inventory_differences') or [])
    return result


def cpu_split(run, cores=None):
    """Where one run's CPU went: the machine's busy seconds, the service
    processes' share, the rest (Tempest, its workers, the CLIs, the
    runner; anything else the machine ran), and the shortest wall time
    that much CPU allows on this machine's cores, all of it and the
    services' part alone."""
    cores = cores or os.cpu_count() or 1
    busy = run['cpu_busy_s']
    services = run['service_cpu_s']['total']
    return {'machine_s': busy, 'services_s': services,
            'rest_s': round(busy - services, 1), 'cores': cores,
            'floor_s': round(busy / cores, 1),
            'services_floor_s': round(services / cores, 1),
            'wall_s': run['wall_s']}


# Issue 27's leak target: growth over 10 consecutive runs on one cloud,
# the soak's first series (concurrency 2).
LEAK_RUNS = 10


def _growth_pct(first, last):
    return round(100.0 * (last - first) / first, 1) if first else None


def summary(runs):
    """Counts over every run, and the memory growth of the cloud
    (resident total, in per cent): from the first run to the last, and
    from run 1 to run 10 of the first concurrency's series (None when
    that series has fewer runs)."""
    unexpected = [dict(u, run=r['run'], concurrency=r['concurrency'])
                  for r in runs for u in r['unexpected']]
    leftovers = [dict(run=r['run'], concurrency=r['concurrency'],
                      what=what) for r in runs for what in r['leftovers']]
    totals = [r['memory']['total'] for r in runs if r.get('memory')]
    out = {'runs': len(runs), 'unexpected': unexpected,
           'leftovers': leftovers,
           'wall_s': round(sum(r['wall_s'] for r in runs), 1)}
    if runs and runs[0].get('service_cpu_s') and runs[0].get('cpu_busy_s'):
        out['cpu_first_run'] = cpu_split(runs[0])
    if totals:
        first, last = totals[0]['rss_mib'], totals[-1]['rss_mib']
        # Ten consecutive runs of the first series (one concurrency);
        # fewer cannot show the ten-run growth.
        series = [r['memory']['total'] for r in runs if r.get('memory') and
                  r['concurrency'] == runs[0]['concurrency']]
        tenth = (series[LEAK_RUNS - 1]['rss_mib']
                 if len(series) >= LEAK_RUNS else None)
        out['memory'] = {
            'rss_first_mib': first, 'rss_last_mib': last,
            'growth_pct': _growth_pct(first, last),
            'rss_run10_mib': tenth,
            'growth_run10_pct': _growth_pct(first, tenth)
            if tenth is not None else None,
            'peak_total_mib': max(t['peak_mib'] for t in totals)}
    return out
