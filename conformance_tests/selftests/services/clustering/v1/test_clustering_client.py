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

"""The clustering client polls senlin with common/waiters' back-off
(from [conformance] poll_interval up to its build_interval) and keeps
its build_timeout."""

import types

import fixtures
from tempest.lib import exceptions as lib_exc
import testtools

from conformance_tests.common import waiters
from conformance_tests.services.clustering.v1 import clustering_client


def client(statuses, build_timeout=60, build_interval=1):
    """A ClusteringClient without a cloud: show_action and the JSON call
    answer from scripts."""
    c = clustering_client.ClusteringClient.__new__(
        clustering_client.ClusteringClient)
    c.build_timeout = build_timeout
    c.build_interval = build_interval
    statuses = iter(statuses)
    c.shows = 0

    def show_action(action_id):
        c.shows += 1
        return {'id': action_id, 'action': 'CLUSTER_CREATE',
                'status': next(statuses)}
    c.show_action = show_action
    return c


class SenlinPollingTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.MockPatchObject(
            waiters, 'CONF', types.SimpleNamespace(
                conformance=types.SimpleNamespace(poll_interval=0.1),
                compute=types.SimpleNamespace(build_interval=7))))
        self.slept = []
        self.useFixture(fixtures.MockPatchObject(
            clustering_client.time, 'sleep', self.slept.append))

    def test_backs_off_up_to_the_clients_build_interval(self):
        c = client(['RUNNING'] * 8 + ['SUCCEEDED'], build_interval=1)
        self.assertEqual('SUCCEEDED', c.wait_for_action('a1')['status'])
        self.assertEqual(9, c.shows)
        self.assertEqual(0.1, self.slept[0])
        for before, after in zip(self.slept, self.slept[1:]):
            self.assertAlmostEqual(min(1, before * waiters.BACKOFF), after)
        self.assertEqual(1, self.slept[-1])

    def test_any_end_state_is_returned(self):
        for end in clustering_client.END_STATES:
            self.assertEqual(end, client([end]).wait_for_action('a1')[
                'status'])
        self.assertEqual([], self.slept)

    def test_times_out_naming_the_action(self):
        c = client(['RUNNING'] * 3, build_timeout=-1)
        e = self.assertRaises(clustering_client.ActionTimeout,
                              c.wait_for_action, 'a1', 'CLUSTER_DELETE')
        self.assertIsInstance(e, lib_exc.TimeoutException)
        self.assertIn('CLUSTER_DELETE a1 still RUNNING after -1 s', str(e))

    def test_locked_cluster_is_retried_with_back_off(self):
        c = client([])
        answers = [lib_exc.Conflict(resp_body={'error': 'cluster locked'})] * 3
        answers.append(({}, {'ok': True}))

        def _json(method, url, body, expected, microversion):
            answer = answers.pop(0)
            if isinstance(answer, Exception):
                raise answer
            return answer
        c._json = _json
        self.assertEqual(({}, {'ok': True}),
                         c._while_locked('DELETE', 'v1/clusters/c', None,
                                         (202,)))
        self.assertEqual([0.1, 0.15, 0.225],
                         [round(s, 6) for s in self.slept])

    def test_other_conflicts_are_raised_at_once(self):
        c = client([])

        def _json(method, url, body, expected, microversion):
            raise lib_exc.Conflict(resp_body={'error': 'name taken'})
        c._json = _json
        self.assertRaises(lib_exc.Conflict, c._while_locked, 'POST',
                          'v1/clusters/c/actions', {}, (202,))
        self.assertEqual([], self.slept)


def stuck_client(parent_statuses, child_status='SUCCEEDED', children=('n1',),
                 build_timeout=600):
    """A client whose scale-out 'p1' goes through ``parent_statuses`` (the
    last one repeats) while its children show ``child_status``."""
    c = clustering_client.ClusteringClient.__new__(
        clustering_client.ClusteringClient)
    c.build_timeout = build_timeout
    c.build_interval = 1
    c.stuck = set()
    statuses = list(parent_statuses)

    def show_action(action_id):
        if action_id != 'p1':
            return {'id': action_id, 'status': child_status}
        status = statuses.pop(0) if len(statuses) > 1 else statuses[0]
        return {'id': 'p1', 'action': 'CLUSTER_SCALE_OUT', 'status': status,
                'depends_on': list(children)}
    c.show_action = show_action
    return c


class StuckActionTest(testtools.TestCase):
    """An action WAITING on nothing unfinished for STUCK_SECONDS is
    stuck; one whose children still run, or that is resumed, is not."""

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.MockPatchObject(
            waiters, 'CONF', types.SimpleNamespace(
                conformance=types.SimpleNamespace(poll_interval=1),
                compute=types.SimpleNamespace(build_interval=1))))
        self.now = [0.0]
        self.useFixture(fixtures.MockPatchObject(
            clustering_client.time, 'sleep',
            lambda s: self.now.__setitem__(0, self.now[0] + s)))
        self.useFixture(fixtures.MockPatchObject(
            clustering_client.time, 'monotonic', lambda: self.now[0]))

    def test_waiting_on_ended_children_is_stuck_after_45_s(self):
        c = stuck_client(['WAITING'])
        e = self.assertRaises(clustering_client.ActionStuck,
                              c.wait_for_action, 'p1', 'CLUSTER_SCALE_OUT')
        self.assertGreaterEqual(self.now[0], clustering_client.STUCK_SECONDS)
        self.assertLess(self.now[0], clustering_client.STUCK_SECONDS + 2)
        self.assertIn('CLUSTER_SCALE_OUT p1 still WAITING 45 s after every '
                      'action it waits for ended (n1)', e.detail)
        self.assertEqual('WAITING', e.action['status'])
        self.assertEqual({'p1'}, c.stuck)

    def test_waiting_on_a_running_child_waits_for_it(self):
        c = stuck_client(['WAITING'], child_status='RUNNING',
                         build_timeout=100)
        self.assertRaises(clustering_client.ActionTimeout,
                          c.wait_for_action, 'p1')
        self.assertEqual(set(), c.stuck)

    def test_resumed_in_time_is_not_stuck(self):
        c = stuck_client(['WAITING'] * 30 + ['READY', 'RUNNING'] +
                         ['WAITING'] * 30 + ['SUCCEEDED'])
        self.assertEqual('SUCCEEDED', c.wait_for_action('p1')['status'])

    def test_running_for_long_is_not_stuck(self):
        c = stuck_client(['RUNNING'] * 100 + ['SUCCEEDED'])
        self.assertEqual('SUCCEEDED', c.wait_for_action('p1')['status'])

    def test_force_cancel_and_force_delete_speak_their_microversions(self):
        c = stuck_client(['WAITING'])
        calls = []
        c._json = lambda *args: (calls.append(args) or
                                 ({'location': '/a/x'}, {}))
        c.force_cancel_action('p1')
        c.delete_cluster('c1', force=True)
        self.assertEqual(
            ('PATCH', 'v1/actions/p1?force=true',
             {'action': {'status': 'CANCELLED'}}, (202,), '1.12'), calls[0])
        self.assertEqual(('DELETE', 'v1/clusters/c1?force=true', None,
                          (202,), '1.8'), calls[1])
