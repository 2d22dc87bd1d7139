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

"""Server boot latency on a running cloud, two ways, in one process.

Run as ``python -m conformance_tests.bench.boots WORKSPACE COUNT``: it
loads that workspace's tempest.conf (so the suite's waiter polls exactly
as it does in a test run) and prints one JSON object on stdout. For each
of COUNT rounds it boots, in turn:

- a server measured by ``waiters.wait_for_server_settled`` (the suite's
  waiter, [conformance] poll_interval with back-off);
- a server measured by a loop that shows the server every TIGHT_POLL
  seconds and does nothing else: the floor the services allow;
- the same two for a boot the scheduler refuses (hints asking for the
  same host as, and a different host from, one anchor server: no host
  passes both filters, so the server goes ERROR "No valid host").

Latency is POST /servers to the first poll that sees ACTIVE or ERROR.
Alternating the two ways spreads the machine's load over both. Every
server is deleted (and waited for) before the next boot; the anchor last.
"""

import sys
import time

from conformance_tests.bench import measure_child

MICROVERSION = '2.64'
TIGHT_POLL = 0.02


def _tight_wait(client, server_id):
    from conformance_tests.common import waiters
    deadline = time.monotonic() + client.build_timeout
    while time.monotonic() < deadline:
        server = client.show_server(server_id)['server']
        if server['status'] in waiters.SETTLED:
            return server
        time.sleep(TIGHT_POLL)
    raise RuntimeError('server %s did not settle in %s s' % (
        server_id, client.build_timeout))


class BootMeter(object):
    def __init__(self, conf, client):
        self.conf = conf
        self.client = client

    def boot(self, name, hints=None):
        body = dict(name=name, imageRef=self.conf.compute.image_ref,
                    flavorRef=self.conf.compute.flavor_ref, networks='none',
                    availability_zone=self.conf.conformance.anti_affinity_zone)
        if hints:
            body['scheduler_hints'] = hints
        return self.client.create_server(**body)['server']['id']

    def measure(self, how, name, hints=None):
        """(seconds, status) of one boot waited for ``how``."""
        from conformance_tests.common import waiters
        started = time.monotonic()
        server_id = self.boot(name, hints)
        try:
            if how == 'waiter':
                server = waiters.wait_for_server_settled(self.client,
                                                         server_id)
            else:
                server = _tight_wait(self.client, server_id)
            return time.monotonic() - started, server['status']
        finally:
            waiters.delete_server(self.client, server_id)


def measure_all(workspace, count):
    conf, manager = measure_child.load_tempest(workspace, MICROVERSION)
    client = manager.servers_client
    meter = BootMeter(conf, client)
    from conformance_tests.common import waiters
    out = {'poll_interval': conf.conformance.poll_interval,
           'build_interval': conf.compute.build_interval,
           'tight_poll': TIGHT_POLL, 'microversion': MICROVERSION}
    keys = ('active_waiter', 'active_tight', 'error_waiter', 'error_tight')
    samples = {k: [] for k in keys}
    statuses = {k: [] for k in samples}
    anchor = meter.boot('bench-anchor')
    try:
        if waiters.wait_for_server_settled(client, anchor)[
                'status'] != 'ACTIVE':
            raise RuntimeError('the anchor server did not go ACTIVE')
        refuse = {'same_host': [anchor], 'different_host': [anchor]}
        for k in range(count):
            for how in ('waiter', 'tight'):
                for kind, hints in (('active', None), ('error', refuse)):
                    key = '%s_%s' % (kind, how)
                    seconds, status = meter.measure(
                        how, 'bench-%s-%d' % (key, k), hints)
                    samples[key].append(round(seconds, 4))
                    statuses[key].append(status)
    finally:
        waiters.delete_server(client, anchor)
    out['samples'] = samples
    out['statuses'] = statuses
    return out


def main(argv=None):
    return measure_child.main('boots', measure_all, argv)


if __name__ == '__main__':
    sys.exit(main())
