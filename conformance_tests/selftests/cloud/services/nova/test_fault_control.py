"""cloud/services/nova/faults.py's control endpoint: which request does
what, with fake back ends (the real ones are the embedded cloud's, proven
by seed 001's runs)."""

import io
import json

import testtools

from conformance_tests.cloud.services.nova import faults

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


class ControlAppTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.migration = FakeMigration()
        self.app = faults.control_app(FakeOutages(), TOKEN, self.migration)

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
