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

"""Gabbi cost per request: our placement YAML beside upstream's own.

Ours: the placement gabbi files (gabbits/placement) as the clean run of
seed 003 ran them, through Tempest against the embedded cloud: each
file is one test that builds its topology over REST, runs its requests
with a keystone token over loopback HTTP, and removes what it made. Its
cost per request is the files' summed test time over the requests gabbi
made (the `gabbi-requests` detail each file records); topology set-up
and cleanup are part of that cost, as they are part of every run. Where
that time goes: the same time over every HTTP request the files sent,
theirs and their topologies' (the `topology-requests` detail).

Upstream's: the gabbits placement ships in its wheel
(placement/tests/functional/gabbits), run by placement's own loader
(``python -m unittest placement.tests.functional.test_api``) in a child
process of this virtualenv: the same placement code, with upstream's own
fixtures (an in-memory SQLite database per file, noauth, requests
intercepted in-process by wsgi-intercept, no socket). Its cost per
request is unittest's "Ran N tests in T s" (every gabbi test is one
request), T / N. Neither figure includes interpreter start.
"""

import os
import re

from conformance_tests.bench import children
from conformance_tests.bench import subunit_times

UPSTREAM_MODULE = 'placement.tests.functional.test_api'
RAN = re.compile(r'^Ran (?P<n>\d+) tests? in (?P<s>[0-9.]+)s$', re.M)
SKIPPED = re.compile(r'skipped=(?P<n>\d+)')


def ours(subunit_path):
    times = subunit_times.read_file(subunit_path)
    gabbi = [t for t in times.values() if t['requests']]
    requests = sum(t['requests'] for t in gabbi)
    topology = sum(t.get('topology_requests', 0) for t in gabbi)
    seconds = sum(t['seconds'] for t in gabbi)
    return {'files': len(gabbi), 'requests': requests,
            'topology_requests': topology,
            'seconds': round(seconds, 2),
            'per_request_ms': _per_ms(seconds, requests),
            'per_http_request_ms': _per_ms(seconds, requests + topology)}


def _per_ms(seconds, requests):
    return round(1000.0 * seconds / requests, 2) if requests else None


def upstream(workdir):
    """Run upstream's gabbits; their cost, or an error saying why not."""
    run_dir = os.path.join(workdir, 'upstream-gabbits')
    os.makedirs(run_dir, exist_ok=True)
    log = os.path.join(workdir, 'upstream-gabbits.log')
    code, wall = children.run_module('unittest', [UPSTREAM_MODULE], log,
                                     cwd=run_dir)
    with open(log, errors='replace') as f:
        figures = parse_unittest(f.read())
    if figures is None:
        return {'error': 'upstream gabbits did not run (exit %d); see %s' % (
            code, log)}
    figures.update({'wall_s': round(wall, 1), 'exit_code': code, 'log': log})
    return figures


def parse_unittest(text):
    """{requests, seconds, per_request_ms} from unittest's last lines
    (skipped tests made no request), or None if nothing ran."""
    ran = RAN.search(text)
    if not ran:
        return None
    last = text.strip().splitlines()[-1]
    skipped = SKIPPED.search(last)
    tests = int(ran.group('n')) - (int(skipped.group('n')) if skipped else 0)
    seconds = float(ran.group('s'))
    return {'requests': tests, 'seconds': round(seconds, 2),
            'per_request_ms': _per_ms(seconds, tests)}


def compare(ours_cost, upstream_cost, ours_key='per_request_ms'):
    """Ours / upstream's per request; ``ours_key`` picks which of our
    costs (per gabbi request, or per HTTP request)."""
    ours_ms = ours_cost.get(ours_key)
    upstream_ms = upstream_cost.get('per_request_ms')
    if not ours_ms or not upstream_ms:
        return None
    return round(ours_ms / upstream_ms, 2)
