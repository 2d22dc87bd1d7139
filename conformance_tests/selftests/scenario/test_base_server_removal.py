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

"""Servers booted one after another are removed together (every DELETE,
then one wait), and a cleanup registered between two boots still runs
between their removals. Fake clients; no cloud."""

import fixtures
from tempest.lib import exceptions as lib_exc
import testtools

from conformance_tests.common import waiters
from conformance_tests.scenario import base
from conformance_tests.selftests.common import test_waiters


class _Client(object):
    """Records every call in one log shared with the test's cleanups; a
    server is gone once it has been shown after its DELETE."""

    def __init__(self, log, build_timeout=60, refuse=()):
        self.log, self.build_timeout = log, build_timeout
        self.refuse = set(refuse)
        self.deleting, self.gone = set(), set()

    def delete_server(self, server_id):
        self.log.append(('DELETE', server_id))
        if server_id in self.refuse:
            raise lib_exc.Conflict()
        if server_id in self.gone:
            raise lib_exc.NotFound()
        self.deleting.add(server_id)

    def show_server(self, server_id):
        self.log.append(('GET', server_id))
        if server_id in self.gone:
            raise lib_exc.NotFound()
        if server_id in self.deleting:
            self.gone.add(server_id)
        return {'server': {'id': server_id, 'status': 'ACTIVE'}}


class _Base(object):
    def __init__(self):
        self.cleanups = []

    def addCleanup(self, function, *args, **kwargs):
        self.cleanups.append((function, args, kwargs))

    def run_cleanups(self):
        errors = []
        while self.cleanups:
            function, args, kwargs = self.cleanups.pop()
            try:
                function(*args, **kwargs)
            except Exception as e:
                errors.append(e)
        return errors


class _Scenario(base.ServersMixin, _Base):
    def __init__(self, client):
        super().__init__()
        self.servers = client


class ServerRemovalTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.MockPatchObject(
            waiters, 'CONF', test_waiters.fake_conf()))
        self.log = []
        self.client = _Client(self.log)
        self.scenario = _Scenario(self.client)

    def calls(self, method):
        return [server for m, server in self.log if m == method]

    def after_build_check(self):
        """The log after the removal's first look at each server (is it
        still building?), which comes before any DELETE."""
        first_delete = self.log.index(next(c for c in self.log
                                           if c[0] == 'DELETE'))
        self.assertEqual({'GET'}, {m for m, _ in self.log[:first_delete]})
        return self.log[first_delete:]

    def test_consecutive_servers_are_deleted_before_any_wait(self):
        for server_id in ('a', 'b', 'c'):
            self.scenario.remove_server_later(server_id)
        self.assertEqual(1, len(self.scenario.cleanups))
        self.assertEqual([], self.scenario.run_cleanups())
        self.assertEqual([('DELETE', 'c'), ('DELETE', 'b'),
                          ('DELETE', 'a')], self.after_build_check()[:3])
        self.assertEqual({'a', 'b', 'c'}, self.client.gone)

    def test_a_cleanup_between_two_boots_runs_between_their_removals(self):
        self.scenario.remove_server_later('a')
        self.scenario.addCleanup(self.log.append, ('other', None))
        self.scenario.remove_server_later('b')
        self.assertEqual([], self.scenario.run_cleanups())
        other = self.log.index(('other', None))
        self.assertEqual(['b'], self.calls('DELETE')[:1])
        # b is gone (deleted and waited for) before the other cleanup
        # runs; a is deleted only after it.
        self.assertEqual({'b'}, {s for m, s in self.log[:other]})
        self.assertEqual({'a'}, {s for m, s in self.log[other + 1:]})

    def test_the_same_server_twice_is_deleted_once(self):
        self.scenario.remove_server_later('a')
        self.scenario.remove_server_later('a')
        self.scenario.run_cleanups()
        self.assertEqual(['a'], self.calls('DELETE'))

    def test_servers_of_two_clients_are_removed_together(self):
        other = _Client(self.log)
        self.scenario.remove_server_later('a')
        self.scenario.remove_server_later('b', other)
        self.assertEqual(1, len(self.scenario.cleanups))
        self.assertEqual([], self.scenario.run_cleanups())
        # Both DELETEs before any wait, each server by its own client.
        self.assertEqual([('DELETE', 'b'), ('DELETE', 'a')],
                         self.after_build_check()[:2])
        self.assertEqual({'a'}, self.client.gone)
        self.assertEqual({'b'}, other.gone)

    def test_a_refused_delete_is_raised_after_the_others_are_gone(self):
        self.client.refuse.add('b')
        for server_id in ('a', 'b', 'c'):
            self.scenario.remove_server_later(server_id)
        errors = self.scenario.run_cleanups()
        self.assertEqual(1, len(errors))
        self.assertIsInstance(errors[0], lib_exc.Conflict)
        self.assertEqual({'a', 'c'}, self.client.gone)

    def test_a_server_never_gone_times_out_naming_it(self):
        client = _Client(self.log, build_timeout=0)
        client.delete_server = lambda server_id: None  # never deleting
        scenario = _Scenario(client)
        scenario.remove_server_later('a')
        scenario.remove_server_later('b')
        errors = scenario.run_cleanups()
        self.assertEqual(1, len(errors))
        self.assertIsInstance(errors[0], lib_exc.TimeoutException)
        self.assertIn('server b, server a to be deleted', str(errors[0]))
        self.assertIn('a: status ACTIVE', str(errors[0]))
