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

"""A boot whose POST got no answer leaves nothing behind: the server nova
may still have made under that run-unique name is removed at cleanup.
Fake clients; no cloud."""

import testtools

from conformance_tests.scenario import base


class _Client(object):
    def __init__(self, listed):
        self.listed, self.deleted, self.filters = listed, [], []

    def create_server(self, **kwargs):
        raise ConnectionError('Read timed out. (read timeout=60)')

    def list_servers(self, **filters):
        self.filters.append(filters)
        return {'servers': self.listed}


class _Scenario(base.ServersMixin):
    def __init__(self, client):
        self.servers, self.cleanups = client, []

    def addCleanup(self, func, *args):
        self.cleanups.append((func, args))

    def name(self, what):
        return 'conformance-server-123'

    def delete_server(self, server_id, client=None):
        (client or self.servers).deleted.append(server_id)


class LostBootTest(testtools.TestCase):

    def test_unanswered_boot_removes_what_has_its_name_only(self):
        client = _Client([{'id': 'a', 'name': 'conformance-server-123'},
                          {'id': 'b', 'name': 'conformance-server-1234'}])
        scenario = _Scenario(client)
        self.assertRaises(ConnectionError, scenario.boot)
        for func, args in scenario.cleanups:
            func(*args)
        # nova's name filter is a regex: anchored and escaped, and the
        # exact name is checked again.
        self.assertEqual([{'name': r'^conformance\-server\-123$'}],
                         client.filters)
        self.assertEqual(['a'], client.deleted)
