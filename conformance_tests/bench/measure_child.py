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

"""What the bench's measuring children (boots.py, leases.py) share.

Each runs as ``python -m conformance_tests.bench.<name> WORKSPACE COUNT``
against a running cloud, loads that workspace's tempest.conf (so the
suite's waiters poll exactly as in a test run) and prints one JSON
object on stdout; a failure is one line on stderr, which the bench
records as its step's error.
"""

import json
import os
import sys


def load_tempest(workspace, microversion):
    """(CONF, admin client manager) of the workspace, every compute request
    sent at ``microversion``."""
    os.environ['TEMPEST_CONFIG_DIR'] = os.path.join(workspace, 'etc')
    os.environ['TEMPEST_CONFIG'] = 'tempest.conf'
    from tempest import clients
    from tempest.common import credentials_factory
    from tempest import config
    from tempest.lib.common import api_microversion_fixture
    # Tempest's own way of sending a compute microversion (what a test
    # class's min_microversion sets up), held for this whole process.
    api_microversion_fixture.APIMicroversionFixture(
        compute_microversion=microversion).setUp()
    # Reading CONF registers the plugins' service clients (the
    # reservation clients the lease meter uses) before the manager.
    config.CONF.compute.image_ref
    return config.CONF, clients.Manager(
        credentials_factory.get_configured_admin_credentials())


def main(name, measure, argv=None):
    """Run ``measure(workspace, count)`` and print its figures as JSON."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2 or not argv[1].isdigit():
        sys.stderr.write('usage: python -m conformance_tests.bench.%s '
                         'WORKSPACE COUNT\n' % name)
        return 2
    try:
        figures = measure(argv[0], int(argv[1]))
    except Exception as e:  # the bench records this line as the step's
        sys.stderr.write('%s measurement failed: %s\n' % (
            name, str(e).replace('\n', ' ')[:500] or type(e).__name__))
        return 1
    print(json.dumps(figures))
    return 0
