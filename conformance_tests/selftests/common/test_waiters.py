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

"""common/waiters.py: back-off, results, and timeouts that say who waited
for what (never a silent give-up)."""

import itertools
import types
from unittest import mock

import fixtures
from tempest.lib import exceptions as lib_exc
import testtools

from conformance_tests.common import waiters


def fake_conf(poll_interval=0.001, build_interval=1, build_timeout=60):
    return types.SimpleNamespace(
        conformance=types.SimpleNamespace(poll_interval=poll_interval),
        compute=types.SimpleNamespace(build_interval=build_interval,
                                      build_timeout=build_timeout))


class FakeServers(object):
    """Answers show_server from a script of statuses; None means 404."""

    def __init__(self, statuses, build_timeout=60):
        self.statuses = iter(statuses)
        self.last = None
        self.build_timeout = build_timeout
        self.shows = 0
        self.deleted = []

    def show_server(self, server_id):
        self.shows += 1
        self.last = next(self.statuses, self.last)
        if self.last is None:
            raise lib_exc.NotFound()
        status, _, fault = self.last.partition('+')
        server = {'id': server_id, 'status': status}
        if fault:
            server['fault'] = {'message': fault}
        return {'server': server}

    def delete_server(self, server_id):
        self.deleted.append(server_id)


class WaitersTestBase(testtools.TestCase):

    def use_conf(self, **kwargs):
        self.useFixture(fixtures.MockPatchObject(
            waiters, 'CONF', fake_conf(**kwargs)))


class PollIntervalsTest(WaitersTestBase):

    def test_backs_off_from_poll_interval_to_build_interval(self):
        self.use_conf(poll_interval=0.1, build_interval=1)
        got = list(itertools.islice(waiters.poll_intervals(), 8))
        self.assertEqual(0.1, got[0])
        for before, after in zip(got, got[1:]):
            self.assertAlmostEqual(min(1, before * waiters.BACKOFF), after)
        self.assertEqual(1, got[-1])

    def test_cap_never_below_the_first_interval(self):
        self.use_conf(poll_interval=2.0, build_interval=1)
        self.assertEqual([2.0, 2.0], list(itertools.islice(
            waiters.poll_intervals(), 2)))


class ServerWaitersTest(WaitersTestBase):

    def setUp(self):
        super().setUp()
        self.use_conf()

    def test_settled_returns_active_record(self):
        client = FakeServers(['BUILD', 'BUILD', 'ACTIVE'])
        self.assertEqual('ACTIVE', waiters.wait_for_server_settled(
            client, 's1')['status'])
        self.assertEqual(3, client.shows)

    def test_settled_returns_error_record_too(self):
        client = FakeServers(['BUILD', 'ERROR+No valid host was found.'])
        self.assertEqual('ERROR', waiters.wait_for_server_settled(
            client, 's1')['status'])

    def test_an_error_is_settled_once_its_fault_is_recorded(self):
        # Nova writes the ERROR state, then the fault: a read between the
        # two must not be the one judged (fresh-R, this session: "fault
        # ... should say No valid host was found; it says ''").
        client = FakeServers(['BUILD', 'ERROR', 'ERROR',
                              'ERROR+No valid host was found.'])
        server = waiters.wait_for_server_settled(client, 's1')
        self.assertEqual('No valid host was found.',
                         server['fault']['message'])
        self.assertEqual(4, client.shows)

    def test_an_error_without_a_fault_is_returned_after_the_grace(self):
        # A cloud that records no fault is judged as it is, not waited on
        # until build_timeout.
        self.useFixture(fixtures.MockPatchObject(waiters, 'FAULT_GRACE', 0))
        client = FakeServers(['BUILD', 'ERROR'])
        server = waiters.wait_for_server_settled(client, 's1')
        self.assertEqual(('ERROR', None), (server['status'],
                                           server.get('fault')))

    def test_settled_times_out_naming_test_server_and_status(self):
        client = FakeServers(['BUILD'], build_timeout=0)
        e = self.assertRaises(lib_exc.TimeoutException,
                              waiters.wait_for_server_settled, client, 's1')
        self.assertIn('ServerWaitersTest:test_settled_times_out', str(e))
        self.assertIn('server s1 to go ACTIVE or ERROR', str(e))
        self.assertIn('status BUILD', str(e))

    def test_deleted_returns_on_404(self):
        client = FakeServers(['ACTIVE', 'DELETED', None])
        waiters.wait_until_gone([(client, 's1')])
        self.assertEqual(3, client.shows)

    def test_deleted_does_not_give_up_silently(self):
        client = FakeServers(['ACTIVE'], build_timeout=0)
        e = self.assertRaises(lib_exc.TimeoutException,
                              waiters.wait_until_gone, [(client, 's1')])
        self.assertIn('server s1 to be deleted', str(e))

    def test_delete_server_deletes_then_waits(self):
        client = FakeServers(['ACTIVE', None])
        waiters.delete_server(client, 's1')
        self.assertEqual(['s1'], client.deleted)
        self.assertEqual(2, client.shows)

    def test_a_server_still_building_is_deleted_once_built(self):
        self.use_conf(poll_interval=0.001, build_interval=0.001)
        client = FakeServers(['BUILD', 'BUILD', 'ACTIVE', None])
        shows_at_delete = []
        client.delete_server = lambda server_id: shows_at_delete.append(
            client.shows)
        waiters.remove_servers([(client, 's1')])
        self.assertEqual([3], shows_at_delete)

    def test_a_build_that_never_ends_is_deleted_after_build_timeout(self):
        self.use_conf(poll_interval=0.001, build_interval=0.001)
        client = FakeServers([], build_timeout=0.01)
        # BUILD until its DELETE, then gone
        client.show_server = lambda server_id: (
            {'server': {'id': server_id, 'status': 'BUILD'}}
            if not client.deleted else FakeServers([None]).show_server(
                server_id))
        waiters.remove_servers([(client, 's1')])
        self.assertEqual(['s1'], client.deleted)

    def test_delete_server_already_gone_is_fine(self):
        client = FakeServers([None])

        def gone(server_id):
            raise lib_exc.NotFound()
        client.delete_server = gone
        waiters.delete_server(client, 's1')


class WaitUntilTest(WaitersTestBase):

    def test_returns_the_first_true_value(self):
        self.use_conf()
        answers = iter([None, 0, 'yes'])
        self.assertEqual('yes', waiters.wait_until(
            'an answer', lambda: next(answers)))

    def test_times_out_naming_what(self):
        self.use_conf(build_timeout=0)
        e = self.assertRaises(lib_exc.TimeoutException, waiters.wait_until,
                              'cell cell1 to look down', lambda: False)
        self.assertIn('waiting for cell cell1 to look down', str(e))
        self.assertIn('WaitUntilTest:test_times_out_naming_what', str(e))


class ObserveTest(WaitersTestBase):
    """observe() gives the caller the last value instead of a timeout, so
    a rule the cloud breaks ends in the caller's assertion."""

    def test_returns_the_first_true_value(self):
        self.use_conf()
        answers = iter([None, '', 'UNKNOWN'])
        self.assertEqual('UNKNOWN', waiters.observe(lambda: next(answers)))

    def test_gives_up_with_the_last_value_never_raising(self):
        self.use_conf(build_timeout=0)
        self.assertEqual(0, waiters.observe(lambda: 0))


class FaultConfirmationTest(testtools.TestCase):
    """The outage tests start from the back end's confirmation that the
    cell is down, so an answer that does not confirm it is an error."""

    def endpoint(self, answer):
        from conformance_tests.common import faults
        endpoint = faults.ControlEndpoint('http://127.0.0.1:1', 'token', 5)
        endpoint._post = lambda path: answer
        return endpoint

    def test_confirmed_down_and_up(self):
        self.endpoint({'cells': {'cell2': 'down'}}).cell_down('cell2')
        self.endpoint({'cells': {'cell2': 'up'}}).cell_up('cell2')

    def test_unconfirmed_state_is_an_error(self):
        from conformance_tests.common import faults
        for answer in ({'cells': {'cell2': 'up'}}, {'cells': {}}, {}, None):
            e = self.assertRaises(faults.FaultError,
                                  self.endpoint(answer).cell_down, 'cell2')
            self.assertIn('cell cell2 reported', str(e))

    def test_an_unmigrate_is_confirmed_by_the_mapping_named(self):
        from conformance_tests.common import faults
        self.endpoint({'instance_uuid': 's1', 'user_id': None}
                      ).unmigrate_user_id('s1')
        e = self.assertRaises(faults.FaultError, self.endpoint(
            {'instance_uuid': 's2'}).unmigrate_user_id, 's1')
        self.assertIn('unmigrating s1 answered', str(e))

    def test_notifications_are_a_list_or_an_error(self):
        from conformance_tests.common import faults
        endpoint = self.endpoint(None)
        endpoint._request = lambda method, path: {'notifications': [1]}
        self.assertEqual([1], endpoint.notifications('server_group.create'))
        endpoint._request = lambda method, path: {'error': 'x'}
        e = self.assertRaises(faults.FaultError, endpoint.notifications,
                              'server_group.create')
        self.assertIn('GET /notifications/server_group.create', str(e))

    def test_the_unmigrated_mapping_needs_the_control_endpoint(self):
        from conformance_tests.common import faults
        conf = mock.Mock()
        conf.conformance.fault_control_url = ''
        self.assertEqual(faults.USER_ID_MIGRATION_CANNOT_SHOW,
                         faults.control_skip_reason(
                             conf, faults.USER_ID_MIGRATION_CANNOT_SHOW))
        conf.conformance.fault_control_url = 'http://127.0.0.1:1'
        self.assertIsNone(faults.control_skip_reason(
            conf, faults.NOTIFICATIONS_CANNOT_SHOW))


class FakeLeases(object):
    """Answers show_lease from a script of statuses; None means 404."""

    def __init__(self, statuses):
        self.statuses = iter(statuses)
        self.last = None
        self.shows = 0

    def show_lease(self, lease_id):
        self.shows += 1
        self.last = next(self.statuses, self.last)
        if self.last is None:
            raise lib_exc.NotFound()
        return {'lease': {'id': lease_id, 'status': self.last}}


class LeaseSettledTest(WaitersTestBase):

    def test_waits_until_blazar_has_started_the_lease(self):
        self.use_conf()
        client = FakeLeases(['STARTING', 'STARTING', 'ERROR'])
        waiters.wait_for_lease_settled(client, 'l1')
        self.assertEqual(3, client.shows)

    def test_a_pending_or_gone_lease_is_settled_at_once(self):
        self.use_conf()
        for statuses in (['PENDING'], [None]):
            client = FakeLeases(statuses)
            waiters.wait_for_lease_settled(client, 'l1')
            self.assertEqual(1, client.shows)

    def test_a_lease_that_never_settles_times_out_naming_it(self):
        self.use_conf(build_timeout=0)
        error = self.assertRaises(
            lib_exc.TimeoutException, waiters.wait_for_lease_settled,
            FakeLeases(['STARTING']), 'l1')
        self.assertIn('lease l1 to leave its transitional state',
                      str(error))
