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

"""The cleanup proof's seed-002/004 part over fake clients: which kinds it
counts, which host it dares enrol, and what it calls foreign. No cloud."""

import json

import testtools

from conformance_tests.tools import proof_errors
from conformance_tests.tools import proof_seed_objects as seed_objects


class _Fake(object):
    def __init__(self, **calls):
        for name, answer in calls.items():
            setattr(self, name, lambda *a, answer=answer, **k: answer)


class _Servers(object):
    def __init__(self, servers, services):
        self._servers, self._services = servers, services

    def list_servers(self, **kwargs):
        return {'servers': self._servers}

    def get(self, path):
        if path == 'os-hypervisors/detail':
            # As libvirt names them: the node is not the service host.
            return None, json.dumps({'hypervisors': [
                {'hypervisor_hostname': s['host'] + '.vendor.example',
                 'service': {'host': s['host']}} for s in self._services]})
        assert path == 'os-services?binary=nova-compute', path
        return None, json.dumps({'services': self._services})


def _service(host, state='up', status='enabled'):
    return {'host': host, 'state': state, 'status': status}


def _ctx(aggregates=(), blazar_hosts=(), servers=(), services=()):
    class Ctx(object):
        clustering_client = None
        leases_client = None
    ctx = Ctx()
    ctx.aggregates_client = _Fake(list_aggregates={'aggregates': [
        {'name': n, 'hosts': h} for n, h in aggregates]})
    ctx.hosts_client = _Fake(list_hosts={'hosts': [
        {'id': str(k), 'hypervisor_hostname': h + '.vendor.example',
         'service_name': h}
        for k, h in enumerate(blazar_hosts)]})
    ctx.servers_client = _Servers(
        [{'OS-EXT-SRV-ATTR:host': h} for h in servers], list(services))
    return ctx


class IdleHostTest(testtools.TestCase):

    def test_only_an_idle_up_host_in_no_aggregate_nor_blazar(self):
        ctx = _ctx(aggregates=[('zone', ['host1']), ('freepool', ['pool1'])],
                   blazar_hosts=['pool2'], servers=['host2'],
                   services=[_service('host1'), _service('host2'),
                             _service('pool1'), _service('pool2'),
                             _service('host3', state='down'),
                             _service('host4', status='disabled'),
                             _service('vsphere-drs-1')])
        # Both names: blazar enrols the hypervisor hostname.
        self.assertEqual(('vsphere-drs-1', 'vsphere-drs-1.vendor.example'),
                         tuple(seed_objects._idle_unmanaged_host(ctx)))

    def test_no_such_host_is_a_proof_error_naming_why(self):
        ctx = _ctx(aggregates=[('zone', ['host1'])],
                   services=[_service('host1')])
        e = self.assertRaises(proof_errors.ProofError,
                              seed_objects._idle_unmanaged_host, ctx)
        self.assertIn('no idle compute host', str(e))


class KindsTest(testtools.TestCase):

    def test_a_cloud_without_senlin_or_blazar_counts_none_of_theirs(self):
        ctx = _ctx()
        ctx.hosts_client = None
        self.assertEqual({}, seed_objects.kinds(ctx))

    def test_blazar_counts_leases_and_every_enrolment(self):
        ctx = _ctx(blazar_hosts=['pool1', 'pool2'])
        ctx.leases_client = _Fake(list_leases={'leases': [{'id': 'l1'}]})
        found = {k: f() for k, f in seed_objects.kinds(ctx).items()}
        self.assertEqual({'leases': {'l1'}, 'blazar hosts': {'0', '1'}},
                         found)

    def test_the_operators_enrolments_are_foreign(self):
        ctx = _ctx(blazar_hosts=['pool1', 'pool2'])
        self.assertEqual([('blazar hosts', '0'), ('blazar hosts', '1')],
                         seed_objects.make_foreign(ctx, conf=None))
