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

"""cloud/services/nova/faults.py's control endpoint: which request does
what, with fake back ends (the real ones are the embedded cloud's, proven
by seed 001's runs)."""

import io
import json

import testtools

from conformance_tests.cloud.services.nova import faults
from conformance_tests.cloud.services.nova import notifications

TOKEN = 'sesame'


class FakeOutages(object):
    def status(self):
        return {'cell1': 'up'}


class FakeMigration(object):
    def __init__(self):
        self.calls = []

    def unmigrate(self, instance_uuid):
        self.calls.append(('unmigrate', instance_uuid))
        if instance_uuid == 'unknown':
            raise KeyError(instance_uuid)
        return {'instance_uuid': instance_uuid, 'user_id': None}

    def populate_user_id(self):
        self.calls.append(('populate_user_id',))
        return {'found': 1, 'done': 1}


class FakeNotifications(object):
    def sent(self, event_type):
        return [{'event_type': event_type, 'payload': {}}]


class ControlAppTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.migration = FakeMigration()
        self.app = faults.control_app(FakeOutages(), TOKEN, self.migration,
                                      FakeNotifications())

    def test_notifications_of_a_type(self):
        self.assertEqual(
            ('200', {'notifications': [{'event_type': 'server_group.create',
                                        'payload': {}}]}),
            self.call('GET', '/notifications/server_group.create'))

    def call(self, method, path, token=TOKEN):
        seen = {}

        def start_response(status, headers):
            seen['status'] = status

        body = b''.join(self.app({
            'REQUEST_METHOD': method, 'PATH_INFO': path,
            'wsgi.input': io.BytesIO(b''),
            faults.CONTROL_HEADER: token}, start_response))
        return seen['status'].split()[0], json.loads(body)

    def test_unmigrate_names_the_mapping(self):
        self.assertEqual(
            ('200', {'instance_uuid': 's1', 'user_id': None}),
            self.call('POST', '/instance-mappings/s1/unmigrate'))
        self.assertEqual([('unmigrate', 's1')], self.migration.calls)

    def test_an_unknown_mapping_is_a_404(self):
        status, body = self.call('POST', '/instance-mappings/unknown/'
                                 'unmigrate')
        self.assertEqual('404', status)
        self.assertIn('no instance mapping', body['error'])

    def test_the_migration_runs_on_request(self):
        self.assertEqual(('200', {'found': 1, 'done': 1}), self.call(
            'POST', '/online-data-migrations/populate_user_id'))

    def test_a_wrong_token_does_nothing(self):
        status, _ = self.call('POST', '/instance-mappings/s1/unmigrate',
                              token='guess')
        self.assertEqual('401', status)
        self.assertEqual([], self.migration.calls)

    def test_a_get_changes_nothing(self):
        status, _ = self.call('GET', '/online-data-migrations/'
                              'populate_user_id')
        self.assertEqual('404', status)
        self.assertEqual([], self.migration.calls)


class KeptNotificationsTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.addCleanup(notifications._kept.clear)
        notifications._kept.clear()

    def test_only_server_group_notifications_are_kept(self):
        notifications.keep({'event_type': 'instance.create.end'})
        notifications.keep({'event_type': 'server_group.create',
                            'priority': 'INFO', 'payload': {'x': 1},
                            'message_id': 'm1'})
        self.assertEqual([], notifications.sent('instance.create.end'))
        self.assertEqual([{'event_type': 'server_group.create',
                           'priority': 'INFO', 'payload': {'x': 1}}],
                         notifications.sent('server_group.create'))

    def test_the_oldest_go_first(self):
        for n in range(notifications.KEPT + 2):
            notifications.keep({'event_type': 'server_group.delete',
                                'payload': n})
        kept = notifications.sent('server_group.delete')
        self.assertEqual(notifications.KEPT, len(kept))
        self.assertEqual(2, kept[0]['payload'])
