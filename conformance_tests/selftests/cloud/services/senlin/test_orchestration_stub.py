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

"""The orchestration stub senlin's stack profiles need, and the one
non-zero exit the CLI check accepts from `cluster policy create`."""

import io
import json

import testtools

from conformance_tests.cloud.services.senlin import orchestration_stub
from conformance_tests.cloud.services.senlin import orchestration_stub as desc


def call(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else b''
    environ = {'REQUEST_METHOD': method, 'PATH_INFO': path,
               'CONTENT_LENGTH': str(len(data)),
               'wsgi.input': io.BytesIO(data)}
    got = {}

    def start_response(status, headers):
        got['status'] = int(status.split()[0])
    out = b''.join(orchestration_stub.app(environ, start_response))
    return got['status'], json.loads(out)


class OrchestrationStubTest(testtools.TestCase):

    def test_previews_an_empty_template(self):
        status, body = call('POST', '/v1/p1/stacks/preview', {
            'stack_name': 'x', 'preview': True,
            'template': {'heat_template_version': '2016-04-08'}})
        self.assertEqual(200, status)
        self.assertEqual('x', body['stack']['stack_name'])
        self.assertEqual([], body['stack']['resources'])

    def test_refuses_templates_with_resources_or_none(self):
        for template in ({'heat_template_version': '2016-04-08',
                          'resources': {'r': {'type': 'OS::Nova::Server'}}},
                         {'resources': {}}, None, 'text'):
            status, _ = call('POST', '/v1/p1/stacks/preview',
                             {'template': template})
            self.assertEqual(400, status, template)

    def test_nothing_else(self):
        for method, path in (('POST', '/v1/p1/stacks'),
                             ('GET', '/v1/p1/stacks'),
                             ('DELETE', '/v1/p1/stacks/a/b')):
            self.assertEqual(404, call(method, path)[0], path)

    def test_descriptor_shares_senlins_process_and_claims_no_heat(self):
        self.assertEqual('senlin', desc.SERVICE.process)
        self.assertEqual('orchestration', desc.SERVICE.catalog[0].type)
        conf = desc.SERVICE.tempest_conf(None)
        self.assertNotIn('service_available', conf)
        self.assertEqual('true', conf['conformance']['senlin_heat_profiles'])


class CreateExitTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        # the test module imports Tempest's config: keep it out of the
        # self-tests' import time
        from conformance_tests.api.clustering import test_affinity_cli
        self.accepted = test_affinity_cli.exit_accepts_create

    def test_zero(self):
        self.assertTrue(self.accepted(0, ''))

    def test_the_client_formatter_defect_after_the_cloud_answered(self):
        self.assertTrue(self.accepted(
            1, 'some warning\nInvalid formatter provided.\n'))

    def test_any_other_failure(self):
        self.assertFalse(self.accepted(1, ''))
        self.assertFalse(self.accepted(
            1, 'Invalid formatter provided.\nBadRequest: spec refused'))
        self.assertFalse(self.accepted(2, 'Invalid formatter provided.'))
        self.assertFalse(self.accepted(1, 'ERROR: Invalid formatter'))
