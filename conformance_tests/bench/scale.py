"""The scale curve: anti-affinity fill-and-overflow with K=3 at H hosts.

For each H the bench starts the embedded cloud with H hosts in the
anti-affinity zone (`cloud up --computes H`) and runs the suite's own
test_max_server_per_host_3 through Tempest: 3*H servers go ACTIVE one by
one, then one more must fail to schedule. Its time is the test's own
duration in the subunit stream (set-up of Tempest's credentials
included, cloud start excluded); boots per second is (3*H + 1) / time.
"""

import os

from conformance_tests.bench import subunit_times
from conformance_tests.cloud import launcher
from conformance_tests.cmd import tempest_runner

K = 3
HOSTS = (3, 8, 16, 64)
TEST_ID = 'c5e7a9b1-3d2f-4e6a-8b0c-3f4a5b6c7d82'  # max_server_per_host_3


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
    return {'hosts': hosts, 'k': K, 'boots': boots, 'status': status,
            'seconds': round(seconds, 1),
            'boots_per_s': round(boots / seconds, 2) if seconds else None}


def start_cloud(workdir, port_base, hosts, say):
    cloud = launcher.EmbeddedCloud(
        os.path.join(workdir, 'cloud-h%d' % hosts), port_base=port_base,
        say=say, zone_computes=hosts)
    cloud.up()
    return cloud
