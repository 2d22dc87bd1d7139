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

"""When each test of a subunit v2 stream ran (the report reads verdicts;
the bench needs start and stop times)."""

from conformance_tests.report import results as results_mod
from conformance_tests.runner import worker_plan


def read_file(path):
    """{test id: {id, status, seconds, start, stop, requests,
    topology_requests}}: requests are a gabbi file's own, topology
    requests those that built and removed its providers."""
    with open(path, 'rb') as f:
        found = results_mod.stream_tests(f)
    times = {}
    for test in found:
        start, stop = (test.get('timestamps') or (None, None))[:2]
        if start is None or stop is None:
            continue
        requests = test['details'].get('gabbi-requests')
        topology = test['details'].get('topology-requests')
        times[test['id']] = {
            'id': results_mod.idempotent_id(test['id']),
            'status': test['status'],
            'start': start.timestamp(), 'stop': stop.timestamp(),
            'seconds': (stop - start).total_seconds(),
            'requests': int(requests.as_text()) if requests else 0,
            'topology_requests': int(topology.as_text()) if topology else 0}
    return times


def span(times):
    """Seconds from the first start to the last stop."""
    if not times:
        return 0.0
    return (max(t['stop'] for t in times.values()) -
            min(t['start'] for t in times.values()))


def class_spans(times):
    """Where a run's time goes, class by class, in the order they
    started: [{class, start_s (from the run's first start), seconds
    (first start to last stop), tests}]."""
    if not times:
        return []
    first = min(t['start'] for t in times.values())
    classes = {}
    for name, t in times.items():
        classes.setdefault(worker_plan.class_of(name), []).append(t)
    spans = []
    for cls, tests in classes.items():
        start = min(t['start'] for t in tests)
        spans.append({'class': cls.rsplit('.', 1)[-1],
                      'start_s': round(start - first, 1),
                      'seconds': round(max(t['stop'] for t in tests) -
                                       start, 1),
                      'tests': len(tests)})
    return sorted(spans, key=lambda s: (s['start_s'], s['class']))
