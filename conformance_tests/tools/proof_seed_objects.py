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

"""What a killed seed-002 or seed-004 run leaves, for the cleanup proof.

The proof's killed Tempest run boots servers (seeds 000/001); senlin and
blazar objects come from tests whose kill point the proof cannot choose
(a cluster is made in seconds, a lease lives for one test). So the proof
makes them here, through the same APIs, names and markers the tests use,
and lets no cleanup of theirs run:

- senlin (as test_affinity_*): a nova-server profile, an affinity
  policy, a cluster of one node with that policy attached (so a server
  and the server group the policy made);
- blazar (as test_preemptible_instances): a preemptible flavor, a host
  the suite enrolled (marked ``<prefix>_enrolled``) and a lease of a
  freepool host, ACTIVE (so a reservation aggregate, and the host out of
  the freepool).

Foreign objects beside them (a policy named like the prefix but not in a
run's shape; the launcher's own, unmarked enrolments) must survive.
"""

import json

from conformance_tests.tools import proof_errors

LEASE_TIMEOUT = 120
AFFINITY_SPEC = {'type': 'senlin.policy.affinity', 'version': '1.0',
                 'properties': {'servergroup': {}}}


def kinds(ctx):
    """{kind: function(ctx) -> set of ids} of the seed objects the cloud
    can hold (none for a service it does not offer)."""
    found = {}
    if ctx.clustering_client:
        client = ctx.clustering_client
        found['clusters'] = lambda: {
            c['id'] for c in client.list_clusters(global_project=True)}
        found['clustering policies'] = lambda: {
            p['id'] for p in client.list_policies(global_project=True)}
        found['clustering profiles'] = lambda: {
            p['id'] for p in client.list_profiles(global_project=True)}
    if ctx.leases_client:
        found['leases'] = lambda: {
            lease['id'] for lease in ctx.leases_client.list_leases()[
                'leases']}
        found['blazar hosts'] = lambda: {
            h['id'] for h in ctx.hosts_client.list_hosts()['hosts']}
    return found


def make_foreign(ctx, conf):
    """[(kind, id)] of seed objects no run made."""
    made = []
    if ctx.clustering_client:
        policy = ctx.clustering_client.create_policy(
            '%s-keep' % conf.conformance.resource_prefix, AFFINITY_SPEC)
        made.append(('clustering policies', policy['id']))
    if ctx.hosts_client:
        made += [('blazar hosts', h['id'])
                 for h in ctx.hosts_client.list_hosts()['hosts']]
    return made


def leave(ctx, conf, say):
    """Make what killed seed-002/004 tests leave; say what."""
    from tempest.lib.common.utils import data_utils

    def name(what):
        return data_utils.rand_name(
            prefix=conf.conformance.resource_prefix, name=what)

    left = []
    if ctx.hosts_client:
        left += _leave_blazar(ctx, conf, name)
    if ctx.clustering_client:
        left += _leave_senlin(ctx, conf, name)
    if left:
        say('left as killed seed-002/004 tests would: %s' % ', '.join(left))


def _leave_senlin(ctx, conf, name):
    client = ctx.clustering_client
    profile = client.create_profile(name('profile'), {
        'type': 'os.nova.server', 'version': '1.0', 'properties': {
            'flavor': conf.compute.flavor_ref,
            'image': conf.compute.image_ref, 'name': name('node'),
            'networks': []}})
    policy = client.create_policy(name('affinity'), AFFINITY_SPEC)
    cluster, action = client.create_cluster(name('cluster'), profile['id'],
                                            desired_capacity=1)
    _succeeded(client, action, 'CLUSTER_CREATE')
    _succeeded(client, client.attach_policy(cluster['id'], policy['id']),
               'POLICY_ATTACH')
    return ['a senlin cluster of 1 node with an affinity policy attached, '
            'its profile']


def _succeeded(client, action_id, what):
    done = client.wait_for_action(action_id, what)
    if done['status'] != 'SUCCEEDED':
        raise proof_errors.ProofError('%s %s: %s' % (
            what, done['status'], done.get('status_reason')))


def _leave_blazar(ctx, conf, name):
    from oslo_utils import timeutils

    from conformance_tests.common import waiters
    from conformance_tests.services.reservation import leases
    from conformance_tests.services.reservation.v1 import (
        cleanup as reservation)
    flavor = ctx.flavors_client.create_flavor(
        name=name('preemptible'), ram=64, vcpus=1, disk=1)['flavor']
    ctx.flavors_client.set_flavor_extra_spec(
        flavor['id'], **{'blazar:preemptible': 'true'})
    host = _idle_unmanaged_host(ctx)
    # Blazar enrols a host by its hypervisor hostname.
    ctx.hosts_client.create_host(name=host.hypervisor_hostname, **{
        reservation.enrolled_marker(conf.conformance.resource_prefix):
        'true'})
    pool = list(conf.conformance.preemptible_hosts)
    if not pool:
        raise proof_errors.ProofError(
            'blazar is available but [conformance] preemptible_hosts is '
            'empty: no freepool host to lease')
    hypervisor = leases.hypervisor_hostname(_compute_get(
        ctx, 'os-hypervisors/detail')['hypervisors'], pool[0])
    if hypervisor is None:
        raise proof_errors.ProofError('no hypervisor of compute host %s' %
                                      pool[0])
    lease = ctx.leases_client.create_lease(**leases.host_lease(
        name('lease'), hypervisor, timeutils.utcnow()))['lease']

    def started():
        status = ctx.leases_client.show_lease(lease['id'])['lease'][
            'status']
        if status in leases.STABLE and status not in (leases.PENDING,
                                                      leases.ACTIVE):
            raise proof_errors.ProofError('lease %s of %s is %s, not ACTIVE'
                                          % (lease['id'], pool[0], status))
        return status == leases.ACTIVE

    what = 'lease %s of %s to be ACTIVE' % (lease['id'], pool[0])
    waiters.wait_until(what, started, timeout=LEASE_TIMEOUT)
    return ['a preemptible flavor, the enrolment of %s, an ACTIVE lease '
            'of %s' % (host.hypervisor_hostname, pool[0])]


def _compute_get(ctx, path):
    _, body = ctx.servers_client.get(path)
    return json.loads(body)


def _idle_unmanaged_host(ctx):
    """An up compute host in no aggregate, running nothing, that blazar
    does not manage: one the suite may enrol and give back (a
    leases.Compute: its service host and its hypervisor hostname)."""
    from conformance_tests.services.reservation import leases
    in_aggregates = set()
    for agg in ctx.aggregates_client.list_aggregates()['aggregates']:
        in_aggregates.update(agg['hosts'])
    # Aggregates and blazar's service_name speak nova service hosts.
    known = leases.managed_hosts(ctx.hosts_client.list_hosts()['hosts'])
    busy = {s.get('OS-EXT-SRV-ATTR:host') for s in (
        ctx.servers_client.list_servers(detail=True, all_tenants=True)[
            'servers'])}
    services = _compute_get(ctx, 'os-services?binary=nova-compute')[
        'services']
    hypervisors = _compute_get(ctx, 'os-hypervisors/detail')['hypervisors']
    for service in sorted(services, key=lambda s: s['host']):
        host = service['host']
        if (service['state'] == 'up' and service['status'] == 'enabled'
                and host not in in_aggregates | known | busy):
            return leases.computes(hypervisors, [host])[0]
    raise proof_errors.ProofError(
        'no idle compute host outside every aggregate for the proof to '
        'enrol in blazar')
