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

"""A server group whose 2.64 answer fails Tempest's view check is still
removed: nova made it, and the test's failure must not leave it behind.
Fake clients; no cloud."""

import types

from tempest.lib import exceptions as lib_exc
import testtools

from conformance_tests.scenario import test_server_group_spread as spread

NAME = 'conformance-sg-123'


class _Groups(object):
    """POST makes the group, then answers a view Tempest refuses."""

    def __init__(self):
        self.deleted = []

    def create_server_group(self, **body):
        raise lib_exc.InvalidHTTPResponseBody(
            "'rules' is a required property")

    def delete_server_group(self, group_id):
        self.deleted.append(group_id)


class _Raw(object):
    def __init__(self):
        self.asked = []

    def get(self, url, microversion):
        self.asked.append((url, microversion))
        return {'server_groups': [{'id': 'g1', 'name': NAME},
                                  {'id': 'g2', 'name': NAME + '4'}]}


class SpreadGroupCleanupTest(testtools.TestCase):

    def test_a_group_with_a_refused_view_is_removed_by_its_name(self):
        test = types.SimpleNamespace(groups=_Groups(), raw=_Raw(),
                                     cleanups=[])
        test.addCleanup = lambda *a: test.cleanups.append(a)
        test.name = lambda what: NAME
        test.fail = self.fail_as_assertion
        test._delete_groups_named = (
            lambda *args: spread.ServerGroupSpreadTest._delete_groups_named(
                test, *args))
        self.assertRaises(
            AssertionError, spread.ServerGroupSpreadTest._create_group,
            test, 'anti-affinity')
        for function, *args in test.cleanups:
            function(*args)
        # Listed raw, at a view older than 2.64; only the exact name goes.
        self.assertEqual([('os-server-groups', '2.15')], test.raw.asked)
        self.assertEqual(['g1'], test.groups.deleted)

    @staticmethod
    def fail_as_assertion(message):
        raise AssertionError(message)
