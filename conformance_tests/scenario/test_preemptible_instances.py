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

"""Seed 004: Blazar preemptible instances.

A server is preemptible when its flavor has ``blazar:preemptible=true``
(the spec's third identification method, the one blazar-nova's
BlazarFilter implements). The spec's rules checked here:
- preemptibles start only on freepool hosts, never on unmanaged or reserved
  hosts; regular servers never start in the freepool;
- before a host lease is active, the preemptibles on its host are
  terminated (and only those), softly first; a preemptible asked for the
  host after the termination requests is never placed there (the race);
- a host allocated to an active instance reservation refuses new
  preemptibles;
- when the lease ends the host returns to the freepool;
- preemptibles count toward the instances, cores and RAM quotas like
  regular servers.

The hosts used are [conformance] preemptible_hosts (at least two, nova
service host names). Each class enrols those blazar does not manage yet,
gives back what it enrolled and holds the hosts alone while it runs
(services/reservation/v1/enrolment.py). Each call names a host as its
API does (services/reservation/leases.py): nova's boots, aggregates and
servers the service host, blazar's host API and leases the hypervisor
hostname, placement the node's provider. Tests that start leases or fill
the freepool are disruptive: they run only with [conformance]
allow_disruption. Holding the hosts keeps every other class that uses
them out; the rest of the suite may run beside them, as no server of
theirs starts on a freepool host (regular-outside-freepool).
"""

import time

from oslo_log import log as logging
from oslo_utils import timeutils
from tempest import config
from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import decorators

from conformance_tests.common import outcomes
from conformance_tests.common import skips
from conformance_tests.common import waiters
from conformance_tests.scenario import base
from conformance_tests.services.compute.v2 import instance_actions
from conformance_tests.services.reservation import leases
from conformance_tests.services.reservation.v1 import enrolment

CONF = config.CONF
LOG = logging.getLogger(__name__)
# 2.74: an admin may name the host a server must go to, and the scheduler
# still runs its filters (the BlazarFilter) for that host.
MICROVERSION = '2.74'
PREEMPTIBLE = 'blazar:preemptible'
# Keystone's name of nova's disk limit (unified limits).
DISK_LIMIT = 'class:DISK_GB'
NO_VALID_HOST = 'No valid host'
OWNER_BOOT = ('spec: the reservation owner\'s boot is accepted and lands on '
              'the reserved host')
# At most this many preemptibles are asked for the allocated host while its
# lease starts, one after the other, as fast as nova takes them, from the
# poll that shows blazar's first termination request (on the embedded
# cloud 8 of 8 fall in a window of about 9.5 s, at most 0.3 s apart, the
# first 0.1-0.2 s after the request). None is asked before it: upstream
# blazar deletes every server on the host before it moves the host, so a
# boot placed there earlier would be one more server for it to delete,
# and the lease's evidence (the first preemptible's destroy against the
# start_lease event) would shift with how many had landed.
RACERS = 8
SEED = 'the seed-004 tests'


def skip_reason(conf):
    unavailable = skips.unavailable(conf, 'blazar', SEED)
    if unavailable:
        return unavailable
    if len(conf.conformance.preemptible_hosts) < 2:
        return ('set [conformance] preemptible_hosts to at least two compute '
                'hosts the seed-004 tests may put in blazar\'s freepool')
    return None


class PreemptibleTest(enrolment.PreemptibleHostsMixin,
                      base.ComputeScenarioTest):
    """A project user who boots servers and leases hosts, and an admin
    who reads hosts, makes flavors and enrols hosts.

    ``pool_hosts`` are the nova service hosts of the pool; ``node(host)``
    is a pool host's hypervisor hostname.

    Its disruptive classes start leases, which need no cell fault back
    end, only [conformance] allow_disruption.
    """

    min_microversion = max_microversion = MICROVERSION
    runs = SEED
    # what a member-only run is told (scenario/base.py)
    needs_admin = enrolment.ADMIN_CALLS

    @classmethod
    def service_skip_reason(cls):
        return (super().service_skip_reason()
                or skips.unavailable(CONF, 'blazar', SEED))

    @classmethod
    def config_skip_reason(cls):
        return skip_reason(CONF)

    @classmethod
    def disruption_skip_reason(cls):
        if not CONF.conformance.allow_disruption:
            return ('disruptive test (starts host leases that evict '
                    'servers): set [conformance] allow_disruption = true '
                    'to run it')
        return None

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.leases = (
            cls.os_primary.conformance_reservation_v1.LeasesClient())
        cls.hosts = cls.os_admin.conformance_reservation_v1.HostsClient()
        cls.flavors = cls.os_admin.flavors_client
        cls.aggregates = cls.os_admin.aggregates_client
        cls.placement = cls.os_admin.conformance_placement_v1.UsagesClient()
        # Instance actions are read raw: Tempest before 47 checks
        # list_instance_actions against the 2.1 schema at every
        # microversion, and refuses 2.58's updated_at as an invalid body.
        cls.admin_raw = cls.os_admin.conformance_compute_v2.RawComputeClient()

    @classmethod
    def resource_setup(cls):
        super().resource_setup()
        cls.use_preemptible_hosts()
        cls.pool_hosts = [compute.host for compute in cls.pool]
        cls.nodes = {compute.host: compute.hypervisor_hostname
                     for compute in cls.pool}
        cls.preemptible_flavor = cls._flavor('preemptible', preemptible=True)
        cls.regular_flavor = cls._flavor('regular', preemptible=False)

    @classmethod
    def _flavor(cls, what, preemptible, ram=64):
        flavor = cls.flavors.create_flavor(
            name=data_utils.rand_name(
                prefix=CONF.conformance.resource_prefix, name=what),
            ram=ram, vcpus=1, disk=1)['flavor']
        cls.addClassResourceCleanup(
            test_utils.call_and_ignore_notfound_exc,
            cls.flavors.delete_flavor, flavor['id'])
        if preemptible:
            cls.flavors.set_flavor_extra_spec(
                flavor['id'], **{PREEMPTIBLE: 'true'})
        return flavor['id']

    def setUp(self):
        super().setUp()
        # The leases this test asks for end after every other cleanup of
        # the test (cleanups run last first), so the servers it booted,
        # before and after its lease, are removed in one round with one
        # wait for all. A lease's own cleanup, between two boots, split
        # that round in two: two waits for blazar's hosts, whose
        # hypervisors take seconds to destroy a server.
        self.lease_names = []
        self.addCleanup(self.end_leases)

    def end_leases(self):
        """End every lease lease_host asked for, last first; a failure
        does not stop the others and is raised once they are done."""
        failure = None
        for name in reversed(self.lease_names):
            try:
                self.end_leases_named(name)
            except Exception as e:  # raised after the others
                failure = failure or e
        if failure is not None:
            raise failure

    # -- helpers ---------------------------------------------------------
    def host_of(self, server_id):
        server = self.settle(server_id)
        return server['status'], server.get('OS-EXT-SRV-ATTR:host')

    def boot_on(self, host, flavor, rule):
        """An admin boot asking for ``host``, which the API accepts (a
        refusal is ``rule``'s failed assertion); the filters decide."""
        return self.boot_accepted(
            '%s (an admin\'s boot asking for %s)' % (rule, host),
            servers_client=self.admin_servers, flavor=flavor, host=host)

    def assert_refused(self, server_id, rule):
        server = self.settle(server_id)
        self.assertEqual(
            'ERROR', server['status'],
            '%s: server %s is %s on %s' % (
                rule, server_id, server['status'],
                server.get('OS-EXT-SRV-ATTR:host')))
        self.assertIn(NO_VALID_HOST, server.get('fault', {}).get(
            'message', ''), '%s: server %s failed for another reason: %s' % (
                rule, server_id, server.get('fault')))

    def unmanaged_hosts(self, rule):
        """Up, enabled compute service hosts blazar does not manage."""
        managed = leases.managed_hosts(outcomes.must_succeed(
            self, rule, self.hosts.list_hosts)['hosts'])
        services = outcomes.must_succeed(
            self, rule, self.os_admin.services_client.list_services,
            binary='nova-compute')['services']
        return sorted(s['host'] for s in services
                      if s['host'] not in managed | set(self.pool_hosts)
                      and s['state'] == 'up' and s['status'] == 'enabled')

    def freepool_hosts(self, rule):
        hosts = leases.aggregate_hosts(
            self.aggregates_now(rule),
            CONF.conformance.blazar_freepool)
        if hosts is None:
            self.fail('no aggregate %s: blazar\'s freepool is missing' % (
                CONF.conformance.blazar_freepool))
        return hosts

    def lease_host(self, host, rule, reservation=leases.host_reservation):
        """A lease of pool host ``host`` (a service host) starting now:
        blazar's reservation names its hypervisor. Blazar must accept it:
        a refusal is ``rule``'s failed assertion."""
        name = data_utils.rand_name(prefix=CONF.conformance.resource_prefix,
                                    name='lease')
        body = leases.host_lease(name, self.node(host), timeutils.utcnow(),
                                 reservation=reservation)
        # Before the POST: a lease made by a request that failed goes too.
        self.lease_names.append(name)
        return outcomes.must_succeed(
            self, '%s (a lease of freepool host %s starting now)' % (
                rule, host), self.leases.create_lease, **body)['lease']

    def end_leases_named(self, name):
        for lease in self.leases.list_leases()['leases']:
            if lease['name'] == name:
                self.end_lease(lease['id'])

    def end_lease(self, lease_id, rule=None):
        """Delete the lease and wait until it is gone. With ``rule`` (a
        test ending its lease, whose end the rule is about) blazar must
        accept the delete: any other answer, a 404 included, is the
        rule's failed assertion. Without (cleanup) a lease already gone
        is fine."""
        waiters.wait_for_lease_settled(self.leases, lease_id)
        if rule is None:
            test_utils.call_and_ignore_notfound_exc(
                self.leases.delete_lease, lease_id)
        else:
            outcomes.must_succeed(
                self, '%s (ending lease %s)' % (rule, lease_id),
                self.leases.delete_lease, lease_id)
        self.wait_for('lease %s to be gone' % lease_id,
                      lambda: outcomes.must_succeed(
                          self, '%s (lease %s goes)' % (
                              rule or 'cleanup', lease_id),
                          waiters.gone, self.leases.show_lease, lease_id))

    def wait_lease_stable(self, lease_id, rule):
        """Wait until the lease left its transitional states (STARTING...);
        return it with the seconds this took."""
        started = time.monotonic()
        found = {}

        def stable():
            found['lease'] = outcomes.must_succeed(
                self, rule, self.leases.show_lease, lease_id)['lease']
            return found['lease']['status'] in (
                leases.ACTIVE, leases.ERROR, leases.TERMINATED)

        self.wait_for('lease %s to start' % lease_id, stable)
        took = time.monotonic() - started
        # Measured, never asserted: how long blazar took to start it.
        LOG.info('lease %s %s after %.1f s', lease_id,
                 found['lease']['status'], took)
        return found['lease'], took

    def _server_gone(self, server_id, rule):
        return outcomes.must_succeed(self, rule, waiters.gone,
                                     self.admin_servers.show_server, server_id)

    def termination_state(self, server_id, rule):
        """'gone', 'deleting' (nova has the delete) or the status and
        task state of a server nobody asked to delete."""
        server = outcomes.found_or_none(
            self, rule, self.admin_servers.show_server, server_id)
        if server is None:
            return 'gone'
        server = server['server']
        task = server.get('OS-EXT-STS:task_state')
        if server['status'] == 'DELETED' or task == 'deleting':
            return 'deleting'
        return '%s (task state %s)' % (server['status'], task)

    def assert_untouched(self, server_id, host, rule):
        """The server still runs on ``host`` and nobody asked nova to
        delete it (a delete in progress is seen at once, whatever the
        hypervisor's destroy takes)."""
        state = self.termination_state(server_id, rule)
        self.assertEqual('ACTIVE (task state None)', state,
                         '%s: server %s on %s is %s' % (
                             rule, server_id, host, state))
        self.assertEqual(('ACTIVE', host), self.host_of(server_id), rule)

    def node(self, host):
        """The hypervisor hostname of pool host ``host`` (a service
        host): blazar's and placement's name of it."""
        return self.nodes[host]

    def assert_active(self, lease, rule):
        self.assertEqual(
            leases.ACTIVE, lease['status'],
            '%s: lease %s is %s, not ACTIVE' % (
                rule, lease['id'], lease['status']))

    def instance_actions(self, server_id):
        """The server's instance actions, oldest first (also once it is
        deleted)."""
        return sorted(
            self.admin_raw.get('servers/%s/os-instance-actions' % server_id,
                               MICROVERSION)['instanceActions'],
            key=lambda a: a['start_time'])

    def terminate_event(self, server_id, actions, rule):
        """The delete action's compute_terminate_instance event, the
        server's destroy on its host (leases.left_host_at says when it
        left: a failed destroy never did); None if there is no delete, or
        its destroy has not finished within [compute] build_timeout.

        Nova marks the instance deleted (its GET answers 404) before it
        writes that event's finish time, so one read just after the 404
        may find the event unfinished: the event is read until it has
        finished, and a verdict never depends on when the suite read it.
        An event still missing once the server is gone never comes (nova
        deleted the server without its compute)."""
        return self.finished_event(
            server_id, actions, 'delete', 'compute_terminate_instance', rule,
            hopeless=lambda event: (event is None and
                                    self._server_gone(server_id, rule)))

    def finished_event(self, server_id, actions, action_name, event_name,
                       rule, hopeless=lambda event: False):
        """The event ``event_name`` of the server's first ``action_name``
        action, read until its finish_time is written (bounded, [compute]
        build_timeout: nova writes an event's finish after the state it
        changes) or ``hopeless(event)``; None when there is no such action
        or the event never reached the host."""
        matching = [a for a in actions if a['action'] == action_name]
        if not matching:
            return None
        found = {}

        def finished():
            action = outcomes.must_succeed(
                self, rule, self.os_admin.servers_client.show_instance_action,
                server_id, matching[0]['request_id'])['instanceAction']
            found['event'] = instance_actions.event(action.get('events'),
                                                    event_name)
            return ((found['event'] or {}).get('finish_time') is not None
                    or hopeless(found['event']))

        waiters.observe(finished)
        return found['event']

    def assert_soft_shutdown_happened(self, server_id, actions, rule):
        """The stop blazar asked ran on the host, succeeded and finished
        before the delete was asked: a stop that failed, or that the
        delete overtook, shut nothing down softly."""
        event = self.finished_event(server_id, actions, 'stop',
                                    'compute_stop_instance', rule)
        self.assertIsNotNone(
            event, '%s: the stop of %s never reached its host (no '
            'compute_stop_instance event)' % (rule, server_id))
        finished = leases.moment(event.get('finish_time'))
        self.assertIsNotNone(
            finished, '%s: the soft shutdown of %s never finished on its '
            'host (compute_stop_instance started %s, no finish)' % (
                rule, server_id, event.get('start_time')))
        self.assertEqual(
            'Success', event.get('result'),
            '%s: the soft shutdown of %s failed on its host '
            '(compute_stop_instance result %r)' % (
                rule, server_id, event.get('result')))
        deleted = leases.action_start(actions, ('delete',))
        self.assertLessEqual(
            finished, deleted,
            '%s: the soft shutdown of %s had not finished when its delete '
            'was asked (stop finished at %s, delete asked at %s)' % (
                rule, server_id, leases.clock(finished),
                leases.clock(deleted)))

    def aggregates_now(self, rule):
        return outcomes.must_succeed(
            self, rule, self.aggregates.list_aggregates)['aggregates']

    def assert_started(self, lease, host, evicted, rule):
        """The host lease is ACTIVE; if not, fail with what the APIs show
        of its start: its start_lease event, where ``host`` is, and what
        became of the preemptible ``evicted`` that ran there (its delete,
        awaited for a while, and when it left the host)."""
        if lease['status'] == leases.ACTIVE:
            return
        actions = self.instance_actions(evicted)
        if any(a['action'] == 'delete' for a in actions):
            # Its destroy may still be under way: when it ends is evidence.
            test_utils.call_until_true(
                lambda: self._server_gone(evicted, rule),
                CONF.compute.build_timeout, CONF.conformance.poll_interval)
        terminate = self.terminate_event(evicted, actions, rule) or {}
        evidence = leases.start_error_evidence(
            lease, host, self.aggregates_now(rule),
            CONF.conformance.blazar_freepool, evicted, actions,
            leases.left_host_at(terminate), terminate.get('result'))
        self.fail('%s: lease %s is %s, not ACTIVE: %s' % (
            rule, lease['id'], lease['status'], evidence))

    def assert_instance_evicted(self, lease, host, evicted, rule):
        """The instance lease is ACTIVE and nova was asked to delete
        ``evicted`` (it is gone or being deleted); if not, fail with what
        the APIs show of the server and the host's aggregates."""
        self.assert_active(lease, rule)
        state = self.termination_state(evicted, rule)
        if state not in ('gone', 'deleting'):
            self.fail('%s: with instance lease %s ACTIVE, preemptible %s '
                      'still runs on %s: %s; %s' % (
                          rule, lease['id'], evicted, host, state,
                          leases.instance_start_evidence(
                              lease, host, self.aggregates_now(rule),
                              CONF.conformance.blazar_freepool, evicted,
                              self.instance_actions(evicted))))

    def assert_left_before_start(self, evicted, host, lease, rule):
        """Terminated *before* the lease is active: the gone server left
        the host (its destroy ended, and succeeded) before blazar finished
        the lease's start_lease event."""
        terminate = self.terminate_event(
            evicted, self.instance_actions(evicted), rule)
        left = leases.left_host_at(terminate)
        start = leases.event(lease, 'start_lease') or {}
        done = leases.moment(start.get('updated_at'))
        self.assertTrue(
            left is not None and done is not None and left <= done,
            '%s: preemptible %s %s, lease %s became active '
            '(start_lease event %s) at %s' % (
                rule, evicted, leases.departure(terminate, host),
                lease['id'], start.get('status'), leases.clock(done)))

    def assert_terminated(self, server_id, host, lease, rule):
        """Nova was asked to delete ``server_id`` (it is gone or being
        deleted) by the time ``lease`` is what it is."""
        state = self.termination_state(server_id, rule)
        self.assertIn(state, ('gone', 'deleting'),
                      '%s: with lease %s %s, preemptible %s still runs on '
                      '%s: %s (instance actions: %s)' % (
                          rule, lease['id'], lease['status'], server_id,
                          host, state, ', '.join(
                              a['action'] for a in
                              self.instance_actions(server_id))))


class PreemptibleSchedulingTest(PreemptibleTest):
    """Where preemptible and regular servers may start."""

    @decorators.idempotent_id('7f51b2a3-e276-4df0-b53b-61a6345d3267')
    @decorators.attr(type=['slow'])
    def test_preemptible_only_on_freepool_hosts(self):
        rule = ('spec: preemptible instances start on freepool hosts and '
                'only there, never on hosts blazar does not manage')
        unmanaged = self.unmanaged_hosts(rule)
        self.assertTrue(unmanaged, 'no unmanaged compute host to check')
        refused = self.boot_on(unmanaged[0], self.preemptible_flavor, rule)
        allowed = self.boot_on(self.pool_hosts[0], self.preemptible_flavor,
                               rule)
        free = [self.boot_accepted(rule, flavor=self.preemptible_flavor)
                for _ in range(2)]
        self.assert_refused(refused, rule + ' (asked for %s)' % unmanaged[0])
        for server_id in [allowed] + free:
            status, host = self.host_of(server_id)
            self.assertEqual('ACTIVE', status,
                             '%s: server %s is %s' % (rule, server_id,
                                                      status))
            self.assertIn(host, self.pool_hosts,
                          '%s: preemptible %s started on %s' % (
                              rule, server_id, host))

    @decorators.idempotent_id('f5d55043-c573-4752-9971-c8f23f01e1e1')
    def test_regular_never_on_freepool_hosts(self):
        rule = ('spec: regular instances (not in a reservation) are not '
                'allowed to run on freepool hosts')
        refused = self.boot_on(self.pool_hosts[0], self.regular_flavor, rule)
        free = [self.boot_accepted(rule, flavor=self.regular_flavor)
                for _ in range(2)]
        self.assert_refused(refused, rule + ' (asked for %s)' % (
            self.pool_hosts[0]))
        for server_id in free:
            status, host = self.host_of(server_id)
            self.assertEqual('ACTIVE', status,
                             '%s: server %s is %s' % (rule, server_id,
                                                      status))
            self.assertNotIn(host, self.pool_hosts,
                             '%s: regular server %s started on %s' % (
                                 rule, server_id, host))


class PreemptibleQuotaTest(PreemptibleTest):

    def usage(self, rule):
        """The project's instances, cores and RAM in use (GET /limits, as
        its user)."""
        absolute = outcomes.must_succeed(
            self, rule, self.os_primary.limits_client.show_limits)[
                'limits']['absolute']
        return {what: absolute['total%sUsed' % what]
                for what in ('Instances', 'Cores', 'RAM')}

    def assert_boot_refused(self, flavor, what, rule):
        """A boot of ``flavor`` is 403 (over quota), its message naming
        ``what``."""
        refusal = outcomes.must_be_refused(
            self, '%s (a regular boot while a preemptible uses the rest of '
            'the %s quota)' % (rule, what), 403, self.boot, flavor=flavor)
        self.assertIn(what, str(refusal.resp_body),
                      '%s: the 403 does not name %s: %s' % (
                          rule, what, refusal.resp_body))

    def assert_regular_boots(self, rule, freed):
        """Once the preemptible is deleted, a regular boot is accepted
        and starts: deleting it freed ``freed``."""
        regular = self.boot_accepted(
            '%s (a regular boot once the preemptible is deleted)' % rule,
            flavor=self.regular_flavor)
        self.assertEqual('ACTIVE', self.host_of(regular)[0],
                         '%s: freeing the preemptible did not free the '
                         '%s' % (rule, freed))

    def set_quota(self, rule, project, **limits):
        outcomes.must_succeed(
            self, '%s (an admin sets the quota %s)' % (rule, limits),
            self.os_admin.quotas_client.update_quota_set, project,
            **limits)

    @decorators.idempotent_id('445ded67-1f01-4bda-886b-4246d20a5914')
    @decorators.attr(type=['slow'])
    def test_preemptibles_count_toward_quota(self):
        rule = ('spec: preemptible instances count toward the instances, '
                'cores and RAM quotas like regular instances')
        quotas = self.os_admin.quotas_client
        project = self.servers.tenant_id
        if not CONF.auth.use_dynamic_credentials:
            # The test sets the project's quota and deletes it after: on a
            # pre-provisioned project that would reset a vendor's quota.
            self.skipTest(skips.needs_admin(
                'PUT /os-quota-sets/{project_id} for a project of the '
                'test\'s own, as Tempest\'s dynamic credentials make (a '
                'pre-provisioned project\'s quota is not the test\'s to '
                'change)'))
        before = self.usage(rule)
        flavor = outcomes.must_succeed(self, rule, self.flavors.show_flavor,
                                       self.preemptible_flavor)['flavor']
        self.addCleanup(quotas.delete_quota_set, project)
        self.set_quota(rule, project, instances=before['Instances'] + 1)
        preemptible = self.boot_accepted(rule, flavor=self.preemptible_flavor)
        self.assertEqual('ACTIVE', self.host_of(preemptible)[0])
        used = self.usage(rule)
        self.assertEqual(
            {'Instances': before['Instances'] + 1,
             'Cores': before['Cores'] + flavor['vcpus'],
             'RAM': before['RAM'] + flavor['ram']}, used,
            '%s: GET /limits shows %s in use with preemptible %s (%d vCPU, '
            '%d MB) running, %s before it' % (
                rule, used, preemptible, flavor['vcpus'], flavor['ram'],
                before))
        # Each quota in turn has no room left but for the preemptible.
        self.assert_boot_refused(self.regular_flavor, 'instances', rule)
        self.set_quota(rule, project, instances=-1, cores=used['Cores'])
        self.assert_boot_refused(self.regular_flavor, 'cores', rule)
        self.set_quota(rule, project, cores=-1, ram=used['RAM'])
        self.assert_boot_refused(self.regular_flavor, 'ram', rule)
        self.set_quota(rule, project, instances=used['Instances'],
                       cores=used['Cores'], ram=used['RAM'])
        outcomes.must_succeed(self, '%s (deleting preemptible %s)' % (
            rule, preemptible), self.delete_server, preemptible)
        self.assert_regular_boots(rule, 'quota')

    def compute_service_id(self, rule):
        services = self.os_admin.identity_services_v3_client
        (service,) = outcomes.must_succeed(
            self, rule, services.list_services, type='compute')['services']
        return service['id']

    def set_disk_limit(self, rule, project, gigabytes):
        """Keystone's limit of class:DISK_GB for ``project`` (POST
        /v3/limits, as admin), removed at cleanup."""
        limits = self.os_admin.identity_limits_client
        made = outcomes.must_succeed(
            self, '%s (an admin sets the project\'s class:DISK_GB limit to '
            '%d)' % (rule, gigabytes), limits.create_limit,
            CONF.compute.region or CONF.identity.region,
            self.compute_service_id(rule), project, DISK_LIMIT, gigabytes)
        (limit,) = made['limits']
        self.addCleanup(delete_limit, limits, limit['id'])

    @decorators.idempotent_id('55931866-41d7-47df-9b3e-66f37045b97e')
    @decorators.attr(type=['slow'])
    def test_preemptibles_count_toward_disk_limit(self):
        rule = ('spec: preemptible instances count toward the disk quota '
                'like regular instances')
        if not CONF.compute_feature_enabled.unified_limits:
            self.skipTest(skips.NO_UNIFIED_LIMITS)
        if not CONF.auth.use_dynamic_credentials:
            # A limit set on a pre-provisioned project would change a
            # vendor's quota for the time of the test.
            self.skipTest(skips.needs_admin(
                'POST /v3/limits for a project of the test\'s own, as '
                'Tempest\'s dynamic credentials make (a pre-provisioned '
                'project\'s limits are not the test\'s to change)'))
        project = self.servers.tenant_id

        def disk_in_use():
            # Placement's count is the one nova checks a limit against.
            return self.placement.usages(project).get('DISK_GB', 0)
        disk = outcomes.must_succeed(self, rule, self.flavors.show_flavor,
                                     self.preemptible_flavor)['flavor']['disk']
        before = disk_in_use()
        self.set_disk_limit(rule, project, before + disk)
        preemptible = self.boot_accepted(rule, flavor=self.preemptible_flavor)
        self.assertEqual('ACTIVE', self.host_of(preemptible)[0])
        used = disk_in_use()
        self.assertEqual(
            before + disk, used,
            '%s: placement counts %d GB of disk in use for the project with '
            'preemptible %s (%d GB) running, %d GB before it' % (
                rule, used, preemptible, disk, before))
        # The project's disk limit has no room left but for the preemptible.
        self.assert_boot_refused(self.regular_flavor, DISK_LIMIT, rule)
        outcomes.must_succeed(self, '%s (deleting preemptible %s)' % (
            rule, preemptible), self.delete_server, preemptible)
        # Nova answers 404 for the server before its compute has removed
        # the allocation: the gone server's disk is freed, bounded.
        self.assert_within(
            '%s: preemptible %s is deleted, and placement still counts its '
            'disk for the project' % (rule, preemptible),
            lambda: disk_in_use() <= before,
            lambda: '%s GB in use, %d before the preemptible' % (
                disk_in_use(), before))
        self.assert_regular_boots(rule, 'disk limit')


def delete_limit(limits, limit_id):
    """DELETE /v3/limits/{id}: Tempest's limits client has no delete."""
    resp, _ = limits.delete('limits/%s' % limit_id)
    limits.expected_success(204, resp.status)


class PreemptibleLeaseTest(PreemptibleTest):
    """Host leases over freepool hosts: eviction, reserved boots, the end.
    No other class that uses the preemptible hosts runs while a lease
    evicts servers (each holds the hosts' lock, enrolment.py); the
    others may: their servers are never on a freepool host."""

    @decorators.attr(type=['disruptive'])
    @decorators.idempotent_id('0177fe64-1503-4926-b6e4-8d15002c2563')
    @decorators.attr(type=['slow'])
    def test_reserved_host_refuses_preemptibles_until_lease_ends(self):
        rule = ('spec: preemptibles never start on a host of a reservation; '
                'when the lease ends the host is back in the freepool')
        host, other = self.pool_hosts[:2]
        bystander = self.boot_on(other, self.preemptible_flavor, rule)
        self.assertEqual(('ACTIVE', other), self.host_of(bystander))
        lease = self.lease_host(host, rule)
        lease, took = self.wait_lease_stable(lease['id'], rule)
        self.assert_active(lease, rule)
        untouched = ('spec: preemptibles on freepool hosts the lease does '
                     'not allocate are untouched')
        self.assert_untouched(bystander, other, untouched)
        self.assertNotIn(host, self.freepool_hosts(rule),
                         '%s: %s still in the freepool' % (rule, host))
        refused = self.boot_on(host, self.preemptible_flavor, rule)
        reserved = self.boot_accepted(
            OWNER_BOOT, flavor=self.regular_flavor,
            scheduler_hints={'reservation': leases.reservation_id(lease)})
        self.assert_refused(refused, rule + ' (asked for %s)' % host)
        status, on = self.host_of(reserved)
        self.assertEqual((
            'ACTIVE', host), (status, on),
            'spec: the reservation owner\'s boot lands on the reserved host')
        outcomes.must_succeed(self, '%s (deleting the reserved server %s)'
                              % (rule, reserved), self.delete_server,
                              reserved)
        self.end_lease(lease['id'], rule)
        self.assertIn(host, self.freepool_hosts(rule),
                      '%s: %s not back in the freepool' % (rule, host))
        again = self.boot_on(host, self.preemptible_flavor, rule)
        self.assertEqual(('ACTIVE', host), self.host_of(again),
                         '%s: no preemptible starts on %s after the lease' % (
                             rule, host))

    @decorators.attr(type=['disruptive'])
    @decorators.idempotent_id('5579c8b8-4017-49bd-80dd-e3685dab1c25')
    @decorators.attr(type=['slow'])
    def test_lease_start_terminates_preemptibles_of_its_host(self):
        rule = ('spec: before a lease becomes active, the preemptible '
                'instances on its hosts are terminated')
        host, other = self.pool_hosts[:2]
        evicted = self.boot_on(host, self.preemptible_flavor, rule)
        kept = self.boot_on(other, self.preemptible_flavor, rule)
        for server_id, where in ((evicted, host), (kept, other)):
            self.assertEqual(('ACTIVE', where), self.host_of(server_id))
        lease = self.lease_host(host, rule)
        lease, took = self.wait_lease_stable(lease['id'], rule)
        self.assert_started(lease, host, evicted, rule)
        self.assert_terminated(evicted, host, lease, rule)
        self.wait_for('preemptible %s to be gone' % evicted,
                      lambda: self._server_gone(evicted, rule))
        self.assert_left_before_start(evicted, host, lease, rule)
        untouched = ('spec: preemptibles on other freepool hosts are '
                     'untouched')
        self.assert_untouched(kept, other, untouched)
        reserved = self.boot_accepted(
            OWNER_BOOT, flavor=self.regular_flavor,
            scheduler_hints={'reservation': leases.reservation_id(lease)})
        self.assertEqual(('ACTIVE', host), self.host_of(reserved),
                         'spec: the reservation owner\'s boot lands on the '
                         'freed host')

    def server_outcome(self, server_id, rule):
        """Wait until the server is gone, ERROR or ACTIVE; return
        (status or 'gone', host, launched_at)."""
        found = {}

        def settled():
            server = outcomes.found_or_none(
                self, rule, self.admin_servers.show_server, server_id)
            if server is None:
                found['o'] = ('gone', None, None)
                return True
            server = server['server']
            found['o'] = (server['status'],
                          server.get('OS-EXT-SRV-ATTR:host'),
                          server.get('OS-SRV-USG:launched_at'))
            return server['status'] in ('ACTIVE', 'ERROR')

        self.wait_for('server %s to settle or go' % server_id, settled)
        return found['o']

    def race(self, host, evicted, lease_id, rule):
        """Preemptibles asked for ``host`` one after the other while lease
        ``lease_id`` starts: from the poll (every [conformance]
        poll_interval) that shows, in nova, blazar's first termination request
        for ``evicted`` until the lease leaves its transitional states, or
        RACERS. The wait for the request is bounded by [compute]
        build_timeout (then wait_lease_stable judges the lease). Return
        the racing servers' ids."""
        deadline = time.monotonic() + CONF.compute.build_timeout
        racers = []
        asked = None
        status = leases.PENDING
        ended = (leases.ACTIVE, leases.ERROR, leases.TERMINATED)
        while status not in ended and len(racers) < RACERS:
            if asked is None:
                if time.monotonic() > deadline:
                    break
                asked = leases.termination_request(
                    self.instance_actions(evicted))
            if asked is not None:
                racers.append(self.boot_on(host, self.preemptible_flavor,
                                           rule))
            else:
                time.sleep(CONF.conformance.poll_interval)
            status = outcomes.must_succeed(
                self, rule, self.leases.show_lease, lease_id)['lease'][
                    'status']
        return racers

    def creation_action(self, server_id, rule):
        """The server's create instance action, with its events."""
        (create,) = [a for a in self.instance_actions(server_id)
                     if a['action'] == 'create']
        return outcomes.must_succeed(
            self, rule, self.os_admin.servers_client.show_instance_action,
            server_id, create['request_id'])['instanceAction']

    @decorators.attr(type=['disruptive'])
    @decorators.idempotent_id('2b8f6e3a-9d41-4c7e-8f05-6a1c3e9d7b24')
    @decorators.attr(type=['slow'])
    def test_preemptibles_racing_a_lease_start_never_run_on_its_host(self):
        rule = ('spec: once termination requests are sent, no new '
                'preemptible instance starts on the allocated host')

        def started(lease, host, evicted):
            # A race that leaves the lease unusable breaks the rule too.
            self.assert_started(lease, host, evicted, rule)
            # Without a termination request there is no race to judge:
            # the preemptible already there must have been asked to go.
            self.assert_terminated(evicted, host, lease, rule)
        self.race_lease_start(rule, leases.host_reservation, started)

    @decorators.attr(type=['disruptive'])
    @decorators.idempotent_id('f7f45e0b-8c4e-42d5-b80c-07d0cc773a28')
    @decorators.attr(type=['slow'])
    def test_preemptibles_racing_an_instance_lease_start_never_run_there(
            self):
        rule = ('spec: once termination requests are sent, no new '
                'preemptible instance starts on the host allocated to an '
                'instance reservation')

        def started(lease, host, evicted):
            self.assert_instance_evicted(lease, host, evicted, rule)
        self.race_lease_start(rule, leases.instance_reservation, started)

    def race_lease_start(self, rule, reservation, started):
        """The spec's race between nova's scheduler and blazar's manager
        on a lease of ``reservation`` over a freepool host with a
        preemptible on it; ``started(lease, host, evicted)`` asserts that
        the lease started and asked that preemptible to go."""
        host = self.pool_hosts[0]
        evicted = self.boot_on(host, self.preemptible_flavor, rule)
        self.assertEqual(('ACTIVE', host), self.host_of(evicted))
        lease = self.lease_host(host, rule, reservation)
        racers = self.race(host, evicted, lease['id'], rule)
        lease, took = self.wait_lease_stable(lease['id'], rule)
        started(lease, host, evicted)
        asked = leases.termination_request(self.instance_actions(evicted))
        start = leases.event(lease, 'start_lease') or {}
        finished = leases.moment(start.get('updated_at'))
        seen = []
        for server_id in racers:
            status, on, launched = self.server_outcome(server_id, rule)
            create = self.creation_action(server_id, rule)
            seen.append((server_id, leases.moment(create['start_time']),
                         leases.placed_on(create.get('events'), host),
                         status, on))
            # Measured, never asserted: what each racing boot became.
            LOG.info('race: preemptible %s asked for %s at %s (termination '
                     'asked at %s, start_lease finished at %s): placed '
                     'there by %s; %s on %s, launched at %s', server_id,
                     host, leases.clock(seen[-1][1]), leases.clock(asked),
                     leases.clock(finished), seen[-1][2], status, on,
                     launched)
        LOG.info('race: lease %s %s after %.1f s, %d racing boots',
                 lease['id'], lease['status'], took, len(racers))
        # The proof that a race happened: a boot asked (its create
        # action's start, nova's time of the request) after blazar's
        # termination request and before blazar finished the start_lease
        # event. Without one the run shows nothing of the rule.
        overlapped = [s for s in seen if asked is not None
                      and finished is not None and asked <= s[1] <= finished]
        if not overlapped:
            self.skipTest(
                'no racing boot overlapped the lease start: blazar asked '
                'nova to terminate preemptible %s at %s and finished lease '
                '%s\'s start_lease event at %s; %s. The racing boots are '
                'asked one after the other from the poll that shows the '
                'termination request (every [conformance] poll_interval, '
                '%s s): a window shorter than one poll and one boot '
                'request cannot be raced. Raise blazar\'s [preemptible] '
                'graceful_shutdown_time to widen it' % (
                    evicted, leases.clock(asked), lease['id'],
                    leases.clock(finished),
                    'the %d racing boots were asked at %s' % (
                        len(seen), ', '.join(leases.clock(s[1])
                                             for s in seen))
                    if seen else 'the lease left STARTING before the test '
                    'could ask one',
                    CONF.conformance.poll_interval))
        placed = [s for s in overlapped if s[2]]
        self.assertEqual(
            [], placed,
            '%s: after blazar asked nova to terminate preemptible %s (at '
            '%s) and before lease %s\'s start_lease event finished (at '
            '%s), preemptibles asked for %s were placed there: %s' % (
                rule, evicted, leases.clock(asked), lease['id'],
                leases.clock(finished), host, ', '.join(
                    '%s (asked at %s, %s on %s; now %s)' % (
                        s[0], leases.clock(s[1]), s[2], host, s[3])
                    for s in placed)))
        running = [s for s in seen if s[3] not in ('gone', 'ERROR')
                   and s[4] == host]
        self.assertEqual(
            [], running,
            '%s: with lease %s ACTIVE, preemptibles run on %s: %s' % (
                rule, lease['id'], host, ', '.join(
                    '%s (asked at %s, %s)' % (
                        s[0], leases.clock(s[1]), s[3]) for s in running)))
        LOG.info('race: %d of %d racing boots overlapped the lease start '
                 '(termination asked at %s, start_lease finished at %s); '
                 'none was placed on %s', len(overlapped), len(seen),
                 leases.clock(asked), leases.clock(finished), host)

    @decorators.attr(type=['disruptive'])
    @decorators.idempotent_id('e84b2c71-3f5a-4d0e-b6a9-7c2d9e1f0a53')
    @decorators.attr(type=['slow'])
    def test_instance_reservation_terminates_other_servers_on_its_host(self):
        rule = ('spec: on a host allocated to an instance reservation, '
                'servers that do not use the reservation:<id> flavor are '
                'preemptible and terminated before the lease is active')
        host, other = self.pool_hosts[:2]
        evicted = self.boot_on(host, self.preemptible_flavor, rule)
        kept = self.boot_on(other, self.preemptible_flavor, rule)
        for server_id, where in ((evicted, host), (kept, other)):
            self.assertEqual(('ACTIVE', where), self.host_of(server_id))
        lease = self.lease_host(host, rule, leases.instance_reservation)
        lease, took = self.wait_lease_stable(lease['id'], rule)
        self.assert_instance_evicted(lease, host, evicted, rule)
        self.wait_for('preemptible %s to be gone' % evicted,
                      lambda: self._server_gone(evicted, rule))
        # Terminated *before* the lease is active, as for a host lease: a
        # preemptible still being deleted when the lease went ACTIVE was
        # not terminated before it.
        self.assert_left_before_start(evicted, host, lease, rule)
        self.assert_untouched(kept, other,
                              'spec: servers on hosts the reservation does '
                              'not allocate are untouched')
        # The owner's boot: blazar's flavor has the reservation's id.
        reserved = self.boot_accepted(
            OWNER_BOOT, flavor=leases.reservation_id(lease))
        self.assertEqual(('ACTIVE', host), self.host_of(reserved),
                         'spec: the reservation owner\'s instance (flavor '
                         'reservation:<id>) lands on the allocated host')

    @decorators.attr(type=['disruptive'])
    @decorators.idempotent_id('689b2e1b-68c1-49eb-b22f-dded2d2d205e')
    @decorators.attr(type=['slow'])
    def test_instance_reservation_keeps_other_reservations_servers(self):
        rule = ('spec: instances on the allocated host that do not use such '
                'a flavor are preemptible: a server of another instance '
                'reservation (its flavor reservation:<id> too) is not, and '
                'survives the lease start')
        host = self.pool_hosts[0]
        first = self.lease_host(host, rule, leases.instance_reservation)
        first, took = self.wait_lease_stable(first['id'], rule)
        self.assert_active(first, rule)
        kept = self.boot_accepted(
            OWNER_BOOT, flavor=leases.reservation_id(first))
        self.assertEqual(('ACTIVE', host), self.host_of(kept),
                         '%s (first instance lease %s)' % (
                             OWNER_BOOT, first['id']))
        second = self.lease_host(host, rule, leases.instance_reservation)
        second, took = self.wait_lease_stable(second['id'], rule)
        self.assert_active(second, rule)
        # The control: the second reservation holds the same host (its
        # owner's boot lands there), so its start was the one to judge.
        owner = self.boot_accepted(
            OWNER_BOOT, flavor=leases.reservation_id(second))
        self.assertEqual(('ACTIVE', host), self.host_of(owner),
                         '%s (second instance lease %s)' % (
                             OWNER_BOOT, second['id']))
        self.assert_untouched(
            kept, host, '%s (server %s of instance lease %s, after instance '
            'lease %s started on %s)' % (rule, kept, first['id'],
                                         second['id'], host))

    @decorators.attr(type=['disruptive'])
    @decorators.idempotent_id('a6b835b8-b0f5-4741-9a75-1fbed345d982')
    @decorators.attr(type=['slow'])
    def test_instance_reservation_host_refuses_new_preemptibles(self):
        rule = ('spec: preemptible instances never start on a host '
                'belonging to a reservation: a host allocated to an active '
                'instance reservation refuses new preemptibles')
        host, other = self.pool_hosts[:2]
        lease = self.lease_host(host, rule, leases.instance_reservation)
        lease, took = self.wait_lease_stable(lease['id'], rule)
        self.assert_active(lease, rule)
        refused = self.boot_on(host, self.preemptible_flavor, rule)
        control = self.boot_on(other, self.preemptible_flavor, rule)
        # The control: a freepool host the lease does not allocate still
        # takes a preemptible, so a refusal below is the reservation's.
        self.assertEqual(
            ('ACTIVE', other), self.host_of(control),
            'spec: preemptibles start on freepool hosts: the control '
            'preemptible %s asked for %s (not allocated to lease %s) did '
            'not start there' % (control, other, lease['id']))
        server = self.settle(refused)
        if server['status'] == 'ACTIVE':
            self.fail('%s: preemptible %s asked for %s is ACTIVE on %s with '
                      'instance lease %s ACTIVE; %s' % (
                          rule, refused, host,
                          server.get('OS-EXT-SRV-ATTR:host'), lease['id'],
                          leases.instance_host_evidence(
                              lease, host, self.aggregates_now(rule),
                              CONF.conformance.blazar_freepool)))
        self.assert_refused(refused, rule + ' (asked for %s, allocated to '
                            'instance lease %s)' % (host, lease['id']))

    @decorators.attr(type=['disruptive'])
    @decorators.idempotent_id('bf93168d-5511-4523-8552-e8ac6671d542')
    @decorators.attr(type=['slow'])
    def test_eviction_is_a_soft_shutdown_then_a_delete(self):
        rule = ('spec: a preemptible is first shut down softly, then '
                'deleted after [preemptible] graceful_shutdown_time')
        host = self.pool_hosts[0]
        evicted = self.boot_on(host, self.preemptible_flavor, rule)
        self.assertEqual(('ACTIVE', host), self.host_of(evicted))
        lease = self.lease_host(host, rule)
        lease, took = self.wait_lease_stable(lease['id'], rule)
        self.assert_terminated(evicted, host, lease, rule)
        self.wait_for('preemptible %s to be gone' % evicted,
                      lambda: self._server_gone(evicted, rule))
        actions = self.instance_actions(evicted)
        names = [a['action'] for a in actions]
        self.assertIn('stop', names,
                      '%s: no soft shutdown of %s before its deletion '
                      '(instance actions: %s)' % (
                          rule, evicted, ', '.join(names)))
        stopped, deleted = (
            leases.moment(next(a['start_time'] for a in actions
                               if a['action'] == what))
            for what in ('stop', 'delete'))
        self.assertLess(stopped, deleted,
                        '%s: %s deleted (at %s) before its soft shutdown '
                        '(at %s)' % (rule, evicted, leases.clock(deleted),
                                     leases.clock(stopped)))
        self.assert_soft_shutdown_happened(evicted, actions, rule)
        grace = CONF.conformance.preemptible_graceful_shutdown_time
        if grace is None:
            raise self.skipException(
                'soft shutdown of %s seen before its deletion; set '
                '[conformance] preemptible_graceful_shutdown_time to '
                'blazar\'s [preemptible] graceful_shutdown_time to check '
                'the wait between them' % evicted)
        waited = (deleted - stopped).total_seconds()
        self.assertGreaterEqual(
            waited, grace,
            '%s: %s deleted %.1f s after its soft shutdown (stop at %s, '
            'delete at %s), before graceful_shutdown_time (%d s)' % (
                rule, evicted, waited, leases.clock(stopped),
                leases.clock(deleted), grace))


class PreemptibleFreepoolFullTest(PreemptibleTest):
    """The freepool filled to the last MB of RAM. While it is full no
    other preemptible could start: the hosts' lock keeps the other
    classes that boot them out (enrolment.py).

    The fillers are the admin's boots (only an admin names a host), so
    they count toward the admin's project quota: a real host's RAM
    (hundreds of GB) is far beyond nova's default quota, which would
    refuse the fill with a 403 that says nothing of the freepool. The
    test gives its own project (one Tempest's dynamic credentials made)
    a quota that holds the fill, and deletes it at the end; a
    pre-provisioned project's quota is not the test's to change."""

    def fill_quota(self, fill):
        """Make room in the admin's project quota for ``fill`` (the
        fillers' RAM in MB, one server and one vCPU each), or skip saying
        what it would take."""
        project = self.os_admin.credentials.project_id
        absolute = self.os_admin.limits_client.show_limits()[
            'limits']['absolute']
        needed = {'instances': ('Instances', len(fill)),
                  'cores': ('Cores', len(fill)),
                  'ram': ('RAM', sum(fill))}
        if CONF.auth.use_dynamic_credentials:
            # Set before any filler exists, removed after every one is
            # gone (cleanups run last first), also when the test fails.
            quotas = self.os_admin.quotas_client
            self.addCleanup(test_utils.call_and_ignore_notfound_exc,
                            quotas.delete_quota_set, project)
            limits = {what: absolute['total%sUsed' % name] + amount
                      for what, (name, amount) in needed.items()}
            outcomes.must_succeed(
                self, 'an admin sets the quota of its own project to hold '
                'the freepool fill (%s)' % limits, quotas.update_quota_set,
                project, **limits)
            LOG.info('freepool fill: quota of project %s set to %s',
                     project, limits)
            return
        short = []
        for what, (name, amount) in sorted(needed.items()):
            limit = absolute['maxTotal%s' % (
                'RAMSize' if name == 'RAM' else name)]
            room = limit - absolute['total%sUsed' % name]
            if limit >= 0 and room < amount:
                short.append('%s %d free, %d needed' % (what, room, amount))
        if short:
            self.skipTest(skips.needs_admin(
                'PUT /os-quota-sets/{project_id} for a project of the '
                'test\'s own, as Tempest\'s dynamic credentials make (the '
                'fill of the freepool exceeds the quota of pre-provisioned '
                'project %s: %s)' % (project, ', '.join(short))))

    def boot_or_fail(self, rule, what, **boot_args):
        """A boot whose refusal at the API (403, a quota) is a failed
        assertion naming ``rule`` and ``what`` was booted: the refusals
        the rule speaks of are the scheduler's."""
        return outcomes.must_succeed(
            self, '%s: %s must reach the scheduler (the refusals the rule '
            'speaks of are the scheduler\'s, not the API\'s)' % (rule, what),
            self.boot, **boot_args)

    @decorators.attr(type=['disruptive'])
    @decorators.idempotent_id('c3e1a0d4-6f7b-4b8e-9a52-2d7f1e0b6c91')
    @decorators.attr(type=['slow'])
    def test_full_freepool_refuses_preemptibles(self):
        rule = ('spec: preemptible instances start on freepool hosts and '
                'only there, never on hosts blazar does not manage: with '
                'the freepool full a preemptible fails to schedule although '
                'unmanaged hosts have room')
        free = self.freepool_hosts(rule)
        foreign = sorted(free - set(self.pool_hosts))
        if foreign:
            # Filling them would touch hosts the suite was not given.
            raise self.skipException(
                'blazar\'s freepool also holds %s: list every freepool host '
                'in [conformance] preemptible_hosts to run this test' % (
                    ', '.join(foreign)))
        # Each host's free RAM as placement counts it ((total - reserved)
        # * allocation_ratio - used), in servers of at most max_unit MB.
        fill = []
        for host in sorted(h for h in self.pool_hosts if h in free):
            room, max_unit = self.placement.room(
                self.node(host), 'MEMORY_MB')
            LOG.info('freepool host %s: %d MB of RAM free (max unit %d)',
                     host, room, max_unit)
            while room > 0:
                size = min(room, max_unit)
                fill.append((host, size))
                room -= size
        self.fill_quota([size for _, size in fill])
        fillers = []
        for host, size in fill:
            flavor = self._flavor('filler-%d' % size, preemptible=True,
                                  ram=size)
            fillers.append((self.boot_or_fail(
                rule, 'a preemptible of %d MB filling %s, within the quota '
                'the test set' % (size, host),
                servers_client=self.admin_servers, flavor=flavor,
                host=host), host))
        for server_id, host in fillers:
            self.assertEqual(('ACTIVE', host), self.host_of(server_id),
                             'a preemptible filling %s did not start '
                             'there' % host)
        refused = self.boot_or_fail(
            rule, 'the preemptible asked for with the freepool full',
            flavor=self.preemptible_flavor)
        roomy = self.boot_accepted(
            'a regular boot beside the full freepool is accepted',
            flavor=self.regular_flavor)
        server = self.settle(refused)
        self.assertNotEqual(
            'ACTIVE', server['status'],
            '%s: preemptible %s started on %s' % (
                rule, refused, server.get('OS-EXT-SRV-ATTR:host')))
        self.assert_refused(refused, rule)
        status, host = self.host_of(roomy)
        if status != 'ACTIVE':
            # Not the rule under test: the cloud had no room to show.
            raise RuntimeError(
                'a regular server of the same size found no room outside '
                'the freepool either (%s): the test cannot judge' % status)
        self.assertNotIn(host, self.pool_hosts,
                         'spec: regular instances are not allowed to run on '
                         'freepool hosts: %s started on %s' % (roomy, host))
        LOG.info('freepool full (%d fillers): preemptible %s refused, a '
                 'regular server of its size started on %s',
                 len(fillers), refused, host)
