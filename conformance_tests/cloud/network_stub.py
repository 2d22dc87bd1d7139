"""A network endpoint for Tempest's bookkeeping, and nothing more.

Neutron is not one of the features under test and does not run here.
Nova's own network calls go to nova's shipped NeutronFixture inside the
nova process. Tempest, however, refuses compute tests without a network
service in the catalog, and its dynamic credentials list and delete
security groups when they clean up. This stub answers exactly that: empty
lists for GET /v2.0/<collection>, 204 for DELETE, a version document at /.
It is not a reference implementation of neutron and no test checks it.
"""

import json


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


def _json(start_response, status, body):
    data = json.dumps(body).encode()
    start_response(status, [('Content-Type', 'application/json'),
                            ('Content-Length', str(len(data)))])
    return [data]
