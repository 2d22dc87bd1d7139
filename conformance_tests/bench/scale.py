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

"""The scale curve: anti-affinity fill-and-overflow with K=3 at H hosts.

For each H the bench starts the embedded cloud with H hosts in the
anti-affinity zone (`cloud up --computes H`) and runs the suite's own
test_max_server_per_host_3 through Tempest: 3*H servers go ACTIVE one by
one, then one more must fail to schedule. Its time is the test's own
duration in the subunit stream (set-up of Tempest's credentials
included, cloud start excluded); boots per second is (3*H + 1) / time.
That time includes the test's cleanup, which deletes its 3*H servers
side by side; so each point also gives its phases, read from the
request lines Tempest's rest client logs (see phases).
"""

import datetime
import os
import re

from conformance_tests.bench import subunit_times
from conformance_tests.cloud import launcher
from conformance_tests.runner import tempest_runner

K = 3
HOSTS = (3, 8, 16, 64)
TEST_ID = 'c5e7a9b1-3d2f-4e6a-8b0c-3f4a5b6c7d82'  # max_server_per_host_3
TEST_CALLER = 'ServerGroupSpreadTest:test_max_server_per_host_3'
CLEANUP_CALLER = 'ServerGroupSpreadTest:_run_cleanups'
# tempest.lib's rest_client: "<date> <time> <pid> INFO ... Request
# (<class>:<method>): <status> <METHOD> <url> <seconds>s"
_REQUEST = re.compile(
    r'^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+) .* Request \(([^)]*)\): '
    r'\d{3} ([A-Z]+) (\S+)')


def measure(cloud, hosts, workdir, say):
    """Run the scenario on a cloud that is up with ``hosts`` zone hosts."""
    subunit = os.path.join(workdir, 'scale-h%d.subunit' % hosts)
    results = tempest_runner.run(
        cloud.workspace, subunit, say, concurrency=1, quiet=True,
        regex=tempest_runner.selection_regex([TEST_ID]))
    status = results.get(TEST_ID, {}).get('status', 'missing')
    times = subunit_times.read_file(subunit)
    seconds = sum(t['seconds'] for t in times.values() if t['id'] == TEST_ID)
    boots = K * hosts + 1
    point = {'hosts': hosts, 'k': K, 'boots': boots, 'status': status,
             'seconds': round(seconds, 1),
             'boots_per_s': round(boots / seconds, 2) if seconds else None}
    point.update(phases(
        os.path.join(cloud.workspace, 'logs', 'tempest.log'), boots))
    return point


def phases(log_path, boots):
    """Where the test's time went, from its requests in Tempest's log.

    fill_s: its first to its last POST /servers, the 3H boots between
    them one by one (fill_s_per_boot); cleanup_s: its cleanups' first
    to last request (the DELETEs side by side, then the waits until
    each server is gone). Empty when the log does not show them all,
    e.g. a run that stopped early: a phase is never guessed.
    """
    posts, cleanup = [], []
    try:
        with open(log_path, errors='replace') as log:
            for line in log:
                match = _REQUEST.match(line)
                if not match:
                    continue
                when, caller, method, url = match.groups()
                at = datetime.datetime.strptime(
                    when, '%Y-%m-%d %H:%M:%S.%f').timestamp()
                if (caller == TEST_CALLER and method == 'POST' and
                        url.split('?')[0].endswith('/servers')):
                    posts.append(at)
                elif caller == CLEANUP_CALLER:
                    cleanup.append(at)
    except OSError:
        return {}
    if len(posts) != boots or len(cleanup) < 2:
        return {}
    fill = posts[-1] - posts[0]
    return {'fill_s': round(fill, 1),
            'fill_s_per_boot': round(fill / (boots - 1), 2),
            'cleanup_s': round(cleanup[-1] - cleanup[0], 1)}


def start_cloud(workdir, port_base, hosts, say):
    cloud = launcher.EmbeddedCloud(
        os.path.join(workdir, 'cloud-h%d' % hosts), port_base=port_base,
        say=say, zone_computes=hosts)
    cloud.up()
    return cloud
