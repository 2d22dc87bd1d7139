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

"""A network endpoint for Tempest's bookkeeping, and nothing more.

Neutron is not one of the features under test and does not run here.
Nova's own network calls go to nova's shipped NeutronFixture inside the
nova process. Tempest, however, refuses compute tests without a network
service in the catalog, and its dynamic credentials list and delete
security groups when they clean up. This stub answers exactly that: empty
lists for GET /v2.0/<collection>, 204 for DELETE, a version document at /.
It is not a reference implementation of neutron and no test checks it.
"""

from conformance_tests.cloud import http
from conformance_tests.cloud.services import base


class NetworkStub(base.Service):
    """Runs in nova's process (nova's own network calls go to nova's
    NeutronFixture there)."""

    name = 'network-stub'
    process = 'nova'
    listeners = (base.Listener(base.API, '/', '/networking'),)
    catalog = (base.CatalogEntry('network', base.API, '/'),)
    depends_on = ('keystone',)

    def tempest_conf(self, ctx):
        # No network is created: [auth] create_isolated_networks is false
        # and [validation] run_validation too (client_files.BASE).
        return {'service_available': {'neutron': 'true'}}

    def build(self, proc):
        return {base.API: app}


def app(environ, start_response):
    method = environ['REQUEST_METHOD']
    path = environ.get('PATH_INFO', '/').rstrip('/')
    if path == '' and method == 'GET':
        return _json(start_response, '200 OK', {'versions': [
            {'id': 'v2.0', 'status': 'CURRENT', 'links': []}]})
    parts = [p for p in path.split('/') if p]
    if parts[:1] == ['v2.0'] and len(parts) == 2 and method == 'GET':
        collection = parts[1].replace('-', '_').split('.')[0]
        return _json(start_response, '200 OK', {collection: []})
    if parts[:1] == ['v2.0'] and len(parts) == 3 and method == 'DELETE':
        start_response('204 No Content', [])
        return [b'']
    return _json(start_response, '404 Not Found', {'NeutronError': {
        'type': 'NotFound', 'message': 'not provided by the conformance '
        'network stub', 'detail': ''}})


# Every answer of the stub is JSON.
_json = http.json_response

SERVICE = NetworkStub()
