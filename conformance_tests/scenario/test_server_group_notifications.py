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

"""Seed 000, notifications: "server_group.create, server_group.delete and
server_group.add_member versioned notifications will be updated to
include the new policy field instead of the old policies field".

Judged where the suite can read what nova sends: the embedded cloud's
control endpoint hands over the server group notifications
(cloud/services/nova/notifications.py). A deployment's go to its message
bus, which the suite does not read: not-applicable there, saying so.

Each notification of the test's group must carry the group's policy and
its rules as the API shows them (the payload's rules field is a dict of
strings, so a rule's value is compared as its string). "Instead of the
old policies field": nova's payload 1.1 keeps `policies`, deprecated, for
consumers of 1.0; where it is there it must agree with the policy, never
name another.
"""

from tempest import config
from tempest.lib import decorators

from conformance_tests.common import faults
from conformance_tests.common import outcomes
from conformance_tests.common import skips
from conformance_tests.common import waiters
from conformance_tests.scenario import base
from conformance_tests.services.compute.v2 import server_groups

CONF = config.CONF
MICROVERSION = '2.64'
RULES = {'max_server_per_host': 2}
RULE = ('server_group.create, server_group.add_member and '
        'server_group.delete versioned notifications carry the group\'s '
        'policy (and its rules), not only the old policies field')


class ServerGroupNotificationsTest(base.ComputeScenarioTest):
    min_microversion = MICROVERSION
    max_microversion = MICROVERSION

    @classmethod
    def skip_checks(cls):
        super().skip_checks()
        skips.skip_if(cls, faults.control_skip_reason(
            CONF, faults.NOTIFICATIONS_CANNOT_SHOW))

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.groups = cls.os_primary.server_groups_client

    def payload_of(self, event_type, group_id, also=lambda data: True):
        """The payload data of the first ``event_type`` notification of
        the group for which ``also(data)`` holds, awaited ([compute]
        build_timeout: a bus delivers when it does)."""
        fault = faults.backend(CONF)

        def sent():
            for found in fault.notifications(event_type):
                data = (found.get('payload') or {}).get(
                    'nova_object.data') or {}
                if data.get('uuid') == group_id and also(data):
                    return data
            return None
        return waiters.wait_until('nova\'s %s notification of group %s' % (
            event_type, group_id), sent)

    def assert_carries_policy(self, event_type, data):
        self.assertEqual(
            ('anti-affinity', {k: str(v) for k, v in RULES.items()}),
            (data.get('policy'), data.get('rules')),
            '%s: %s of group %s carries policy %r and rules %r' % (
                RULE, event_type, data.get('uuid'), data.get('policy'),
                data.get('rules')))
        if data.get('policies') is not None:
            self.assertEqual(['anti-affinity'], data['policies'],
                             '%s: %s: the deprecated policies field names '
                             'another policy' % (RULE, event_type))

    @decorators.idempotent_id('3d1f7a52-6c0e-4b9a-a8e1-5f2b9c7d4e16')
    def test_create_add_member_and_delete_carry_the_policy(self):
        # The flat 2.64 request, sent raw: the rule is about what nova
        # sends, and only the group's id is read from the answer (the
        # spec reference answers in the seed's nested view, which
        # Tempest's 2.64 schema refuses; the view has rules of its own).
        name = self.name('sg')
        # Before the POST: a group made by a request without an answer
        # goes too.
        self.addCleanup(server_groups.delete_matching, self.raw, self.groups,
                        lambda found: found == name)
        status, body = self.raw.call(
            'POST', '/os-server-groups', MICROVERSION,
            {'server_group': {'name': name, 'policy': 'anti-affinity',
                              'rules': RULES}})
        self.assertEqual(200, status, '%s: POST /os-server-groups at %s '
                         'answered %s %s' % (RULE, MICROVERSION, status,
                                             str(body)[:300]))
        group = body['server_group']
        self.assert_carries_policy('server_group.create', self.payload_of(
            'server_group.create', group['id']))

        server_id = self.boot_accepted('%s (a boot into the group)' % RULE,
                                       group=group)
        self.assertEqual('ACTIVE', self.settle(server_id)['status'],
                         '%s: the group\'s server %s must go ACTIVE' % (
                             RULE, server_id))
        added = self.payload_of(
            'server_group.add_member', group['id'],
            also=lambda data: server_id in (data.get('members') or ()))
        self.assert_carries_policy('server_group.add_member', added)

        outcomes.must_succeed(self, '%s (the server is deleted)' % RULE,
                              self.delete_server, server_id)
        outcomes.must_succeed(self, '%s (the group is deleted)' % RULE,
                              self.groups.delete_server_group, group['id'])
        self.assert_carries_policy('server_group.delete', self.payload_of(
            'server_group.delete', group['id']))
