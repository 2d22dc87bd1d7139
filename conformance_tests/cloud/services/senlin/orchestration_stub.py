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

"""An orchestration endpoint for senlin's profile check, and nothing more.

Heat is not one of the features under test and does not run here. Senlin
16 stores an os.heat.stack-1.0 profile only after asking heat for a
preview of its template (`POST /v1/<project>/stacks/preview`): without an
orchestration endpoint no cluster of a non-nova profile type can exist,
and the affinity policy's profile-type rule cannot be tried. This stub
answers that one request for a template that declares a
heat_template_version and no resources (the preview of an empty stack:
nothing to create) and refuses any other template with 400, as heat
would. Everything else is 404. No stack is ever made: the test's
cluster has no nodes. It is not a reference implementation of heat and no
test checks it.
"""

import json

from conformance_tests.cloud import http
from conformance_tests.cloud.services import base


class OrchestrationStub(base.Service):
    """Runs in senlin's process, the only one that calls it."""

    name = 'orchestration-stub'
    process = 'senlin'
    listeners = (base.Listener(base.API, '/', '/heat-api'),)
    catalog = (base.CatalogEntry('orchestration', base.API,
                                 '/v1/$(project_id)s'),)
    depends_on = ('keystone',)

    def tempest_conf(self, ctx):
        # heat is not available ([service_available] heat stays false):
        # only senlin's profile check is served.
        return {'conformance': {'senlin_heat_profiles': 'true'}}

    def build(self, proc):
        return {base.API: app}


def app(environ, start_response):
    method = environ['REQUEST_METHOD']
    parts = [p for p in environ.get('PATH_INFO', '/').split('/') if p]
    if not parts and method == 'GET':
        return _json(start_response, '300 Multiple Choices', {'versions': [
            {'id': 'v1.0', 'status': 'CURRENT', 'links': []}]})
    if (method == 'POST' and len(parts) == 4 and parts[0] == 'v1'
            and parts[2:] == ['stacks', 'preview']):
        return _preview(environ, start_response)
    return _json(start_response, '404 Not Found', {'error': {
        'type': 'NotFound', 'message': 'not provided by the conformance '
        'orchestration stub'}})


def _preview(environ, start_response):
    length = int(environ.get('CONTENT_LENGTH') or 0)
    try:
        body = json.loads(environ['wsgi.input'].read(length) or b'{}')
    except ValueError:
        body = None
    template = (body or {}).get('template')
    if (not isinstance(template, dict)
            or 'heat_template_version' not in template
            or template.get('resources')):
        return _json(start_response, '400 Bad Request', {'error': {
            'type': 'StackValidationFailed', 'message': 'the conformance '
            'orchestration stub previews only templates without '
            'resources'}})
    return _json(start_response, '200 OK', {'stack': {
        'id': 'None', 'stack_name': body.get('stack_name'),
        'description': template.get('description', ''),
        'template_description': template.get('description', ''),
        'parameters': {}, 'resources': [], 'links': []}})


# Every answer of the stub is JSON.
_json = http.json_response

SERVICE = OrchestrationStub()
