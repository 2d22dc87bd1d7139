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

"""Seed 004's reads that must not depend on when they happen, and the
freepool fill's quota: the delete's compute_terminate_instance event is
read until it has finished; the fill is made within a quota the test
sets for its own project, or skipped as not-applicable naming the call;
a 403 is a failed assertion naming the rule. Fake clients and config;
no cloud."""

import datetime
import types

import fixtures
from tempest.lib import exceptions as lib_exc
import testtools

from conformance_tests.common import waiters
from conformance_tests.report import applicability
from conformance_tests.scenario import test_preemptible_instances as tpi
from conformance_tests.services.reservation import leases

FINISHED = '2026-11-24T21:25:03.250000'


def fake_conf(dynamic=True, build_timeout=60):
    return types.SimpleNamespace(
        conformance=types.SimpleNamespace(poll_interval=0.001),
        compute=types.SimpleNamespace(build_interval=0.001,
                                      build_timeout=build_timeout),
        auth=types.SimpleNamespace(use_dynamic_credentials=dynamic))


class _Servers(object):
    """show_instance_action answers from a script of the terminate
    event's finish times (the last repeats; 'missing': no such event; a
    finish time is a successful destroy's, a (result, finish) pair any
    other's);
    show_server is 404 (the server is gone)."""

    def __init__(self, finishes):
        self.finishes, self.reads = list(finishes), 0

    def show_instance_action(self, server_id, request_id):
        finish = self.finishes[min(self.reads, len(self.finishes) - 1)]
        self.reads += 1
        result, finish = (finish if isinstance(finish, tuple)
                          else ('Success' if finish else None, finish))
        events = [] if finish == 'missing' else [
            {'event': 'compute_terminate_instance', 'finish_time': finish,
             'result': result}]
        return {'instanceAction': {'request_id': request_id,
                                   'events': events}}

    def show_server(self, server_id):
        raise lib_exc.NotFound()


class Base(testtools.TestCase):

    def use(self, **conf):
        conf = fake_conf(**conf)
        for module in (tpi, waiters):
            self.useFixture(fixtures.MockPatchObject(module, 'CONF', conf))

    def scenario(self, cls=tpi.PreemptibleLeaseTest,
                 test='test_lease_start_terminates_preemptibles_of_its_host'):
        return cls(test)


class TerminateEventTest(Base):

    ACTIONS = [{'action': 'create', 'request_id': 'req-1'},
               {'action': 'delete', 'request_id': 'req-2'}]

    def destroyed_at(self, finishes, actions=ACTIONS, **conf):
        self.use(**conf)
        scenario = self.scenario()
        servers = _Servers(finishes)
        scenario.os_admin = types.SimpleNamespace(servers_client=servers)
        scenario.admin_servers = servers
        return leases.left_host_at(scenario.terminate_event(
            'server-1', actions, 'a rule')), servers.reads

    def test_waits_until_the_event_has_finished(self):
        # nova answers 404 before it writes the finish time
        at, reads = self.destroyed_at([None, None, FINISHED])
        self.assertEqual(datetime.datetime(2026, 11, 24, 21, 25, 3, 250000),
                         at)
        self.assertEqual(3, reads)

    def test_an_event_that_never_finishes_is_a_bounded_none(self):
        at, reads = self.destroyed_at([None], build_timeout=0.05)
        self.assertIsNone(at)
        self.assertGreater(reads, 1)

    def test_no_event_once_the_server_is_gone_is_none_at_once(self):
        self.assertEqual((None, 1), self.destroyed_at(['missing']))

    def test_a_failed_destroy_is_read_once_and_never_left(self):
        # nova writes a failed destroy's finish time too (result Error)
        self.assertEqual((None, 2), self.destroyed_at(
            [None, ('Error', FINISHED)]))

    def test_no_delete_is_none_unread(self):
        self.assertEqual((None, 0), self.destroyed_at(
            [FINISHED], actions=self.ACTIONS[:1]))


class _Quotas(object):
    def __init__(self, calls):
        self.calls = calls

    def update_quota_set(self, project, **limits):
        self.calls.append(('update', project, limits))

    def delete_quota_set(self, project):
        self.calls.append(('delete', project))


class _Limits(object):
    def __init__(self, **absolute):
        self.absolute = absolute

    def show_limits(self):
        return {'limits': {'absolute': self.absolute}}


class Skipped(Exception):
    pass


class FillQuotaTest(Base):

    LIMITS = {'maxTotalInstances': 10, 'totalInstancesUsed': 1,
              'maxTotalCores': 20, 'totalCoresUsed': 1,
              'maxTotalRAMSize': 51200, 'totalRAMUsed': 64}

    def fill(self, fill, dynamic=True, **limits):
        self.use(dynamic=dynamic)
        scenario = self.scenario(tpi.PreemptibleFreepoolFullTest,
                                 'test_full_freepool_refuses_preemptibles')
        calls, cleanups = [], []
        scenario.os_admin = types.SimpleNamespace(
            credentials=types.SimpleNamespace(project_id='p1'),
            quotas_client=_Quotas(calls),
            limits_client=_Limits(**dict(self.LIMITS, **limits)))
        scenario.addCleanup = lambda f, *a: cleanups.append((f, a))

        def skip(reason):
            raise Skipped(reason)
        scenario.skipTest = skip
        scenario.fill_quota(fill)
        for f, a in reversed(cleanups):
            f(*a)
        return calls

    def test_own_project_gets_room_for_the_fill_and_it_back(self):
        # two hosts of 800000 MB less nova's 512 reserved
        self.assertEqual(
            [('update', 'p1', {'instances': 3, 'cores': 3,
                               'ram': 64 + 2 * 799488}),
             ('delete', 'p1')],
            self.fill([799488, 799488]))

    def test_preprovisioned_project_with_room_is_left_alone(self):
        self.assertEqual([], self.fill([7680, 7680], dynamic=False))

    def test_preprovisioned_project_without_room_is_not_applicable(self):
        e = self.assertRaises(Skipped, self.fill, [799488, 799488],
                              dynamic=False)
        reason = str(e)
        self.assertIn('PUT /os-quota-sets/{project_id}', reason)
        self.assertIn('ram 51136 free, 1598976 needed', reason)
        self.assertEqual(
            (applicability.ADMIN, 'needs admin: PUT /os-quota-sets/'
             '{project_id} for a project of the test\'s own, as Tempest\'s '
             'dynamic credentials make (the fill of the freepool exceeds '
             'the quota of pre-provisioned project p1: ram 51136 free, '
             '1598976 needed)'),
            applicability.reason(reason))


class BootOrFailTest(Base):

    def test_a_403_is_an_assertion_naming_the_rule(self):
        scenario = self.scenario(tpi.PreemptibleFreepoolFullTest,
                                 'test_full_freepool_refuses_preemptibles')

        def refused(**boot_args):
            raise lib_exc.Forbidden(
                'Quota exceeded for ram: Requested 799488',
                resp={'status': 403})
        scenario.boot = refused
        e = self.assertRaises(AssertionError, scenario.boot_or_fail,
                              'spec: the rule', 'a filler', flavor='f')
        self.assertIn('spec: the rule: a filler must reach the scheduler',
                      str(e))
        self.assertIn("must succeed; the cloud refused it (403: Quota "
                      "exceeded for ram: Requested 799488)", str(e))
